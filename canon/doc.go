// Package canon owns the canonical text of lore's own files: one layout for
// every lorebook, manifest and entry file lore writes or rewrites. It writes a
// loaded lorebook as YAML or JSON (lore import), formats existing files in
// place of their author's layout while keeping comments (lore fmt), checks
// that a formatted file still says what the original said, and writes files
// and folder lorebooks atomically (import, export, fmt, init).
//
// The layout is decided in one place, so that what import writes is already
// what fmt would write: entry and manifest keys follow entryKeyOrder and
// manifestKeyOrder, and styleTree chooses block or flow style and literal
// blocks for every tree, built or read.
//
// canon depends on schema and diag only. It knows no foreign format (that is
// formats, which uses canon's node builders and JSON writer for its own
// output), and it neither activates, renders nor lints.
package canon

// Package reply checks what a model wrote against the output formats of a
// lorebook (SPEC §5): it compiles each format a book's entries define — read
// by package outformat, as the format-template rule reads them — into the
// lines a reply must have (literal text, ${…} to fill, $(…) never printed,
// `...` repetitions, ${part} alternatives, the wrapping <tag>, limits stated
// in words, a TypeScript or zod `type:` for JSON), finds each format's block
// in a reply, and reports every difference at the reply's line:col with the
// template's file:line:col as the related place. Replies are plain text or
// the character messages of a SillyTavern .jsonl chat, whose positions are
// those of the file, JSON escapes counted.
//
// It must not load lorebooks (cmd and testrun pass them in) or print; what it
// reports is deterministic, and checking is linear in the size of the replies
// for a given book.
package reply

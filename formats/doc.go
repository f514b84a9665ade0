// Package formats owns lore's foreign formats: detecting a file's format by its
// content (SillyTavern world info, Character Card V2/V3 as JSON or PNG, standalone
// lorebook_v3, NovelAI .lorebook, AI Dungeon world info and story cards, Agnai
// memory books, RisuAI lorebooks), converting it to lore's model (import), and
// writing SillyTavern and Card V3 files (export). Writing lore's own files is
// canon's job; formats uses canon's node builders and JSON writer for its own
// JSON output.
//
// What a format has and lore's model has no place for is kept verbatim under
// Entry.Extensions[<format id>] and reported once per kind as an info diagnostic
// (rule "import"), so a round trip loses nothing. The field-by-field mapping is
// documented in docs/formats.md; keep the two in step.
//
// formats depends on schema, diag and canon only. It must not import render or lint:
// it converts, it does not judge.
package formats

// Package formats owns lore's foreign formats: detecting a file's format by its
// content (SillyTavern world info, Character Card V2/V3 as JSON, PNG or .charx,
// standalone lorebook_v3, NovelAI .lorebook, AI Dungeon world info and story
// cards, Agnai memory books, RisuAI lorebooks), converting it to lore's model
// (import), writing SillyTavern, card V2/V3 (JSON, or in a PNG's tEXt
// chunks), .charx and NovelAI files (export), and the loss report of every conversion: what the target cannot
// hold or reads differently, entry by entry. Writing lore's own files is
// canon's job; formats writes its exports with its own ordered JSON writer.
//
// What a format has and lore's model has no place for is kept verbatim under
// Entry.Extensions[<format id>], so a round trip loses nothing; the loss
// report (ImportLosses, Export) says what lore's engine does not act on and
// what an export drops or changes. The field-by-field mapping is documented
// in docs/formats.md; keep the two in step.
//
// formats depends on schema and diag only (its tests use canon). It must not import render or lint:
// it converts, it does not judge.
package formats

// Package lsp is `lore lsp`: a Language Server Protocol server over stdio
// that lints a lorebook while its creator types. A folder lorebook (a
// manifest and its entry files) is one book, any other lorebook file (lore's
// own, SillyTavern, a card, NovelAI …) is a book of its own; every open
// buffer is read in place of its file on disk (schema.Overlay,
// formats.OpenWith), so findings follow the unsaved text. It publishes every
// validate and lint finding on the file it points at, and answers hover,
// definition, references, code actions (lint --fix's edits), completion,
// document symbols and formatting (lore fmt's). The protocol's types are
// github.com/tliron/glsp's; the JSON-RPC connection is
// github.com/sourcegraph/jsonrpc2's (README: "lore lsp").
package lsp

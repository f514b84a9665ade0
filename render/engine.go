package render

// Engine turns a lorebook and a chat into the prompt one roleplay engine would
// send: it decides which entries activate, where each lands and what its budget
// keeps. Every engine fills the same Result, so every output format, --explain
// and the lint rules work with any engine.
type Engine interface {
	// Name is the engine's id, as --engine and settings.engine spell it.
	Name() string
	// Render activates, places and budgets one prompt.
	Render(in *Input) (*Result, error)
}

// Sizer is an engine that can measure what a lorebook always sends, without a
// chat: `lore tokens` without --transcript prints it, lint's budget rules read
// it. An engine without it is sized by rendering an empty chat.
type Sizer interface {
	SizeUp(in *Input) *Sizing
}

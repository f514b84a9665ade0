package render

import (
	"sync"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// Message is one message of the rendered prompt, as SPEC §7's JSON contract
// names its fields.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Name is the speaker name an engine gives a message, sent as OpenAI's
	// per-message name (SillyTavern's example dialogue: example_user,
	// example_assistant); "" for none.
	Name    string   `json:"name,omitempty"`
	Step    int      `json:"step"`
	Sources []string `json:"sources"`
	// Section is the budget section the message counted against ("" for
	// markers); Cut says the budget shortened it. Both are for the text output.
	Section string `json:"-"`
	Cut     bool   `json:"-"`
}

// ActivatedOut is one element of SPEC §7's `activated`.
type ActivatedOut struct {
	ID   string `json:"id"`
	Step int    `json:"step"`
	// Depth is the entry's depth when it was injected into history; absent
	// for the triggered block and other sections.
	Depth     *int    `json:"depth,omitempty"`
	Trigger   Trigger `json:"trigger"`
	Recursion int     `json:"recursion"`
	// Position, Role and Order say where an engine with named insertion
	// points put the entry (SillyTavern: before-char, after-char, an-top,
	// an-bottom, depth, em-top, em-bottom, outlet; the message role at a
	// depth; its insertion order). lore's own engine leaves them empty.
	Position string `json:"position,omitempty"`
	Role     string `json:"role,omitempty"`
	Order    *int   `json:"order,omitempty"`
	// Kind is "constant", "greeting" or "card" (a character card's field,
	// which SillyTavern sends in its place; Position names the field) for
	// the text output's wording.
	Kind string `json:"-"`
}

// Result is a rendered prompt with its trace.
type Result struct {
	// Engine is the name of the engine that rendered it.
	Engine   string
	Messages []Message
	// Activated lists the entries in the final prompt, in prompt order.
	Activated []ActivatedOut
	Report    *Report
	// Breakpoint is the index in Messages of the last message before the
	// cache breakpoint (SPEC §3 step 5), -1 when no message comes before it.
	Breakpoint int
	// explain gives Explanations.
	explain func() map[string]*Explanation
	// Book is the lorebook rendered (for names and positions in --explain).
	Book *schema.Lorebook
	// Warnings are problems that did not stop the render (a transform that
	// does not compile); the command prints them on stderr.
	Warnings []string
	// Limits are the bounds against hostile input this render ran into (a
	// regular expression stopped at its time limit, macros past their
	// output budget), each naming the file, the entry and the bound: the
	// prompt is not what the engine would send, so commands print them on
	// stderr and exit 1.
	Limits []string
	// Effects are the timed effects in force after this generation, which
	// the next one inherits (SillyTavern's sticky and cooldown); nil for
	// engines without them.
	Effects []Effect
}

// Effect is one timed effect on an entry: Kind ("sticky", "cooldown") from
// chat length Start until the chat has End messages.
type Effect struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Explanation says why one entry is or is not activated: each reason a code
// with the field it comes from and its parameters, which Text says in
// sentences a creator can read ("keyword "tavern" matched in message:3:
// “…this tavern?…”").
type Explanation struct {
	Active bool
	// Level is the recursion level the entry activated at (0 for the chat,
	// constants and always-sent entries), whether or not the budget kept it.
	Level   int
	Reasons []reason.Reason
}

// Texts is each reason in English.
func (x *Explanation) Texts() []string { return reason.Texts(x.Reasons) }

// Entry returns the lorebook's (first) entry with that id.
func (r *Result) Entry(id string) *schema.Entry {
	if r.Book == nil {
		return nil
	}
	for _, e := range r.Book.Entries {
		if e != nil && e.ID == id {
			return e
		}
	}
	return nil
}

// InPrompt returns the entry's place in the prompt, or nil.
func (r *Result) InPrompt(id string) *ActivatedOut {
	for i := range r.Activated {
		if r.Activated[i].ID == id {
			return &r.Activated[i]
		}
	}
	return nil
}

// Explanations has, for every entry of the lorebook, why it is or is not
// in the prompt: activation's reasons, then the budget's. Engines may make
// them when first asked (ExplainLater): most renders print the prompt and
// its trace, and only --explain, --report, the preview and lore test read
// why every entry of the book is in or out (on a 10,000-entry book that is
// 10,000 explanations and 6 MB). It is safe for concurrent use.
func (r *Result) Explanations() map[string]*Explanation {
	if r.explain == nil {
		return nil
	}
	return r.explain()
}

// SetExplanations sets the explanations.
func (r *Result) SetExplanations(m map[string]*Explanation) {
	r.explain = func() map[string]*Explanation { return m }
}

// ExplainLater has Explanations call build, once, when first asked. build
// must read only what no one changes after the render.
func (r *Result) ExplainLater(build func() map[string]*Explanation) {
	r.explain = sync.OnceValue(build)
}

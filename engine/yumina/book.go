package yumina

import (
	"github.com/lorekit/lore/schema"
)

// Yumina's defaults for what a lorebook leaves unset (its world schema and
// its editor), where they differ from lore's.
const (
	// defaultDepth is the depth Yumina's editor gives a new chat-history
	// entry; the engine itself has no default and drops an entry without one.
	defaultDepth = 4
	// defaultScanDepth is lorebookScanDepth: the newest messages scanned.
	defaultScanDepth = 2
	// maxRecursion is the most recursion levels Yumina scans, whatever the
	// setting.
	maxRecursion = 10
)

// Roles and sections Yumina treats specially.
const (
	roleExample  = "example"
	roleGreeting = "greeting"
)

// entry is a lorebook entry as Yumina sees it: lore's fields, with Yumina's
// defaults where the lorebook leaves alwaysSend or a chat-history depth unset.
type entry struct {
	*schema.Entry
	idx  int    // index in the lorebook
	name string // the entry's name, else its id (Yumina requires a name)
	// alwaysSend and depth are the values Yumina uses; the flags say they
	// are Yumina's defaults rather than the lorebook's.
	alwaysSend        bool
	depth             *int
	defaultAlwaysSend bool
	defaultDepth      bool
}

// variableBound is Yumina's "gated by variables": any entry with conditions.
// Such an entry is matched rather than always sent, and is matched even when
// disabled.
func (e *entry) variableBound() bool { return len(e.Conditions) > 0 }

// chatHistory reports an entry of the chat-history section.
func (e *entry) chatHistory() bool { return e.Section == schema.SectionChatHistory }

// systemBlock reports an entry Yumina puts in the system messages (always
// sent) or the triggered system block (matched): every section but
// chat-history and post-history, examples-role entries excepted.
func (e *entry) systemBlock() bool {
	return e.Section != schema.SectionChatHistory && e.Section != schema.SectionPostHistory &&
		e.Role != roleExample && e.Role != roleGreeting
}

// apiRole is the role the entry is sent with.
func (e *entry) apiRole() string {
	if e.APIRole == "user" || e.APIRole == "assistant" {
		return e.APIRole
	}
	return "system"
}

// entries maps the lorebook's entries in file order (nil entries skipped).
func entries(book *schema.Lorebook) []*entry {
	out := make([]*entry, 0, len(book.Entries))
	for i, e := range book.Entries {
		if e == nil {
			continue
		}
		x := &entry{Entry: e, idx: i, name: e.Name, alwaysSend: e.AlwaysSend, depth: e.Depth}
		if x.name == "" {
			x.name = e.ID
		}
		if !e.Has("alwaysSend") {
			x.alwaysSend, x.defaultAlwaysSend = false, true
		}
		if e.Section == schema.SectionChatHistory && !e.Has("depth") {
			d := defaultDepth
			x.depth, x.defaultDepth = &d, true
		}
		out = append(out, x)
	}
	return out
}

// charName is what {{char}} becomes in Yumina's macros: the name of the first
// enabled entry with role character (lore's default role), else "Assistant".
func charName(es []*entry) string {
	for _, e := range es {
		if e.Enabled && e.Role == "character" {
			return e.name
		}
	}
	return "Assistant"
}

// exampleCharName is the name that marks the character's turns in example
// dialogue: that entry's name, else the world's name, else "Character".
func exampleCharName(es []*entry, book *schema.Lorebook) string {
	for _, e := range es {
		if e.Enabled && e.Role == "character" {
			return e.name
		}
	}
	if book.Manifest.Name != "" {
		return book.Manifest.Name
	}
	return "Character"
}

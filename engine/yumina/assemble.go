package yumina

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Assembly follows the send path of Yumina's server, in lore's step numbers:
//
//	1  system messages: the always-sent entries of every section but
//	   chat-history and post-history (examples-role ones excepted), by
//	   position; consecutive system-role entries are joined into one message
//	   with blank lines, a user or assistant entry stands alone
//	4  example dialogue: every always-sent entry with role example, whatever
//	   its section, each parsed into "[Example Chat]" and its turns
//	6  the triggered system block: the matched entries of those sections,
//	   joined the same way
//	7  "[Start a new Chat]", when there is a chat
//	10 the chat, with the always-sent and matched chat-history entries that
//	   have a depth spliced in one at a time, by position: depth k goes
//	   where k messages come after it (entries already spliced in count),
//	   so depth 0 is after the newest message; a chat-history entry without
//	   a depth is sent nowhere
//	12 the variables' values, when the lorebook declares variables
//	13 post-history entries, always sent and matched, one message each
//
// Entries at equal positions keep Yumina's order: always-sent ones in file
// order, then matched ones by score. Keyword-activated entries with role
// example are sent nowhere: Yumina parses examples only from always-sent
// entries. Greeting entries are never sent: Yumina opens a session with
// the greeting, so a transcript already holds it.
type assembler struct {
	in        *render.Input
	es        []*entry
	macros    *macros
	always    []*entry // always sent, file order
	triggered []*entry // matched and kept by the budget, in Yumina's rank order
	msgs      []render.Message
}

func (a *assembler) assemble() []render.Message {
	a.systemBlock(render.StepSystemPresets, a.always)
	a.examples()
	var enabled []*entry
	for _, e := range a.triggered {
		if e.Enabled {
			enabled = append(enabled, e)
		}
	}
	a.systemBlock(render.StepTriggered, enabled)
	history := a.in.Transcript.Messages
	if len(history) > 0 {
		a.msgs = append(a.msgs, render.Message{Role: "system", Content: render.MarkerStartChat, Step: render.StepStartChat, Sources: []string{}})
	}
	collected := append(append([]*entry(nil), a.always...), enabled...)
	a.history(history, collected)
	a.state()
	for _, e := range byPosition(collected, func(e *entry) bool { return e.Section == schema.SectionPostHistory }) {
		a.msgs = append(a.msgs, render.Message{Role: e.apiRole(), Content: a.macros.expand(e.Content),
			Step: render.StepPostHistory, Sources: []string{e.ID}})
	}
	return a.msgs
}

// byPosition keeps the entries that pass keep, stably sorted by position.
func byPosition(es []*entry, keep func(*entry) bool) []*entry {
	var out []*entry
	for _, e := range es {
		if keep(e) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Position < out[j].Position })
	return out
}

// systemBlock sends the system-block entries of es, consecutive system-role
// ones joined into one message.
func (a *assembler) systemBlock(step int, es []*entry) {
	var parts, ids []string
	flush := func() {
		if len(parts) > 0 {
			a.msgs = append(a.msgs, render.Message{Role: "system", Content: strings.Join(parts, "\n\n"), Step: step, Sources: ids})
			parts, ids = nil, nil
		}
	}
	for _, e := range byPosition(es, (*entry).systemBlock) {
		content := a.macros.expand(e.Content)
		if role := e.apiRole(); role != "system" {
			flush()
			a.msgs = append(a.msgs, render.Message{Role: role, Content: content, Step: step, Sources: []string{e.ID}})
			continue
		}
		parts, ids = append(parts, content), append(ids, e.ID)
	}
	flush()
}

// examples parses every always-sent example-role entry.
func (a *assembler) examples() {
	user, char := a.macros.user, exampleCharName(a.es, a.in.Book)
	for _, e := range byPosition(a.always, func(e *entry) bool { return e.Role == roleExample }) {
		turns := parseExamples(a.macros.expand(e.Content), user, char)
		if len(turns) == 0 {
			continue
		}
		src := []string{e.ID}
		a.msgs = append(a.msgs, render.Message{Role: "system", Content: render.MarkerExampleChat, Step: render.StepExamples, Sources: src})
		for _, t := range turns {
			a.msgs = append(a.msgs, render.Message{Role: t.Speaker, Content: t.Text, Step: render.StepExamples, Sources: src})
		}
	}
}

// history is the chat with the depth entries spliced in.
func (a *assembler) history(history []schema.Message, collected []*entry) {
	depths := byPosition(collected, func(e *entry) bool { return e.chatHistory() && e.depth != nil })
	n := len(history)
	// Splicing one at a time, entry k goes at index max(0, L-depth) of a
	// list of L = n+k items (clamped to L). The final order is found
	// backwards, each item taking the index-th free slot, so that thousands
	// of depth entries do not move the chat thousands of times.
	total := n + len(depths)
	free := newSlots(total)
	place := make([]int, total) // final slot → item (message i, or n+k for depth entry k)
	for k := len(depths) - 1; k >= 0; k-- {
		l := n + k
		idx := min(max(0, l-*depths[k].depth), l)
		place[free.take(idx)] = n + k
	}
	for i := n - 1; i >= 0; i-- {
		place[free.take(i)] = i
	}
	for _, item := range place {
		if item < n {
			m := history[item]
			a.msgs = append(a.msgs, render.Message{Role: m.Role, Content: m.Content, Step: render.StepHistory,
				Sources: []string{"message:" + strconv.Itoa(item)}})
			continue
		}
		e := depths[item-n]
		a.msgs = append(a.msgs, render.Message{Role: e.apiRole(), Content: a.macros.expand(e.Content),
			Step: render.StepHistory, Sources: []string{e.ID}})
	}
}

// state is Yumina's variable summary: every declared variable with its
// current value, as Yumina prints it, between <game-state> tags. Yumina
// follows it with instructions of its own that lore does not reproduce.
func (a *assembler) state() {
	vars := a.in.Book.Manifest.Variables
	if len(vars) == 0 {
		return
	}
	values := render.CurrentValues(a.in.Book, a.in.Vars)
	lines := make([]string, len(vars))
	for i, v := range vars {
		val, ok := values[v.ID]
		if !ok || val == nil {
			val = v.Default
		}
		lines[i] = v.ID + ": " + promptValue(val)
	}
	a.msgs = append(a.msgs, render.Message{Role: "system", Content: "<game-state>\n" + strings.Join(lines, "\n") + "\n</game-state>",
		Step: render.StepState, Sources: []string{"state"}})
}

// promptValue prints a variable's value as Yumina's prompt does: objects and
// lists as JSON, strings as they are, very long values elided.
func promptValue(v any) string {
	const maxString, maxValue = 20000, 50000
	var s string
	switch x := v.(type) {
	case []any, map[string]any:
		s = jsonStringify(elideStrings(x, maxString))
	case string:
		s = elideString(x, maxString)
	default:
		s = jsString(v)
	}
	if n := utf16Len(s); n > maxValue {
		return "[large value omitted: " + strconv.Itoa(n) + " chars]"
	}
	return s
}

func elideStrings(v any, max int) any {
	switch x := v.(type) {
	case string:
		return elideString(x, max)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = elideStrings(e, max)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = elideStrings(e, max)
		}
		return out
	}
	return v
}

// elideString replaces a string longer than max UTF-16 units by a note, as
// Yumina does (after replacing data: URIs, which lore leaves as they are).
func elideString(s string, max int) string {
	if n := utf16Len(s); n > max {
		return "[omitted " + strconv.Itoa(n) + " chars]"
	}
	return s
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// slots finds the k-th free slot of a fixed row in O(log n): a Fenwick tree
// of free counts.
type slots struct {
	tree []int
	log  int
}

func newSlots(n int) *slots {
	s := &slots{tree: make([]int, n+1)}
	for i := 1; i <= n; i++ {
		s.tree[i]++
		if j := i + i&-i; j <= n {
			s.tree[j] += s.tree[i]
		}
	}
	for 1<<(s.log+1) <= n {
		s.log++
	}
	return s
}

// take marks the k-th free slot (0-based) used and returns it.
func (s *slots) take(k int) int {
	pos := 0
	for step := 1 << s.log; step > 0; step >>= 1 {
		if next := pos + step; next < len(s.tree) && s.tree[next] <= k {
			pos = next
			k -= s.tree[next]
		}
	}
	for i := pos + 1; i < len(s.tree); i += i & -i {
		s.tree[i]--
	}
	return pos
}

package lore

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Block headers tell the model what it is reading.
const (
	headerMemory  = "[Memory]"
	headerSummary = "[Summary]"
	headerPending = "[Pending effects]"
	headerState   = "[State]"
)

// Assemble lays out the prompt in the 13 steps of SPEC §3 from the entries that
// activation let in, one Piece per message, in prompt order. It keeps
// everything: the budget (Budget) decides afterwards what fits.
//
// Decisions where the spec is silent (docs/decisions.md):
//   - one piece per entry everywhere (never one combined triggered block), so
//     each message's `sources` names exactly one entry and the budget can drop
//     cards one by one;
//   - built-in presets sort before entries at an equal position;
//   - greeting entries become the opening assistant message(s) of the chat,
//     whatever their apiRole, only when the transcript does not already open
//     with an assistant message; they are never sent in their own section;
//   - entries with empty content (after macros) send nothing;
//   - memory is a "[Memory]" header piece (section "", never cut) followed by
//     one piece per item, so the budget can drop items one by one; Render
//     merges them back into one message.
func Assemble(in *render.Input, act *Activation) []render.Piece {
	return newAssembler(in, act).assemble()
}

// assembleRequired is Assemble for weighing the Required pieces only
// (render.ScanWindow): of the chat it keeps the newest message, the last
// action, and leaves out the older ones and the cards placed among them,
// which the scan window does not weigh. A 20,000-message chat is then
// assembled once per render, not twice.
func assembleRequired(in *render.Input, act *Activation) []render.Piece {
	a := newAssembler(in, act)
	a.requiredOnly = true
	return a.assemble()
}

func (a *assembler) assemble() []render.Piece {
	a.systemPresets()
	a.persona()
	a.format()
	a.examples()
	a.triggered()
	a.add(render.Piece{Step: render.StepStartChat, Role: "system", Content: render.MarkerStartChat, Sources: []string{}})
	a.summary()
	a.memory()
	a.history()
	a.pending()
	a.state()
	a.postHistory()
	return a.pieces
}

type assembler struct {
	in     *render.Input
	macros *render.Macros
	msgs   []schema.Message // transcript messages after transforms
	// bySection holds the active entries of each section, greetings excluded,
	// sorted by position then id.
	bySection map[string][]*render.Activated
	greetings []*render.Activated
	pieces    []render.Piece
	// requiredOnly: history is the last action alone (assembleRequired).
	requiredOnly bool
}

func newAssembler(in *render.Input, act *Activation) *assembler {
	a := &assembler{in: in, macros: render.NewMacros(in), bySection: map[string][]*render.Activated{}}
	if in.Transcript != nil {
		a.msgs = in.Transcript.Messages
		// A transform that does not compile is skipped and the others still
		// apply; Render reports the error as a warning.
		a.msgs, _ = render.ApplyTransforms(in.Book, a.msgs)
	}
	opensWithAssistant := len(a.msgs) > 0 && a.msgs[0].Role == "assistant"
	seen := map[string]bool{}
	if act != nil {
		for _, x := range act.Active {
			if x == nil || x.Entry == nil || !x.Entry.Enabled || seen[x.Entry.ID] {
				continue
			}
			seen[x.Entry.ID] = true
			if x.Entry.Role == render.RoleGreeting {
				if !opensWithAssistant {
					a.greetings = append(a.greetings, x)
				}
				continue
			}
			a.bySection[x.Entry.Section] = append(a.bySection[x.Entry.Section], x)
		}
	}
	for _, list := range a.bySection {
		sortActivated(list)
	}
	sortActivated(a.greetings)
	return a
}

func sortActivated(list []*render.Activated) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].Entry, list[j].Entry
		if a.Position != b.Position {
			return a.Position < b.Position
		}
		return a.ID < b.ID
	})
}

func (a *assembler) add(p render.Piece) {
	if p.Sources == nil {
		p.Sources = []string{}
	}
	if p.Role == "" {
		p.Role = "system"
	}
	if !strings.HasPrefix(p.Key, "message:") {
		p.Message = -1
	}
	a.pieces = append(a.pieces, p)
}

// entryPiece is an entry sent whole, with its apiRole, or nothing when its
// content is empty.
func (a *assembler) entryPiece(step int, x *render.Activated, section string) {
	content := strings.TrimSpace(a.macros.Expand(x.Entry.Content))
	if content == "" {
		return
	}
	p := render.Piece{Step: step, Role: apiRole(x.Entry), Content: content, Sources: []string{x.Entry.ID},
		Section: section, Key: x.Entry.ID}
	if x.Entry.Section == schema.SectionChatHistory {
		p.Card = x
	}
	a.add(p)
}

func apiRole(e *schema.Entry) string {
	switch e.APIRole {
	case "user", "assistant":
		return e.APIRole
	}
	return "system"
}

// withPresets interleaves a section's entries with the built-in presets of that
// section, by position; a preset goes first at an equal position.
func (a *assembler) withPresets(step int, section, budgetSection string) {
	entries := a.bySection[section]
	ps := render.EnabledPresets(&a.in.Book.Manifest, section)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Position < ps[j].Position })
	i, j := 0, 0
	for i < len(entries) || j < len(ps) {
		if j < len(ps) && (i == len(entries) || ps[j].Position <= entries[i].Entry.Position) {
			p := ps[j]
			j++
			if content := strings.TrimSpace(a.macros.Expand(p.Content)); content != "" {
				a.add(render.Piece{Step: step, Role: p.APIRole, Content: content, Sources: []string{p.Source()},
					Section: budgetSection, Key: p.Source()})
			}
			continue
		}
		a.entryPiece(step, entries[i], budgetSection)
		i++
	}
}

// step 1
func (a *assembler) systemPresets() {
	a.withPresets(render.StepSystemPresets, schema.SectionSystemPresets, render.SecSystemPresets)
}

// persona is the transcript's persona when it has one, else the manifest's.
func (a *assembler) persona() {
	p := effectivePersona(a.in)
	if p == nil {
		return
	}
	var b strings.Builder
	name := strings.TrimSpace(a.macros.Expand(p.Name))
	if name != "" {
		b.WriteString("[Persona: " + name + "]")
	} else {
		b.WriteString("[Persona]")
	}
	lines := 0
	for _, f := range []struct{ label, text string }{{"Appearance", p.Appearance}, {"Backstory", p.Backstory}} {
		if t := strings.TrimSpace(a.macros.Expand(f.text)); t != "" {
			b.WriteString("\n" + f.label + ": " + t)
			lines++
		}
	}
	if name == "" && lines == 0 {
		return
	}
	a.add(render.Piece{Step: render.StepPersona, Content: b.String(), Sources: []string{"persona"},
		Section: render.SecPlotEssentials, Key: render.SecPlotEssentials})
}

func effectivePersona(in *render.Input) *schema.Persona {
	if in.Transcript != nil && in.Transcript.Persona != nil {
		return in.Transcript.Persona
	}
	return in.Book.Manifest.Persona
}

// step 3: the creator's own text, sent as written (macros expanded).
func (a *assembler) format() {
	t := strings.TrimSpace(a.macros.Expand(a.in.Book.Manifest.Format))
	if t == "" {
		return
	}
	a.add(render.Piece{Step: render.StepFormat, Content: t, Sources: []string{"format"},
		Section: render.SecPlotEssentials, Key: render.SecPlotEssentials})
}

// step 4: each examples entry parsed into blocks of turns. Turns take the
// speaker's role, not the entry's apiRole: the point of examples is a
// user/assistant exchange.
func (a *assembler) examples() {
	users, chars := a.speakerNames()
	for _, x := range a.bySection[schema.SectionExamples] {
		id := x.Entry.ID
		for _, b := range render.ParseExamples(x.Entry.Content, users, chars) {
			var body []render.Piece
			if t := strings.TrimSpace(a.macros.Expand(b.PreambleText())); t != "" {
				body = append(body, render.Piece{Step: render.StepExamples, Role: "system", Content: t})
			}
			for _, turn := range b.Turns {
				if t := strings.TrimSpace(a.macros.Expand(turn.Text)); t != "" {
					body = append(body, render.Piece{Step: render.StepExamples, Role: turn.Speaker, Content: t})
				}
			}
			if len(body) == 0 {
				continue
			}
			a.add(render.Piece{Step: render.StepExamples, Content: render.MarkerExampleChat, Sources: []string{id}})
			for _, p := range body {
				p.Sources, p.Section, p.Key = []string{id}, render.SecExamples, id
				a.add(p)
			}
		}
	}
}

// speakerNames are the names that mark example turns besides {{user}} and
// {{char}}: what those macros expand to.
func (a *assembler) speakerNames() (users, chars []string) {
	return []string{a.macros.User()}, []string{a.macros.Char()}
}

// step 6: the triggered block, activated chat-history entries with depth null
// (constant ones included); those with a depth are injected in step 10.
func (a *assembler) triggered() {
	for _, x := range a.bySection[schema.SectionChatHistory] {
		if x.Entry.Depth == nil {
			a.entryPiece(render.StepTriggered, x, render.SecCards)
		}
	}
}

// step 8
func (a *assembler) summary() {
	if a.in.Transcript == nil {
		return
	}
	t := strings.TrimSpace(a.macros.Expand(a.in.Transcript.Summary))
	if t == "" {
		return
	}
	a.add(render.Piece{Step: render.StepSummary, Content: headerSummary + "\n" + t, Sources: []string{"summary"},
		Section: render.SecSummary, Key: render.SecSummary})
}

// step 9
func (a *assembler) memory() {
	if a.in.Transcript == nil {
		return
	}
	header := false
	for i, it := range a.in.Transcript.Memory {
		t := strings.TrimSpace(a.macros.Expand(it.Text))
		if t == "" {
			continue
		}
		if !header {
			a.add(render.Piece{Step: render.StepMemory, Content: headerMemory, Sources: []string{"memory"}})
			header = true
		}
		a.add(render.Piece{Step: render.StepMemory, Content: "- " + t, Sources: []string{"memory"},
			Section: render.SecMemory, Key: "memory:" + strconv.Itoa(i)})
	}
}

// messagePiece is chat message i as a piece; key holds its key ("message:i",
// messageKeys), which is also its one source.
func (a *assembler) messagePiece(i int, key []string) render.Piece {
	m := a.msgs[i]
	role := m.Role
	if role != "user" && role != "assistant" {
		role = "system"
	}
	sec := render.SecHistory
	if i == len(a.msgs)-1 {
		sec = render.SecLastAction
	}
	return render.Piece{Step: render.StepHistory, Role: role, Content: m.Content,
		Sources: key[:1:1], Section: sec, Key: key[0], Message: i}
}

// messageKeys are "message:0" … "message:n-1", cut from one string.
func messageKeys(n int) []string {
	var b strings.Builder
	b.Grow(n * len("message:00000"))
	ends := make([]int, n)
	for i := range n {
		b.WriteString("message:")
		b.WriteString(strconv.Itoa(i))
		ends[i] = b.Len()
	}
	all := b.String()
	keys := make([]string, n)
	start := 0
	for i, e := range ends {
		keys[i], start = all[start:e], e
	}
	return keys
}

// step 10: greetings, then the transcript, with depth-injected cards. The
// greeting counts as a chat message for depth, because the model sees it as
// one; the newest transcript message is the last action.
func (a *assembler) history() {
	if a.requiredOnly {
		if i := len(a.msgs) - 1; i >= 0 {
			a.add(a.messagePiece(i, []string{"message:" + strconv.Itoa(i)}))
		}
		return
	}
	var greetings []render.Piece
	for _, g := range a.greetings {
		t := strings.TrimSpace(a.macros.Expand(g.Entry.Content))
		if t == "" {
			continue
		}
		greetings = append(greetings, render.Piece{Step: render.StepHistory, Role: "assistant", Content: t,
			Sources: []string{g.Entry.ID}, Section: render.SecHistory, Key: g.Entry.ID, Message: -1})
	}
	// Every message's key and source list, in two allocations for the
	// whole chat rather than three per message, and each piece made where
	// it goes (a chat may be 20,000 messages long).
	keys := messageKeys(len(a.msgs))
	n := len(greetings) + len(a.msgs)
	chat := func(k int) render.Piece {
		if k < len(greetings) {
			return greetings[k]
		}
		i := k - len(greetings)
		return a.messagePiece(i, keys[i:])
	}
	// inject[at] holds the cards that go before chat piece at; n would be
	// after the newest message, which no depth reaches.
	inject := map[int][]*render.Activated{}
	for _, x := range a.bySection[schema.SectionChatHistory] {
		if x.Entry.Depth == nil {
			continue
		}
		at := n - 1 - *x.Entry.Depth
		if at < 0 {
			at = 0
		}
		if at > n { // negative depth (lint: depth-ignored): just before the newest
			at = max(n-1, 0)
		}
		inject[at] = append(inject[at], x) // already by position, then id
	}
	a.pieces = slices.Grow(a.pieces, n)
	for k := 0; k <= n; k++ {
		for _, x := range inject[k] {
			a.entryPiece(render.StepHistory, x, render.SecCards)
		}
		if k < n {
			a.add(chat(k))
		}
	}
}

// step 11
func (a *assembler) pending() {
	if a.in.Transcript == nil {
		return
	}
	var lines []string
	for _, it := range a.in.Transcript.Pending {
		if t := strings.TrimSpace(a.macros.Expand(it.Text)); t != "" {
			lines = append(lines, "- "+t)
		}
	}
	if len(lines) == 0 {
		return
	}
	a.add(render.Piece{Step: render.StepPending, Content: headerPending + "\n" + strings.Join(lines, "\n"),
		Sources: []string{"pending"}, Section: render.SecFrontMemory, Key: render.SecFrontMemory})
}

// step 12: every variable's current value, declared ones in declaration order,
// then those only in the variables file sorted by id.
func (a *assembler) state() {
	vals := render.CurrentValues(a.in.Book, a.in.Vars)
	if len(vals) == 0 {
		return
	}
	var lines []string
	done := map[string]bool{}
	for _, v := range a.in.Book.Manifest.Variables {
		if val, ok := vals[v.ID]; ok && !done[v.ID] {
			lines = append(lines, v.ID+": "+render.FormatValue(val))
			done[v.ID] = true
		}
	}
	var rest []string
	for id := range vals {
		if !done[id] {
			rest = append(rest, id)
		}
	}
	sort.Strings(rest)
	for _, id := range rest {
		lines = append(lines, id+": "+render.FormatValue(vals[id]))
	}
	a.add(render.Piece{Step: render.StepState, Content: headerState + "\n" + strings.Join(lines, "\n"),
		Sources: []string{"state"}, Section: render.SecFrontMemory, Key: render.SecFrontMemory})
}

// step 13
func (a *assembler) postHistory() {
	a.withPresets(render.StepPostHistory, schema.SectionPostHistory, render.SecPostHistory)
}

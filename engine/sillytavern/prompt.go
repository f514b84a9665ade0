package sillytavern

import (
	"sort"
	"strings"

	"github.com/lorekit/lore/render"
)

// defaultMainPrompt is the main prompt of SillyTavern's default Chat
// Completion preset, sent when the card has no system prompt of its own
// (and what {{original}} stands for in one). The preset's post-history
// instructions are empty.
const defaultMainPrompt = "Write {{char}}'s next reply in a fictional chat between {{charIfNotGroup}} and {{user}}."

// presetPrompts are the preset's prompts a card's field overrides, for
// {{original}} in that field.
var presetPrompts = map[string]string{"system_prompt": defaultMainPrompt, "post_history_instructions": ""}

// cardFormats are the default preset's wrappers of a card's personality and
// scenario (personality_format, scenario_format); the field's text takes the
// place of its macro.
var cardFormats = map[string]struct{ format, macro string }{
	"personality": {"[{{char}}'s personality: {{personality}}]", "{{personality}}"},
	"scenario":    {"[Circumstances and context of the dialogue: {{scenario}}]", "{{scenario}}"},
}

// place lays the prompt out in the order of SillyTavern's default Chat
// Completion preset: main prompt, world info before, character description,
// personality, scenario, world info after, example messages (with the
// example-message entries around them), the chat with the depth entries and
// the Author's Note injected, then the card's post-history instructions.
func (b *book) place(sc *scan, msgs []chatMessage, m *macros) (*render.Result, *slots) {
	an := b.s.AuthorsNote
	sl := sc.slots(an.Active)
	p := &prompt{b: b, sc: sc, m: m, sl: sl, res: &render.Result{Engine: Name, Book: b.in.Book, Breakpoint: -1}}

	if b.card["system_prompt"] != "" {
		p.cardText(render.StepSystemPresets, "system_prompt")
	} else {
		p.text(render.StepSystemPresets, defaultMainPrompt, "main-prompt")
	}
	p.entries(render.StepSystemPresets, "system", posBefore, sl.before)
	if s := b.card["persona"]; s != "" {
		p.text(render.StepSystemPresets, s, "persona")
	}
	for _, f := range []string{"description", "personality", "scenario"} {
		p.cardText(render.StepSystemPresets, f)
	}
	p.entries(render.StepSystemPresets, "system", posAfter, sl.after)
	exStart := len(p.res.Messages)
	p.examples(sl)
	exEnd := len(p.res.Messages)
	p.add(render.StepStartChat, "system", render.MarkerStartChat, nil)
	// The post-history instructions are taken out of the budget before the
	// chat, and sent after it (history.go).
	post, postActivated := p.aside(func() { p.cardText(render.StepPostHistory, "post_history_instructions") })
	p.left = p.chatBudget(exStart, exEnd, post)
	p.history(msgs, sl)
	p.fitExamples(exStart, exEnd)
	p.res.Messages = append(p.res.Messages, post...)
	p.res.Activated = append(p.res.Activated, postActivated...)
	// Outlets go where a prompt-manager prompt says {{outlet::Name}}; the
	// card's fields and the Author's Note cannot (SillyTavern's docs), and
	// the default preset has no such prompt, so they are listed, not placed.
	for _, name := range sl.outletNames {
		p.activate(sl.outlets[name], positionNames[posOutlet], 0, nil, nil)
	}
	p.res.Report = p.report(sl)
	why := p.explain(sl)
	p.budgetReasons(why)
	p.res.SetExplanations(why)
	return p.res, sl
}

// prompt builds one Result.
type prompt struct {
	b       *book
	sc      *scan
	m       *macros
	sl      *slots
	res     *render.Result
	placed  map[*entry]placedAt // where each placed entry went, for --explain
	greeted bool                // the greeting opens the chat

	// The Chat Completion budget (history.go): what is left of it, whether
	// the prompt was over it before the chat, what the chat and the
	// examples took, and what they left out.
	left, historyTokens, exampleTokens int
	overBudget                         bool
	cut                                map[*entry]int // entries injected into the left-out chat, at their depth
	historyCut                         *render.HistoryCut
	examplesLeftOut                    int
	droppedExamples                    []string
	exampleSizes                       map[string]int // tokens of each left-out example's blocks
}

// aside runs add, which adds messages and activations, and returns them
// instead of leaving them in the prompt.
func (p *prompt) aside(add func()) ([]render.Message, []render.ActivatedOut) {
	n, na := len(p.res.Messages), len(p.res.Activated)
	add()
	msgs := append([]render.Message(nil), p.res.Messages[n:]...)
	acts := append([]render.ActivatedOut(nil), p.res.Activated[na:]...)
	p.res.Messages, p.res.Activated = p.res.Messages[:n], p.res.Activated[:na]
	return msgs, acts
}

func (p *prompt) add(step int, role, content string, sources []string) {
	if sources == nil {
		sources = []string{}
	}
	p.res.Messages = append(p.res.Messages, render.Message{Role: role, Content: content, Step: step, Sources: sources})
}

// text adds a card text (or the main prompt) with its macros expanded,
// unless it is blank; it says whether it did.
func (p *prompt) text(step int, s, source string) bool {
	s = p.m.expand(s)
	if jsTrim(s) == "" {
		return false
	}
	p.add(step, "system", s, []string{source})
	return true
}

// cardText adds a field of the character card in its place, and lists the
// entry made from it in `activated`: it is in the prompt, though not as
// world info.
func (p *prompt) cardText(step int, field string) {
	s := p.b.card[field]
	if original, overrides := presetPrompts[field]; overrides {
		s = withOriginal(s, original)
	}
	if f, wrapped := cardFormats[field]; wrapped && s != "" {
		s = strings.Replace(f.format, f.macro, s, 1)
	}
	if s != "" && p.text(step, s, p.b.cardIDs[field]) {
		p.cardSent(step, field)
	}
}

// cardSent lists the entry made from a card field in `activated`, where
// SillyTavern's prompt has it (Position is the field's name).
func (p *prompt) cardSent(step int, field string) {
	p.res.Activated = append(p.res.Activated, render.ActivatedOut{ID: p.b.cardIDs[field], Step: step,
		Trigger: render.Trigger{In: "always"}, Position: field, Kind: "card"})
}

// entries adds one insertion point as one system message.
func (p *prompt) entries(step int, role string, pos int, es []*entry) {
	if len(es) == 0 {
		return
	}
	p.add(step, role, p.join(es), ids(es))
	p.activate(es, positionNames[pos], step, nil, nil)
}

func (p *prompt) join(es []*entry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = p.sc.content[e.idx]
	}
	return strings.Join(parts, "\n")
}

func ids(es []*entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.src.ID
	}
	return out
}

// placedAt is where an entry was placed: its position's name, or its depth
// and role.
type placedAt struct {
	position string
	depth    *int
	role     string
}

// activate lists placed entries in `activated`, in prompt order.
func (p *prompt) activate(es []*entry, position string, step int, depth *int, role *string) {
	if p.placed == nil {
		p.placed = map[*entry]placedAt{}
	}
	for _, e := range es {
		a := p.sc.activationOf(e)
		order := int(e.order)
		out := render.ActivatedOut{ID: e.src.ID, Step: step, Position: position, Order: &order,
			Trigger: p.sc.trigger(a), Recursion: p.sc.recursionOf(a)}
		if depth != nil {
			d := *depth
			out.Depth = &d
			out.Role = *role
		}
		switch a.reason {
		case "constant", "@@activate":
			out.Kind = "constant"
		}
		p.res.Activated = append(p.res.Activated, out)
		where := placedAt{position: position}
		if depth != nil {
			where.depth, where.role = depth, *role
		}
		p.placed[e] = where
	}
}

// examples are the card's example messages with the example-message
// entries before and after them: per block an [Example Chat] marker, then
// one system message per speaker, named example_user or example_assistant
// (a block without a speaker's line sends nothing).
func (p *prompt) examples(sl *slots) {
	block := func(text string, sources []string) {
		lines := exampleDialogue(jsTrim(strings.TrimPrefix(jsTrim(text), "<START>")), p.b.user, p.b.char)
		if len(lines) == 0 {
			return
		}
		p.add(render.StepExamples, "system", render.MarkerExampleChat, nil)
		for _, l := range lines {
			if l.text == "" {
				continue // the request leaves out a message without content
			}
			p.add(render.StepExamples, "system", l.text, sources)
			p.res.Messages[len(p.res.Messages)-1].Name = l.name
		}
	}
	entryBlocks := func(es []*entry, pos int) {
		for _, e := range es {
			for _, t := range splitExamples(p.sc.content[e.idx]) {
				block(p.m.expand(t), []string{e.src.ID})
			}
		}
		p.activate(es, positionNames[pos], render.StepExamples, nil, nil)
	}
	entryBlocks(sl.emTop, posEMTop)
	if s := p.b.card["mes_example"]; s != "" {
		n := len(p.res.Messages)
		for _, t := range splitExamples(p.m.expand(s)) {
			block(t, []string{p.b.cardIDs["mes_example"]})
		}
		if len(p.res.Messages) > n {
			p.cardSent(render.StepExamples, "mes_example")
		}
	}
	entryBlocks(sl.emBottom, posEMBottom)
}

// exampleLine is one speaker's turn of an example block.
type exampleLine struct{ name, text string }

// exampleDialogue splits one example block into its speakers' turns as
// SillyTavern's Chat Completion does (parseExampleIntoIndividual): a turn
// starts at a line beginning "User:" or "Character:" (the names in use),
// runs until the other speaker's line, and loses the first "Name:" in it;
// lines before the first speaker's line join the first turn.
func exampleDialogue(block, user, char string) []exampleLine {
	var out []exampleLine
	var cur []string
	inUser, inBot := false, false
	add := func(name, system string) {
		text := strings.Replace(strings.Join(cur, "\n"), name+":", "", 1)
		out = append(out, exampleLine{name: system, text: jsTrim(text)})
		cur = nil
	}
	for _, line := range strings.Split(block+"\n", "\n") {
		switch {
		case strings.HasPrefix(line, user+":"):
			inUser = true
			if inBot {
				add(char, "example_assistant")
			}
			inBot = false
		case strings.HasPrefix(line, char+":"):
			inBot = true
			if inUser {
				add(user, "example_user")
			}
			inUser = false
		}
		cur = append(cur, line)
	}
	switch {
	case inUser:
		add(user, "example_user")
	case inBot:
		add(char, "example_assistant")
	}
	return out
}

// splitExamples splits example messages on <START> lines (any case).
func splitExamples(s string) []string {
	s = jsTrim(s)
	if s == "" || strings.EqualFold(s, "<START>") {
		return nil
	}
	var out []string
	for {
		i := indexFold(s[1:], "<START>")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
}

// injection is one message put into the chat at a depth.
type injection struct {
	depth   int
	role    int
	parts   []string
	sources []string
	slot    *depthSlot
	note    bool
}

// history is the chat with the depth entries, the Author's Note and the
// card's Character's Note injected, SillyTavern's way: at depth d, after the
// d newest messages, one message per role — assistant, user, then system,
// nearest the end — each joining the Author's Note, the Character's Note and
// the entries of that depth and role, in that order.
func (p *prompt) history(msgs []chatMessage, sl *slots) {
	byDepth := map[int][]*injection{}
	get := func(d, r int) *injection {
		for _, in := range byDepth[d] {
			if in.role == r {
				return in
			}
		}
		in := &injection{depth: d, role: r}
		byDepth[d] = append(byDepth[d], in)
		return in
	}
	an := p.b.s.AuthorsNote
	if sl.activeAuthorsNote {
		top, bottom := p.join(sl.anTop), p.join(sl.anBottom)
		text := strings.TrimSuffix(strings.TrimPrefix(top+"\n"+p.m.expand(an.Content)+"\n"+bottom, "\n"), "\n")
		if d, ok := injectable(an.Depth); ok && jsTrim(text) != "" && an.Role >= 0 && an.Role <= 2 {
			in := get(d, an.Role)
			in.parts = append(in.parts, jsTrim(text))
			in.sources = append(append(ids(sl.anTop), "authors-note"), ids(sl.anBottom)...)
			in.note = true
		}
	}
	// The card's Character's Note: SillyTavern's extension prompt
	// DEPTH_PROMPT, which sorts after the Author's Note and before the world
	// info of the same depth and role.
	if text := jsTrim(p.m.expand(jsTrim(p.b.card["depth_prompt"]))); text != "" {
		if dv, isNum := p.b.note.depth.(float64); isNum {
			if d, ok := injectable(dv); ok {
				in := get(d, p.b.note.role)
				in.parts = append(in.parts, text)
				in.sources = append(in.sources, "character-note")
			}
		}
	}
	for _, s := range sl.depth {
		d, ok := injectable(s.depth)
		r := int(s.role)
		if !ok || float64(r) != s.role || r < 0 || r > 2 {
			continue // SillyTavern injects whole depths 0–1000 with a known role only
		}
		in := get(d, r)
		in.parts = append(in.parts, jsTrim(p.join(s.entries)))
		in.sources = append(in.sources, ids(s.entries)...)
		in.slot = s
	}
	depths := make([]int, 0, len(byDepth))
	for d := range byDepth {
		depths = append(depths, d)
	}
	sort.Ints(depths)
	// newest first, as SillyTavern splices them in
	splice := func(msgs []chatMessage) []item {
		items := make([]item, 0, len(msgs)+len(depths))
		for i := len(msgs) - 1; i >= 0; i-- {
			items = append(items, item{msg: &msgs[i]})
		}
		inserted := 0
		for _, d := range depths {
			ins := byDepth[d]
			sort.SliceStable(ins, func(i, j int) bool { return ins[i].role < ins[j].role })
			at := min(d+inserted, len(items))
			var add []item
			for _, in := range ins {
				if strings.Join(in.parts, "") != "" {
					add = append(add, item{in: in})
				}
			}
			items = append(items[:at], append(add, items[at:]...)...)
			inserted += len(add)
		}
		return items
	}
	// SillyTavern sends the newest items that fit (history.go); a longer
	// piece of the chat is read only when all of this one fits.
	items, keep := p.fitChat(msgs, splice)
	p.cut = map[*entry]int{}
	p.leaveOut(items[keep:])
	items = items[:keep]
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.msg != nil {
			role := "assistant"
			if it.msg.user {
				role = "user"
			}
			p.add(render.StepHistory, role, it.msg.text, []string{it.msg.ref(p.b.greeting)})
			if it.msg.index < 0 {
				p.greeted = true
				p.res.Activated = append(p.res.Activated, render.ActivatedOut{ID: p.b.greeting, Step: render.StepHistory,
					Trigger: render.Trigger{In: "always"}, Position: "chat", Kind: "greeting"})
			}
			continue
		}
		in := it.in
		role := roleNames[in.role]
		p.add(render.StepHistory, role, joinParts(in.parts), in.sources)
		d := in.depth
		if in.note {
			p.activate(sl.anTop, positionNames[posANTop], render.StepHistory, nil, nil)
			p.activate(sl.anBottom, positionNames[posANBottom], render.StepHistory, nil, nil)
		}
		if in.slot != nil {
			p.activate(in.slot.entries, positionNames[posDepth], render.StepHistory, &d, &role)
		}
	}
}

// item is one message of the chat as SillyTavern sends it: a chat message,
// or an injection.
type item struct {
	msg *chatMessage
	in  *injection
}

// joinParts is an injection's text.
func joinParts(parts []string) string { return strings.Join(parts, "\n") }

// injectable is a depth SillyTavern injects at: a whole number 0–1000.
func injectable(d float64) (int, bool) {
	if d < 0 || d > 1000 || d != float64(int(d)) {
		return 0, false
	}
	return int(d), true
}

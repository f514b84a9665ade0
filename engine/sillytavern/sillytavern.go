// Package sillytavern is the engine that renders a lorebook as SillyTavern's
// World Info would (--engine sillytavern): the activation of release 1.18.0,
// or 1.12.6 (Settings.Version), (world-info.js checkWorldInfo) — keys, whole words and case as it matches
// them, scan depth, recursion and its levels, min activations, probability
// and inclusion groups on a seeded mulberry32, timed effects carried between
// generations, the budget as a share of the context — and placement at its
// insertion points, in the prompt order of SillyTavern's default Chat
// Completion preset. It reads every entry field from the SillyTavern view of
// the lore entry (formats.STEntry), so a SillyTavern book read directly and
// the same book imported render alike.
//
// It is checked against SillyTavern's own code run headless (the oracle);
// the conformance cases and their recorded outputs are in testdata/. It must
// not read files or print; it owns no matching rules beyond SillyTavern's.
package sillytavern

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/lorekit/lore/engine/sillytavern/stregex"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// Name is the engine's id.
const Name = "sillytavern"

// Engine is SillyTavern's World Info as a render.Engine. It keeps the last
// lorebook's entries and resolved keys, so that rendering one book many
// times (--runs, turns) reads them once: the lorebook must not change
// between renders. It is safe for concurrent use.
type Engine struct {
	mu   sync.Mutex
	last *loaded
}

// loaded is a lorebook's entries in SillyTavern's order and their keys
// resolved for each set of names and matching settings.
type loaded struct {
	book     *schema.Lorebook
	entries  []*entry
	chatKeys bool // some key names the chat: resolved per generation
	keys     map[keysFor]*keySet
}

type keysFor struct {
	user, char  string
	cs, whole   bool
	description string // the card's texts, which {{description}} and kin expand to
	version     string // the SillyTavern release (its macros)
}

// New returns the engine.
func New() *Engine { return &Engine{} }

// load returns the book's entries, read once per book.
func (eng *Engine) load(book *schema.Lorebook) *loaded {
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if eng.last == nil || eng.last.book != book {
		es := loadEntries(book)
		eng.last = &loaded{book: book, entries: es, chatKeys: chatDependent(es), keys: map[keysFor]*keySet{}}
	}
	return eng.last
}

// keySet resolves every entry's keys with these macros and settings, once
// per book unless a key names the chat ({{lastMessage}} and its kin).
func (eng *Engine) keySet(l *loaded, b *book, m *macros) *keySet {
	if l.chatKeys {
		return newKeySet(l.entries, &b.s, m)
	}
	k := keysFor{user: b.user, char: b.char, cs: b.s.CaseSensitive, whole: b.s.MatchWholeWords,
		description: fmt.Sprint(b.card), version: b.s.Version}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	ks := l.keys[k]
	if ks == nil {
		ks = newKeySet(l.entries, &b.s, m)
		l.keys[k] = ks
	}
	return ks
}

// Name is "sillytavern".
func (*Engine) Name() string { return Name }

// Render renders one generation at the end of the transcript, with no timed
// effects from earlier generations.
func (eng *Engine) Render(in *render.Input) (*render.Result, error) {
	n := 0
	if in != nil && in.Transcript != nil {
		n = len(in.Transcript.Messages)
	}
	rs, err := eng.renderTurns(in, []int{n})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// RenderTurns renders one generation per chat prefix, carrying the timed
// effects and the random stream from each to the next.
func (eng *Engine) RenderTurns(in *render.Input, lengths []int) ([]*render.Result, error) {
	return eng.renderTurns(in, lengths)
}

// StreamTurns is RenderTurns handing over each generation as it is done:
// only the timed effects and the random stream go on to the next.
func (eng *Engine) StreamTurns(in *render.Input, lengths []int, each func(i int, r *render.Result) error) error {
	return eng.runTurns(in, lengths, func(i int, t turn) error { return each(i, t.res) })
}

func (eng *Engine) renderTurns(in *render.Input, lengths []int) ([]*render.Result, error) {
	out := make([]*render.Result, 0, len(lengths))
	err := eng.runTurns(in, lengths, func(_ int, t turn) error {
		out = append(out, t.res)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// turn is one generation: its Result, and the scan and insertion points
// behind it (the conformance test compares those with SillyTavern's).
type turn struct {
	res   *render.Result
	sc    *scan
	sl    *slots
	draws int         // random numbers drawn
	timed *timedState // the timed effects it left
}

// runTurns generates at each chat length in order, handing each
// generation to each and keeping none.
func (eng *Engine) runTurns(in *render.Input, lengths []int, each func(i int, t turn) error) error {
	b, err := eng.prepare(in)
	if err != nil {
		return err
	}
	state := &timedState{}
	r := newRNG(b.seed)
	for i, l := range lengths {
		if l < 0 || l > len(b.transcript.Messages) {
			return fmt.Errorf("turn at chat length %d: the transcript has %d messages", l, len(b.transcript.Messages))
		}
		if err := each(i, b.generate(b.transcript.Messages[:l], state, r)); err != nil {
			return err
		}
	}
	return nil
}

// book is what every generation of one render shares.
type book struct {
	eng        *Engine
	loaded     *loaded
	in         *render.Input
	s          Settings
	entries    []*entry
	transcript *schema.Transcript
	name       string // the book's name: timed effects are keyed by it
	user, char string
	card       map[string]string // the character card's fields
	cardIDs    map[string]string // field → the id of the entry made from it
	note       characterNote     // where card["depth_prompt"] goes
	greeting   string            // the id of the entry that opens a new chat, "" for none
	greetText  string            // its content
	counter    tokenize.Counter
	maxContext float64
	seed       int64
	warnings   []string
	scripts    []*stregex.Script // the regex scripts (regexscripts.go)
	runner     *stregex.Runner   // this generation's, for the messages it settles later
	// The messages before the chat's tail a generation reads (chatTail):
	// how many, and the first and last by the trace's names.
	omitted               int
	oldest, newestOmitted string
	prefix                []schema.Message // the generation's chat, for widen
	nonSystem             int              // its messages that are not system ones; −1 until counted
}

func (eng *Engine) prepare(in *render.Input) (*book, error) {
	if in == nil || in.Book == nil {
		return nil, errors.New("render: no lorebook")
	}
	s, err := settingsOf(in)
	if err != nil {
		return nil, err
	}
	b := &book{eng: eng, in: in, s: s, transcript: in.Transcript, name: in.Book.Manifest.Name, counter: in.Counter,
		card: map[string]string{}, cardIDs: map[string]string{}, seed: in.Seed}
	if b.transcript == nil {
		b.transcript = &schema.Transcript{}
	}
	if b.counter == nil {
		if b.counter, err = tokenize.Get(in.Settings.Tokenizer); err != nil {
			return nil, err
		}
	}
	if b.seed == 0 && s.Seed != nil {
		b.seed = int64(*s.Seed)
	}
	b.maxContext = s.MaxContext
	if b.maxContext == 0 {
		b.maxContext = float64(in.Settings.Available())
	}
	for _, e := range in.Book.Entries {
		if e == nil {
			continue
		}
		if f := formats.CardField(e); f != "" && e.Enabled {
			if b.card[f] == "" {
				b.card[f], b.cardIDs[f] = e.Content, e.ID
			}
		}
		if len(e.Conditions) > 0 {
			b.warnings = append(b.warnings, fmt.Sprintf("entry %s has conditions on variables, which SillyTavern has no place for: they are ignored", e.ID))
		}
	}
	if len(b.warnings) > 3 {
		n := len(b.warnings)
		b.warnings = append(b.warnings[:2:2], fmt.Sprintf("and %d more entries have conditions on variables, ignored", n-2))
	}
	b.warnings = append(b.warnings, render.LongKeywords(in.Book)...)
	b.note = cardExtras(in.Book, b.card)
	b.greeting, b.greetText = greetingOf(in.Book)
	b.card["persona"] = personaText(in.Book, b.transcript)
	b.user, b.char = names(in, s, b.transcript)
	b.loaded = eng.load(in.Book)
	b.entries = b.loaded.entries
	if b.scripts, err = regexScripts(in.Book, &s); err != nil {
		return nil, err
	}
	return b, nil
}

// characterNote is where SillyTavern injects the card's depth prompt (its
// Character's Note): at depth, as the role, like the Author's Note.
type characterNote struct {
	depth any // as written; SillyTavern's default is 4
	role  int
}

// cardExtras reads the card's fields that lore keeps under the manifest's
// extensions: the creator's notes and the character's depth prompt, with
// where the depth prompt goes.
func cardExtras(lb *schema.Lorebook, card map[string]string) characterNote {
	note := characterNote{depth: 4.0, role: roleSystem}
	for _, f := range []string{formats.FormatCardV3, formats.FormatCardV2} {
		x, ok := lb.Manifest.Extensions[f].(map[string]any)
		if !ok {
			continue
		}
		card["creator_notes"], _ = x["creator_notes"].(string)
		if ext, ok := x["extensions"].(map[string]any); ok {
			if dp, ok := ext["depth_prompt"].(map[string]any); ok {
				card["depth_prompt"], _ = dp["prompt"].(string)
				if d, ok := dp["depth"]; ok && d != nil {
					note.depth = d
				}
				note.role = promptRole(dp["role"])
			}
		}
		if v, ok := x["character_version"].(string); ok {
			card["character_version"] = v
		}
		return note
	}
	return note
}

// promptRole is SillyTavern's role of an extension prompt given by name or
// number: system, user or assistant (0, 1, 2), system for anything else.
func promptRole(v any) int {
	switch x := v.(type) {
	case float64:
		if x == roleUser || x == roleAssistant {
			return int(x)
		}
	case string:
		switch x {
		case "user":
			return roleUser
		case "assistant":
			return roleAssistant
		}
	}
	return roleSystem
}

// personaText is the persona's description: the transcript's persona, else
// the manifest's, its appearance and backstory.
func personaText(lb *schema.Lorebook, t *schema.Transcript) string {
	p := t.Persona
	if p == nil {
		p = lb.Manifest.Persona
	}
	if p == nil {
		return ""
	}
	var parts []string
	for _, s := range []string{p.Appearance, p.Backstory} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// names are {{user}} and {{char}}: the settings', else the persona's and
// the card's, else the names on the transcript's messages, else SillyTavern's
// placeholders.
func names(in *render.Input, s Settings, t *schema.Transcript) (string, string) {
	user, char := s.UserName, s.CharacterName
	if user == "" {
		switch {
		case t.Persona != nil && t.Persona.Name != "":
			user = t.Persona.Name
		case in.Book.Manifest.Persona != nil && in.Book.Manifest.Persona.Name != "":
			user = in.Book.Manifest.Persona.Name
		}
	}
	if char == "" {
		char = in.Book.Manifest.Character
	}
	for i := 0; i < len(t.Messages) && (user == "" || char == ""); i++ { // by index: a message is a large struct
		switch m := &t.Messages[i]; {
		case user == "" && m.Role == "user" && m.Name != "":
			user = m.Name
		case char == "" && m.Role == "assistant" && m.Name != "":
			char = m.Name
		}
	}
	if user == "" {
		user = "User"
	}
	if char == "" {
		char = "Character"
	}
	return user, char
}

// chatMessage is one message of the chat SillyTavern scans and sends.
type chatMessage struct {
	index int // in the transcript; -1 for the greeting that opens the chat
	name  string
	text  string
	user  bool
	// pending: the regex scripts have not run on text yet, which is done
	// only if the message is sent (regexscripts.go); depth is its depth.
	pending bool
	depth   float64
}

// greetingOf is the entry SillyTavern opens a new chat with, by id and
// content: the card's first_mes, else an enabled entry with role greeting (a
// lore book's); "" for none.
func greetingOf(lb *schema.Lorebook) (id, content string) {
	for _, e := range lb.Entries {
		if e == nil || !e.Enabled || jsTrim(e.Content) == "" {
			continue
		}
		if formats.CardField(e) == "first_mes" {
			return e.ID, e.Content
		}
		if e.Role == "greeting" && id == "" {
			id, content = e.ID, e.Content
		}
	}
	return id, content
}

// ref is how the trace names a chat message: message:N, or the greeting's id.
func (c chatMessage) ref(greeting string) string {
	if c.index < 0 {
		return greeting
	}
	return "message:" + strconv.Itoa(c.index)
}

// chat is the prefix as SillyTavern's Generate() prepares it for World Info:
// system messages dropped, the message being replaced dropped for a swipe
// or a regeneration.
func (b *book) chat(prefix []schema.Message) []chatMessage {
	var out []chatMessage
	for i, m := range prefix {
		if m.Role == "system" {
			continue
		}
		c := chatMessage{index: i, name: m.Name, text: m.Content, user: m.Role == "user"}
		if c.name == "" {
			c.name = b.char
			if c.user {
				c.name = b.user
			}
		}
		out = append(out, c)
	}
	// A chat SillyTavern starts with a character opens with the greeting (its
	// first message, macros replaced); a transcript that opens with the
	// character's message already holds it.
	if b.greeting != "" && (len(out) == 0 || out[0].user) {
		gm := b.macros()
		gm.budget = render.NewMacroBudget(b.in)
		g := chatMessage{index: -1, name: b.char, text: gm.expand(b.greetText)}
		out = append([]chatMessage{g}, out...)
	}
	switch b.s.GenerationType {
	case "regenerate":
		if n := len(out); n > 0 && !out[n-1].user {
			out = out[:n-1]
		}
	case "swipe":
		if n := len(out); n > 0 {
			out = out[:n-1]
		}
	}
	return out
}

// generate is one generation: scan, timed effects, placement.
func (b *book) generate(prefix []schema.Message, state *timedState, r *rng) turn {
	drawn := r.draws
	reach := b.scanReach(math.MaxInt)
	b.prefix, b.nonSystem = prefix, -1
	msgs, total := b.chatTail(prefix, float64(reach)+tailSlack)
	reach = min(reach, len(msgs))
	m := b.macros()
	m.budget = render.NewMacroBudget(b.in)
	m.setChat(msgs)
	scripts := b.scriptRunner(m)
	b.regexChat(msgs, scripts, reach)
	// The scan sees a chat of total messages, of which it reads the newest
	// reach at most (history.go).
	scanned := make([]string, total)
	index := make([]int, total)
	for j := range reach {
		c := msgs[len(msgs)-1-j]
		t := c.text
		if b.s.IncludeNames {
			t = c.name + ": " + t
		}
		scanned[j], index[j] = jsTrim(t), c.index
	}
	var inject, injectRefs []string
	an := b.s.AuthorsNote
	if an.Active && an.AllowWIScan {
		if t := m.expand(an.Content); t != "" {
			inject, injectRefs = append(inject, t), append(injectRefs, "authors-note")
		}
	}
	// The card's Character's Note is the extension prompt DEPTH_PROMPT,
	// which SillyTavern registers as scanned when the Author's Note's
	// "allow WI scan" is on (whether or not the note is sent this time).
	if an.AllowWIScan {
		if t := m.expand(jsTrim(b.card["depth_prompt"])); t != "" {
			inject, injectRefs = append(inject, t), append(injectRefs, "character-note")
		}
	}
	sc := newScan(&b.s, b.entries, b.eng.keySet(b.loaded, b, m), scanned, inject, b.sources(m), m, b.counter, b.maxContext)
	sc.chatIndex = index
	sc.injectRefs = injectRefs
	sc.greeting = b.greeting
	sc.rng = r
	sc.char = b.char
	sc.tags = b.s.CharacterTags
	sc.genType = b.s.GenerationType
	sc.force(b.s.ForceActivate)
	sc.timed = newTimedScan(state, len(scanned), b.entries, b.name)
	sc.timed.check()
	if len(b.entries) > 0 {
		sc.run()
	}
	active := make([]*entry, len(sc.activated))
	for i, a := range sc.activated {
		active[i] = a.e
	}
	sc.timed.record(active)
	b.regexEntries(sc, scripts)
	res, sl := b.place(sc, msgs, m)
	res.Warnings = append(res.Warnings, b.warnings...)
	res.Limits = append(res.Limits, scriptLimits(scripts)...)
	res.Limits = append(res.Limits, sc.stoppedKeys()...)
	if l := m.budget.Limit(b.in.Book); l != "" {
		res.Limits = append(res.Limits, l)
	}
	for _, k := range []struct {
		kind string
		es   *effects
	}{{"sticky", &state.sticky}, {"cooldown", &state.cooldown}} {
		for _, ef := range k.es.list {
			if ef.entry < 0 {
				continue
			}
			id := b.entries[ef.entry].src.ID
			res.Effects = append(res.Effects, render.Effect{ID: id, Kind: k.kind, Start: int(ef.start), End: int(ef.end)})
			if x := res.Explanations()[id]; x != nil {
				x.Reasons = append(x.Reasons, b.entries[ef.entry].about(reason.STEffect, k.kind, reason.P("kind", k.kind), reason.P("end", ef.end)))
			}
		}
	}
	return turn{res: res, sc: sc, sl: sl, draws: r.draws - drawn, timed: state.clone()}
}

// macros are the macros of the book's version of SillyTavern.
func (b *book) macros() *macros {
	m := newMacros(b.user, b.char, b.card)
	if b.s.v118() {
		m.add118(b.card)
	}
	return m
}

// chatDependent says whether a key's expansion depends on the chat.
func chatDependent(entries []*entry) bool {
	for _, e := range entries {
		for _, ks := range [][]string{e.keys, e.secondary} {
			for _, k := range ks {
				if indexFold(k, "{{last") >= 0 {
					return true
				}
			}
		}
	}
	return false
}

// sources are the texts of the extra matching sources, in
// matchSourceFields' order: the persona, the card's description,
// personality, depth prompt, scenario and creator's notes.
func (b *book) sources(m *macros) []string {
	persona := b.card["persona"]
	fields := []string{persona, b.card["description"], b.card["personality"], b.card["depth_prompt"],
		b.card["scenario"], b.card["creator_notes"]}
	out := make([]string, len(fields))
	if !b.s.v118() {
		return out // the match… switches are 1.13's: 1.12.6 scans none of these
	}
	for i, f := range fields {
		out[i] = m.expand(f)
	}
	return out
}

// budgetOf is SillyTavern's budget: a share of the context, at least one
// token, capped.
func budgetOf(s *Settings, maxContext float64) int {
	v := math.Floor(s.Budget*maxContext/100 + 0.5)
	if v == 0 || math.IsNaN(v) {
		v = 1
	}
	if s.BudgetCap > 0 && v > s.BudgetCap {
		v = s.BudgetCap
	}
	return int(v)
}

package serve

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"sync"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Snapshot is one reading of the files on disk: what every message typed on
// the page renders against until the files change again. The lorebook in
// it is parsed once and each engine keeps its keyword index of it, so a
// message costs a render, not a load.
type Snapshot struct {
	// Name is the lorebook's name, for the page's title.
	Name string
	// Err, when set, says why the files cannot be rendered, as `lore render`
	// prints it (file:line:col lines); the page shows it instead of a prompt.
	Err string
	// Default is the engine the command line, manifest or format chose.
	Default string
	// Engines are the engines the page can switch between, in order, with
	// the input each renders (its own settings decoded; none when Err is
	// set).
	Engines []Engine
	// Lint lints the lorebook as judged by the named engine (nil: no
	// findings to show). It is called at most once per engine.
	Lint func(engine string) []diag.Diagnostic

	once    sync.Once
	entries map[string]*schema.Entry // by id, the first entry with each
	mu      sync.Mutex
	lint    map[string]template.HTML // by engine
	// rendering serializes the renders: an engine keeps caches of the book
	// (keyword automata, key sets) that two renders must not fill at once,
	// and two tabs, or a search and a reload, can ask together.
	rendering sync.Mutex
}

// Engine is one engine of the page's switch.
type Engine struct {
	Name, Title string
	Engine      render.Engine
	Input       *render.Input
}

func (s *Snapshot) engine(name string) *Engine {
	for i := range s.Engines {
		if s.Engines[i].Name == name {
			return &s.Engines[i]
		}
	}
	for i := range s.Engines {
		if s.Engines[i].Name == s.Default {
			return &s.Engines[i]
		}
	}
	if len(s.Engines) > 0 {
		return &s.Engines[0]
	}
	return nil
}

// Message is a message typed on the page.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// View is what the page shows for one render: the parts of the HTML report,
// the typed messages with the words that fired entries marked, and the lint
// findings.
type View struct {
	Engine string                   `json:"engine"`
	Err    string                   `json:"error,omitempty"`
	Parts  map[string]template.HTML `json:"parts,omitempty"`
	Chat   template.HTML            `json:"chat"`
	Lint   template.HTML            `json:"lint"`
	// Fired are the entries the typed messages brought into the prompt.
	Fired []string `json:"fired"`
}

// LeftOutLimit is how many entries the trace's "Not in the prompt" table
// shows at most: a large book leaves out thousands on every message, which
// would cost the server and the browser more than the page is worth; the
// search finds the others.
const LeftOutLimit = 300

// Render renders the transcript on disk with msgs appended, as the named
// engine (the default one when name is unknown) would. search, when not
// blank, keeps in the table of entries left out those whose id, name or
// keywords hold every word of it.
func (s *Snapshot) Render(name string, msgs []Message, search string) *View {
	v := &View{Engine: name, Fired: []string{}}
	e := s.engine(name)
	if e != nil {
		v.Engine = e.Name
	}
	if s.Err != "" || e == nil {
		v.Err = s.Err
		if v.Err == "" {
			v.Err = "no engine to render with"
		}
		v.Chat = chatHTML(msgs, nil)
		return v
	}
	v.Lint = s.lintHTML(e.Name)
	in := *e.Input
	base := 0
	tr := &schema.Transcript{}
	if in.Transcript != nil {
		*tr = *in.Transcript
		base = len(tr.Messages)
	}
	tr.Messages = make([]schema.Message, base, base+len(msgs))
	if base > 0 {
		copy(tr.Messages, in.Transcript.Messages)
	}
	for _, m := range msgs {
		tr.Messages = append(tr.Messages, schema.Message{Role: m.Role, Content: m.Content})
	}
	in.Transcript = tr
	s.rendering.Lock()
	res, err := e.Engine.Render(&in)
	s.rendering.Unlock()
	if err != nil {
		v.Err = err.Error()
		v.Chat = chatHTML(msgs, nil)
		return v
	}
	parts, err := output.HTMLParts(res, output.HTMLOptions{LeftOutFilter: searchFilter(search), LeftOutLimit: LeftOutLimit})
	if err != nil {
		v.Err = err.Error()
		return v
	}
	v.Parts = parts
	fired := make([][]firedBy, len(msgs))
	for _, a := range res.Activated {
		n, ok := strings.CutPrefix(a.Trigger.In, "message:")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(n)
		if err != nil || i < base || i-base >= len(msgs) {
			continue
		}
		fired[i-base] = append(fired[i-base], firedBy{ID: a.ID, Anchor: output.HTMLEntryAnchor(a.ID), Keyword: a.Trigger.Keyword,
			Whole: s.entry(a.ID) != nil && s.entry(a.ID).MatchWholeWords})
		v.Fired = append(v.Fired, a.ID)
	}
	v.Chat = chatHTML(msgs, fired)
	return v
}

// entry is the first entry with id in the default engine's lorebook.
func (s *Snapshot) entry(id string) *schema.Entry {
	s.once.Do(func() {
		s.entries = map[string]*schema.Entry{}
		e := s.engine(s.Default)
		if e == nil || e.Input == nil || e.Input.Book == nil {
			return
		}
		for _, x := range e.Input.Book.Entries {
			if x != nil {
				if _, ok := s.entries[x.ID]; !ok {
					s.entries[x.ID] = x
				}
			}
		}
	})
	return s.entries[id]
}

// firedBy is an entry a typed message brought in, and the keyword that did.
type firedBy struct {
	ID, Anchor, Keyword string
	Whole               bool
}

// chatMessage is a typed message as the chat part shows it.
type chatMessage struct {
	Role  string
	Who   string
	Text  template.HTML
	Fired []firedBy
}

// chatHTML shows the typed messages, the words that fired an entry marked
// (with lore's matcher, so a keyword matches here as it does in lore's
// engine), and what each brought in.
func chatHTML(msgs []Message, fired [][]firedBy) template.HTML {
	cm := make([]chatMessage, len(msgs))
	for i, m := range msgs {
		cm[i] = chatMessage{Role: m.Role, Who: "you", Text: template.HTML(template.HTMLEscapeString(m.Content))}
		if m.Role == "assistant" {
			cm[i].Who = "character"
		}
		if i < len(fired) && len(fired[i]) > 0 {
			cm[i].Fired = fired[i]
			cm[i].Text = highlight(m.Content, fired[i])
		}
	}
	var b strings.Builder
	if err := pageTemplate.ExecuteTemplate(&b, "chat", cm); err != nil {
		return template.HTML(template.HTMLEscapeString(err.Error()))
	}
	return template.HTML(b.String())
}

// highlight marks in text every match of the keywords that fired entries.
func highlight(text string, fired []firedBy) template.HTML {
	var ps []match.Pattern
	for _, f := range fired {
		if f.Keyword != "" {
			ps = append(ps, match.Pattern{Text: f.Keyword, WholeWords: f.Whole})
		}
	}
	m, _ := match.Compile(ps)
	hits := m.Find(text)
	var b strings.Builder
	at := 0
	for i := 0; i < len(hits); {
		start, end := hits[i].Start, hits[i].End
		for i++; i < len(hits) && hits[i].Start < end; i++ {
			end = max(end, hits[i].End)
		}
		if start < at {
			start = at
		}
		if start >= end {
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[at:start]))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(text[start:end]))
		b.WriteString("</mark>")
		at = end
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// lintHTML is the lint findings of the lorebook as engine judges it, made
// once per engine.
func (s *Snapshot) lintHTML(engine string) template.HTML {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.lint[engine]; ok {
		return h
	}
	var ds []diag.Diagnostic
	if s.Lint != nil {
		ds = s.Lint(engine)
	}
	type row struct {
		Pos, Severity, Message, Rule string
	}
	rows := make([]row, len(ds))
	for i, d := range ds {
		rows[i] = row{Pos: d.Pos().String(), Severity: d.Severity.String(), Message: d.Message, Rule: d.Rule}
	}
	errs, warns, infos := diag.Count(ds)
	data := struct {
		Rows                 []row
		Errors, Warns, Infos int
	}{rows, errs, warns, infos}
	var b strings.Builder
	if err := pageTemplate.ExecuteTemplate(&b, "lint", data); err != nil {
		return template.HTML(template.HTMLEscapeString(fmt.Sprint(err)))
	}
	if s.lint == nil {
		s.lint = map[string]template.HTML{}
	}
	s.lint[engine] = template.HTML(b.String())
	return s.lint[engine]
}

// searchFilter accepts the entries whose id, name or keywords hold every
// word of search, compared in lower case; nil when search is blank.
func searchFilter(search string) func(*schema.Entry) bool {
	words := strings.Fields(strings.ToLower(search))
	if len(words) == 0 {
		return nil
	}
	return func(e *schema.Entry) bool {
		var b strings.Builder
		b.WriteString(strings.ToLower(e.ID))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(e.Name))
		for _, k := range e.Keywords {
			b.WriteByte(0)
			b.WriteString(strings.ToLower(k.Text))
		}
		for _, k := range e.SecondaryKeywords {
			b.WriteByte(0)
			b.WriteString(strings.ToLower(k.Text))
		}
		text := b.String()
		for _, w := range words {
			if !strings.Contains(text, w) {
				return false
			}
		}
		return true
	}
}

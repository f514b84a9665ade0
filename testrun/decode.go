package testrun

import (
	"fmt"
	"math"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// Load reads a test file. A file that cannot be read or parsed is the error;
// schema problems and mistakes the schema cannot see (a case with nothing to
// check, two cases of one name) are diagnostics at their line, and the file is
// then nil: a test file that says something other than what it means must
// not run.
func Load(path string) (*File, []diag.Diagnostic, error) {
	doc, err := schema.ReadDoc(path)
	if err != nil {
		return nil, nil, err
	}
	return LoadDoc(doc)
}

// LoadDoc is Load for a file read and parsed by other means (standard
// input); paths in it are relative to doc.Path's folder.
func LoadDoc(doc *schema.Doc) (*File, []diag.Diagnostic, error) {
	path, root := doc.Path, doc.Root
	if root.Kind != yaml.MappingNode {
		return nil, []diag.Diagnostic{diag.New(Pos{File: path, Line: root.Line, Col: root.Column}, diag.Error, "schema",
			"a test file is a mapping with lorebook: and cases:, not %s", kindName(root))}, nil
	}
	ds := schema.CheckTest(path, root)
	d := &decoder{path: path, dir: filepath.Dir(path)}
	f := d.file(root)
	ds = diag.Sort(append(ds, d.diags...))
	if errs, _, _ := diag.Count(ds); errs > 0 {
		return nil, ds, nil
	}
	return f, ds, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	}
	return "nothing"
}

// decoder turns a schema-checked test file into cases. It is lenient about
// types (the schema check has reported them) and strict about what the schema
// cannot express.
type decoder struct {
	path  string
	dir   string
	diags []diag.Diagnostic
}

func (d *decoder) pos(n *yaml.Node) Pos {
	return Pos{File: d.path, Line: n.Line, Col: n.Column}
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.diags = append(d.diags, diag.New(d.pos(n), diag.Error, "test", format, args...))
}

func (d *decoder) fields(n *yaml.Node) []schema.Field {
	fs, ds := schema.Fields(d.path, n)
	d.diags = append(d.diags, ds...)
	return fs
}

// rel resolves a path written in the test file against the file's folder.
func (d *decoder) rel(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(d.dir, filepath.FromSlash(p))
}

func str(n *yaml.Node) string {
	s, _ := schema.ToValue(n).(string)
	return s
}

func integer(n *yaml.Node) (int, bool) {
	f, ok := schema.ToValue(n).(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

func number(n *yaml.Node) (float64, bool) {
	f, ok := schema.ToValue(n).(float64)
	return f, ok
}

// inputs are the render inputs a file sets for all its cases and a case for
// itself.
type inputs struct {
	transcript TranscriptSource
	vars       []VarsSource
	engine     At[string]
	settings   []schema.Settings
	seed       int64
}

// input decodes one input key; it reports whether key is one.
func (d *decoder) input(in *inputs, key string, v *yaml.Node) bool {
	switch key {
	case "transcript":
		if r := schema.Resolve(v); r.Kind == yaml.ScalarNode {
			in.transcript = TranscriptSource{Path: d.rel(str(v)), Pos: d.pos(v)}
		} else {
			t, ds := schema.DecodeTranscript(d.path, v)
			d.diags = append(d.diags, ds...)
			in.transcript = TranscriptSource{Pos: d.pos(v), Inline: t}
		}
	case "vars":
		if r := schema.Resolve(v); r.Kind == yaml.ScalarNode {
			in.vars = append(in.vars, VarsSource{Path: d.rel(str(v)), Pos: d.pos(v)})
		} else {
			vals, _ := schema.ToValue(v).(map[string]any)
			delete(vals, "$schema")
			in.vars = append(in.vars, VarsSource{Pos: d.pos(v), Values: vals})
		}
	case "engine":
		in.engine = At[string]{str(v), d.pos(v)}
	case "settings":
		s, ds := schema.DecodeSettings(d.path, v)
		d.diags = append(d.diags, ds...)
		in.settings = append(in.settings, s)
	case "seed":
		if i, ok := integer(v); ok {
			in.seed = int64(i)
		}
	default:
		return false
	}
	return true
}

func (d *decoder) file(root *yaml.Node) *File {
	f := &File{Path: d.path, Project: projectOf(d.path)}
	var base inputs
	var cases *yaml.Node
	for _, p := range d.fields(root) {
		switch {
		case p.Key == "lorebook":
			f.Lorebook = At[string]{d.rel(str(p.Value)), d.pos(p.Value)}
		case p.Key == "cases":
			cases = p.Value
		default:
			d.input(&base, p.Key, p.Value)
		}
	}
	if cases = schema.Resolve(cases); cases == nil || cases.Kind != yaml.SequenceNode {
		return f
	}
	if len(cases.Content) == 0 {
		d.errorf(cases, "cases: is empty: a test file needs at least one case")
	}
	names := map[string]Pos{}
	for _, cn := range cases.Content {
		c := d.testCase(f, base, cn)
		if c == nil {
			continue
		}
		if first, dup := names[c.Name]; dup {
			d.diags = append(d.diags, diag.New(c.Pos, diag.Error, "test",
				"a second case named %q (the first is at line %d): names must be unique in a file", c.Name, first.Line))
		} else {
			names[c.Name] = c.Pos
		}
		f.Cases = append(f.Cases, c)
	}
	return f
}

func (d *decoder) testCase(f *File, base inputs, n *yaml.Node) *Case {
	n = schema.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	in := base
	in.vars = append([]VarsSource(nil), base.vars...)
	in.settings = append([]schema.Settings(nil), base.settings...)
	c := &Case{File: f, Pos: d.pos(n), Runs: 1}
	var expect, turns, runs, freqAt *yaml.Node
	for _, p := range d.fields(n) {
		switch p.Key {
		case "name":
			c.Name, c.Pos = str(p.Value), d.pos(p.Value)
		case "runs":
			runs = p.Value
			if r, ok := integer(p.Value); ok && r > 0 {
				c.Runs = r
			}
		case "expect":
			expect = p.Value
		case "turns":
			turns = p.Value
		default:
			d.input(&in, p.Key, p.Value)
		}
	}
	c.Transcript, c.Vars, c.Engine, c.Settings, c.Seed = in.transcript, in.vars, in.engine, in.settings, in.seed
	switch {
	case expect != nil && turns != nil:
		d.errorf(turns, "case %q has both expect: and turns:; with turns, each turn has its own expect:", c.Name)
	case expect != nil:
		e := d.expect(expect, f)
		c.Turns = []*Turn{{Pos: d.pos(expect), Expect: e}}
		freqAt = frequencyNode(expect)
	case turns != nil:
		c.Turns = d.turns(turns, f, &freqAt)
	default:
		d.errorf(n, "case %q has nothing to check: give it expect: (or turns:, each with expect:)", c.Name)
	}
	if freqAt != nil && runs == nil {
		d.errorf(freqAt, "case %q: frequency counts over several renders: give the case runs: N (seeds seed … seed+N-1)", c.Name)
	}
	return c
}

func frequencyNode(expect *yaml.Node) *yaml.Node {
	fs, _ := schema.Fields("", expect)
	for _, p := range fs {
		if p.Key == "frequency" {
			return p.KeyN
		}
	}
	return nil
}

func (d *decoder) turns(n *yaml.Node, f *File, freqAt **yaml.Node) []*Turn {
	var out []*Turn
	last := -1
	if len(schema.Resolve(n).Content) == 0 {
		d.errorf(n, "turns: is empty: give each turn its expect:")
	}
	for _, tn := range schema.Resolve(n).Content {
		t := &Turn{Pos: d.pos(tn)}
		for _, p := range d.fields(tn) {
			switch p.Key {
			case "messages":
				ms, ds := schema.DecodeMessages(d.path, p.Value)
				d.diags = append(d.diags, ds...)
				t.Messages = ms
			case "at":
				if i, ok := integer(p.Value); ok {
					t.At = &At[int]{i, d.pos(p.Value)}
					if i < last {
						d.errorf(p.Value, "turn at %d comes after a turn at %d: turns render the chat forwards", i, last)
					}
					last = i
				}
			case "expect":
				t.Expect = d.expect(p.Value, f)
				if *freqAt == nil {
					*freqAt = frequencyNode(p.Value)
				}
			}
		}
		if t.Expect == nil {
			d.errorf(tn, "this turn has nothing to check: give it expect:")
		}
		out = append(out, t)
	}
	return out
}

func (d *decoder) ids(n *yaml.Node) *IDList {
	l := &IDList{Pos: d.pos(n), IDs: []At[string]{}}
	for _, c := range schema.Resolve(n).Content {
		l.IDs = append(l.IDs, At[string]{str(c), d.pos(c)})
	}
	return l
}

func (d *decoder) texts(n *yaml.Node) []At[string] {
	return d.ids(n).IDs
}

func (d *decoder) expect(n *yaml.Node, f *File) *Expect {
	e := &Expect{}
	for _, p := range d.fields(n) {
		v := p.Value
		switch p.Key {
		case "active":
			e.Active = d.ids(v).IDs
		case "inactive":
			e.Inactive = d.ids(v).IDs
		case "activeExactly":
			e.ActiveExactly = d.ids(v)
		case "order":
			e.Order = d.ids(v)
		case "entries":
			for _, ep := range d.fields(v) {
				e.Entries = append(e.Entries, d.entryExpect(ep))
			}
		case "tokens":
			e.Tokens = d.tokens(v)
		case "prompt":
			for _, pp := range d.fields(v) {
				switch pp.Key {
				case "contains":
					e.Contains = d.texts(pp.Value)
				case "notContains":
					e.NotContains = d.texts(pp.Value)
				}
			}
		case "snapshot":
			e.Snapshot = d.snapshot(v, f)
		case "replies":
			e.Replies = d.replies(v)
		case "frequency":
			for _, fp := range d.fields(v) {
				fe := &FrequencyExpect{ID: At[string]{fp.Key, d.pos(fp.KeyN)}}
				fe.Min, fe.Max = bounds(d, fp.Value, number, " %")
				e.Frequency = append(e.Frequency, fe)
			}
		}
	}
	return e
}

func (d *decoder) entryExpect(p schema.Field) *EntryExpect {
	x := &EntryExpect{ID: At[string]{p.Key, d.pos(p.KeyN)}}
	for _, f := range d.fields(p.Value) {
		v := f.Value
		switch f.Key {
		case "step":
			x.Step = d.intAt(v)
		case "recursion":
			x.Recursion = d.intAt(v)
		case "depth":
			x.Depth = &At[*int]{Pos: d.pos(v)}
			if i, ok := integer(v); ok {
				x.Depth.V = &i
			}
		case "position":
			x.Position = &At[string]{str(v), d.pos(v)}
		case "trigger":
			for _, t := range d.fields(v) {
				switch t.Key {
				case "keyword":
					x.Keyword = &At[string]{str(t.Value), d.pos(t.Value)}
				case "in":
					x.In = &At[string]{str(t.Value), d.pos(t.Value)}
				}
			}
		}
	}
	return x
}

func (d *decoder) intAt(v *yaml.Node) *At[int] {
	i, _ := integer(v)
	return &At[int]{i, d.pos(v)}
}

// bounds decodes {min, max} (either may be absent) and refuses a min above
// the max, which no value could meet.
func bounds[T int | float64](d *decoder, n *yaml.Node, conv func(*yaml.Node) (T, bool), unit string) (lo, hi *At[T]) {
	for _, p := range d.fields(n) {
		x, ok := conv(p.Value)
		if !ok {
			continue
		}
		switch p.Key {
		case "min":
			lo = &At[T]{x, d.pos(p.Value)}
		case "max":
			hi = &At[T]{x, d.pos(p.Value)}
		}
	}
	if lo != nil && hi != nil && lo.V > hi.V {
		d.errorf(n, "min %v%s is above max %v%s", lo.V, unit, hi.V, unit)
	}
	return lo, hi
}

func (d *decoder) rangeOf(n *yaml.Node) Range {
	var r Range
	r.Min, r.Max = bounds(d, n, integer, "")
	return r
}

func (d *decoder) tokens(n *yaml.Node) *TokensExpect {
	t := &TokensExpect{}
	for _, p := range d.fields(n) {
		switch p.Key {
		case "total":
			r := d.rangeOf(p.Value)
			t.Total = &r
		case "section":
			for _, s := range d.fields(p.Value) {
				t.Sections = append(t.Sections, SectionRange{Name: At[string]{s.Key, d.pos(s.KeyN)}, Range: d.rangeOf(s.Value)})
			}
		case "cut":
			t.Cut = d.ids(p.Value)
		case "dropped":
			t.Dropped = d.ids(p.Value)
		}
	}
	return t
}

func (d *decoder) snapshot(n *yaml.Node, f *File) *Snapshot {
	s := &Snapshot{Format: "text", Pos: d.pos(n)}
	if r := schema.Resolve(n); r.Kind == yaml.ScalarNode {
		s.Name = str(n)
	} else {
		for _, p := range d.fields(n) {
			switch p.Key {
			case "name":
				s.Name = str(p.Value)
			case "format":
				s.Format = str(p.Value)
			}
		}
	}
	s.Path = SnapshotPath(f.Project, s.Name, s.Format)
	return s
}

// String names a case in messages: file: name.
func (c *Case) String() string { return fmt.Sprintf("%s: %s", c.File.Path, c.Name) }

package reply

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
	"github.com/lorekit/lore/schema"
)

// Format is one output format of a lorebook, compiled for checking replies.
type Format struct {
	// ID names the format: the entry's id, "#" and the key the format is
	// under ("status#状态栏"); the entry's id alone for a format that is the
	// top mapping of its block. A second format of one id gets "~2".
	ID    string
	Entry *schema.Entry
	Key   string
	// Required says that the format's rule asks for it in every reply
	// (requiredRe), so a reply without it is reported.
	Required bool
	// Pos is where the format is written: its `format:` key.
	Pos diag.Pos
	// Unchecked, when not "", says why replies cannot be checked against
	// the format (nothing in it to find in a reply).
	Unchecked string

	tag    string // the tag the whole format is wrapped in, "" for none
	tagPos diag.Pos
	body   []elem     // what is inside the tag (the whole format when it has none)
	pats   []*linePat // every line of body, by id
	instrs []*instr
	tags   map[string]bool // tags written inside the block
	anchor *linePat        // without a tag: the line that starts the block
	json   *jsonSpec
	fences bool   // the JSON may be in a ``` fence
	prog   []inst // body as a program to align a block with
}

// requiredRe finds the words of a rule that asks for the format in every
// reply; conditionalRe those that make it depend on the story, which the
// checker cannot know. A format with `condition:` and no rule, or with no
// rule at all, is checked where a reply has it, never required. They are
// compiled on first use: their alternations of Chinese words cost every
// command that never reads a format (validate, render) 0.01 s to compile.
var (
	requiredRe    = lazyRegexp(`(?i)必须|务必|一定要|每次|每一次|每条|始终|总是|永远|\bmust\b|\balways\b|\b(?:every|each)\s+(?:reply|response|message|answer|turn)\b`)
	conditionalRe = lazyRegexp(`(?i)如果|若|假如|如有|只有|仅在|仅当|只在|当[^前下然].{0,20}?时|\bif\b|\bwhen(?:ever)?\b|\bunless\b|\bonly\b`)
	optionalRe    = lazyRegexp(`(?i)可选|可以为空|可为空|可以不填|如有|若有|没有则|\boptional\b|\bif any\b|\bmay be (?:empty|blank)\b|\bcan be (?:empty|blank)\b`)
)

// lazyRegexp compiles expr the first time the returned function is called.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Compile reads the output formats of every enabled entry of book, in entry
// order, and the notes about formats it can check only in part (a type it
// cannot read), as info diagnostics at the template.
func Compile(book *schema.Lorebook) ([]*Format, []diag.Diagnostic) {
	var out []*Format
	var notes []diag.Diagnostic
	ids := map[string]int{}
	for _, e := range book.Entries {
		if !e.Enabled || !strings.Contains(e.Content, "---") {
			continue
		}
		src := outformat.NewSource(e.Content)
		for _, b := range src.Blocks() {
			root, _ := src.Parse(b)
			if root == nil {
				continue // not a template, or broken YAML (format-template reports it)
			}
			outformat.Walk(root, func(s *outformat.Site) {
				c := &compiler{e: e, src: src, blk: b}
				f := c.format(s)
				id := e.ID
				if s.Name != "" {
					id += "#" + s.Name
				}
				if n := ids[id]; n > 0 {
					ids[id] = n + 1
					id += fmt.Sprintf("~%d", n+1)
				} else {
					ids[id] = 1
				}
				f.ID = id
				out = append(out, f)
				notes = append(notes, c.notes...)
			})
		}
	}
	return out, notes
}

// compiler compiles one format.
type compiler struct {
	e   *schema.Entry
	src *outformat.Source
	blk outformat.Block
	f   *Format
	// parts are the format's parts by name (a format written as a map);
	// fields the field names of a list part's items that the main part
	// names.
	parts    map[string]*yaml.Node
	fields   map[string]bool
	stack    []string // parts being written in
	patterns int
	repeats  int
	work     int
	overflow bool
	notes    []diag.Diagnostic
}

func (c *compiler) pos(n *yaml.Node, at int) diag.Pos {
	return c.e.PosInContent(c.src.ValueOffset(c.blk, n, at))
}

func (c *compiler) format(s *outformat.Site) *Format {
	f := &Format{Entry: c.e, Key: s.Name, tags: map[string]bool{},
		Pos: c.e.PosInContent(c.src.LineOffset(c.blk, s.FormatKey.Line, s.FormatKey.Column))}
	c.f = f
	if s.Rule != nil && s.Rule.Kind == yaml.ScalarNode {
		f.Required = requiredRe().MatchString(s.Rule.Value) && !conditionalRe().MatchString(s.Rule.Value)
	}
	main := s.Format
	switch s.Format.Kind {
	case yaml.MappingNode:
		c.parts = map[string]*yaml.Node{}
		var order []string
		for i := 0; i+1 < len(s.Format.Content); i += 2 {
			k := s.Format.Content[i].Value
			if _, dup := c.parts[k]; !dup {
				order = append(order, k)
			}
			c.parts[k] = s.Format.Content[i+1]
		}
		main = c.mainPart(order)
	case yaml.SequenceNode:
		f.Unchecked = "the format is a list; write it as a text, or as a map of parts with a main part (basic)"
		return f
	}
	if main == nil || main.Kind != yaml.ScalarNode {
		f.Unchecked = "its main part (basic) is not a text"
		return f
	}
	list := c.itemList(main)
	ls := lines(c.pieces(main))
	ls = c.unwrap(ls)
	if list != nil {
		ls = c.items(ls, list)
	}
	if c.json(s, ls) {
		return f
	}
	f.body = c.elems(ls, 0)
	f.prog = program(f.body)
	if c.overflow {
		f.Unchecked = fmt.Sprintf("it expands to more than %d lines", maxPatterns)
		return f
	}
	for _, p := range f.pats {
		for _, sg := range p.segs {
			for _, t := range outformat.Tags(sg.raw) {
				f.tags[t.Name] = true
			}
		}
	}
	if f.tag == "" {
		f.anchor = firstAnchor(f.body)
		if f.anchor == nil {
			f.Unchecked = "it has no tag around it and no line of literal text to find it by"
		}
	}
	return f
}

// firstAnchor is the first line of body with literal text of at least two
// characters: a block without a tag starts at a reply line that matches it.
func firstAnchor(body []elem) *linePat {
	for _, e := range body {
		switch {
		case e.pat != nil:
			for _, s := range e.pat.segs {
				if s.fill == nil && len([]rune(s.lit)) >= 2 {
					return e.pat
				}
			}
		case e.rep != nil:
			if p := firstAnchor(e.rep.body); p != nil {
				return p
			}
			return nil
		default:
			return nil // a choice first: no one line starts the block
		}
	}
	return nil
}

// Lookup finds a format by its ID ("status#状态栏"), by its entry's id
// when the entry has one format, or by its key when one format has it.
func Lookup(formats []*Format, id string) *Format {
	var byEntry, byKey []*Format
	for _, f := range formats {
		if f.ID == id {
			return f
		}
		if f.Entry.ID == id {
			byEntry = append(byEntry, f)
		}
		if f.Key == id {
			byKey = append(byKey, f)
		}
	}
	switch {
	case len(byEntry) == 1:
		return byEntry[0]
	case len(byEntry) == 0 && len(byKey) == 1:
		return byKey[0]
	}
	return nil
}

// Unknown says that no format is named id (Lookup found none), with the
// nearest name suggest finds among what Lookup accepts, or the formats the
// book has.
func Unknown(formats []*Format, id string, suggest func(id string, names []string) string) string {
	if len(formats) == 0 {
		return "the lorebook has no output formats (format: blocks in entry content)"
	}
	ids := make([]string, len(formats))
	names := map[string]string{} // what Lookup accepts → the format's ID
	for i, f := range formats {
		ids[i] = f.ID
		for _, n := range []string{f.ID, f.Entry.ID, f.Key} {
			if _, ok := names[n]; !ok && n != "" {
				names[n] = f.ID
			}
		}
	}
	cands := make([]string, 0, len(names))
	for n := range names {
		cands = append(cands, n)
	}
	sort.Strings(cands)
	msg := fmt.Sprintf("no output format %q in the lorebook", id)
	if s := suggest(id, cands); s != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", names[s])
	}
	return msg + " (it has " + strings.Join(ids, ", ") + ")"
}

package lint

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// The mechanical fixes of `lore lint --fix`: split joined keywords, trim and
// drop blank keywords, drop duplicate keywords, rename ids that are not
// kebab-case (keeping the old id as the entry's name when it had none). They
// are made as small edits of the file's own text at the positions the loader
// recorded, so comments, quoting, key order and every other line stay as the
// creator wrote them; then the result is parsed again and must hold exactly
// the values the fixes meant (the safety check lore fmt also makes), or
// nothing is written.

// fixRules are the rules whose findings FixFile repairs.
var fixRules = map[string]bool{"joined-keywords": true, "blank-keyword": true, "duplicate-keyword": true, "schema": true}

// kebabMsg recognises the schema's finding for an id that is not kebab-case.
var kebabMsg = regexp.MustCompile(`id "[^"]*" must be kebab-case`)

// Fixable reports a finding that FixFile repairs.
func Fixable(d diag.Diagnostic) bool {
	if !fixRules[d.Rule] || d.Entry == "" {
		return false
	}
	return d.Rule != "schema" || kebabMsg.MatchString(d.Message)
}

// FixRequest says what to fix in one file: per entry (of the loaded lorebook),
// the rules whose findings on it are to be repaired.
type FixRequest map[*schema.Entry]map[string]bool

// NewFixRequests groups the fixable findings ds of book by file.
func NewFixRequests(book *schema.Lorebook, ds []diag.Diagnostic) map[string]FixRequest {
	byID := map[string][]*schema.Entry{}
	for _, e := range book.Entries {
		byID[e.ID] = append(byID[e.ID], e)
	}
	out := map[string]FixRequest{}
	for _, d := range ds {
		if !Fixable(d) {
			continue
		}
		for _, e := range byID[d.Entry] {
			if e.Pos.File != d.File {
				continue
			}
			if out[d.File] == nil {
				out[d.File] = FixRequest{}
			}
			if out[d.File][e] == nil {
				out[d.File][e] = map[string]bool{}
			}
			out[d.File][e][d.Rule] = true
		}
	}
	return out
}

// FixResult is what FixFile did to a file.
type FixResult struct {
	Out     []byte
	Fixed   int               // findings fixed
	Renamed map[string]string // old id → new id
}

// FixFile applies req to data, the text of one lore file (the entries of req
// were loaded from it). It returns the fixed text, or an error and no text
// when the file holds something the fixes cannot edit safely.
func FixFile(path string, data []byte, entries []*schema.Entry, req FixRequest) (*FixResult, error) {
	f := &fixer{path: path, data: data, lines: lineStarts(string(data)), nl: "\n", res: &FixResult{Renamed: map[string]string{}}}
	if bytes.Contains(data, []byte("\r\n")) {
		f.nl = "\r\n"
	}
	used := map[string]bool{}
	for _, e := range entries {
		used[e.ID] = true
	}
	var plan []entryPlan // what each entry of the file should hold after
	for _, e := range entries {
		var p entryPlan
		rules := req[e]
		if rules["schema"] {
			if id := schema.KebabID(e.ID); id != "" {
				base, n := id, 2
				for used[id] {
					id = fmt.Sprintf("%s-%d", base, n)
					n++
				}
				used[id] = true
				p.id = id
				if err := f.renameID(e, id); err != nil {
					return nil, err
				}
				f.res.Renamed[e.ID] = id
				f.res.Fixed++
				if !e.Has("name") {
					p.name = e.ID
				}
			}
		}
		var err error
		if p.keywords, err = f.fixList(e, "keywords", e.Keywords, rules); err != nil {
			return nil, err
		}
		if p.secondary, err = f.fixList(e, "secondaryKeywords", e.SecondaryKeywords, rules); err != nil {
			return nil, err
		}
		plan = append(plan, p)
	}
	out := applyEdits(data, f.edits)
	if err := verifyFix(path, data, out, plan); err != nil {
		return nil, err
	}
	f.res.Out = out
	return f.res, nil
}

// entryPlan is an entry's new id ("" unchanged), the name to add ("" none)
// and its keyword lists after the fixes (nil: unchanged).
type entryPlan struct {
	id, name            string
	keywords, secondary []string
}

type edit struct {
	start, end int
	text       string
}

type fixer struct {
	path  string
	data  []byte
	lines []int
	nl    string
	edits []edit
	res   *FixResult
}

func (f *fixer) json() bool { return schema.IsJSON(f.path, f.data) }

var (
	plainRe     = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} _.'’()-]*$`)
	yamlSpecial = regexp.MustCompile(`^(?i:true|false|yes|no|on|off|null|~|y|n|[-+]?[0-9][0-9_.:eE+-]*|\.inf|\.nan)$`)
)

// fixList plans and edits one keyword list of e: each keyword is trimmed and
// dropped when blank (blank-keyword), split when joined (joined-keywords), and
// later duplicates are dropped (duplicate-keyword, and any the split made). It
// returns the list the entry should hold, or nil when it is unchanged.
func (f *fixer) fixList(e *schema.Entry, field string, kws []schema.Keyword, rules map[string]bool) ([]string, error) {
	if len(kws) == 0 || !(rules["blank-keyword"] || rules["joined-keywords"] || rules["duplicate-keyword"]) {
		return nil, nil
	}
	outs := make([][]string, len(kws))
	split := false
	for i, k := range kws {
		t := k.Text
		if rules["blank-keyword"] {
			if t = strings.TrimSpace(t); t == "" {
				continue
			}
		}
		outs[i] = []string{t}
		if rules["joined-keywords"] {
			if parts, _ := match.SplitJoined(strings.TrimSpace(t)); parts != nil {
				outs[i], split = parts, true
			}
		}
	}
	if rules["duplicate-keyword"] || split {
		seen := map[string]bool{}
		for i := range outs {
			kept := outs[i][:0:0]
			for _, t := range outs[i] {
				n := t
				if !match.IsRegex(n) {
					n = match.Normalize(n)
				}
				if !seen[n] {
					seen[n] = true
					kept = append(kept, t)
				}
			}
			outs[i] = kept
		}
	}
	changed := false
	var all []string
	for i, k := range kws {
		all = append(all, outs[i]...)
		if len(outs[i]) != 1 || outs[i][0] != k.Text {
			changed = true
		}
	}
	if !changed {
		return nil, nil
	}
	for i, k := range kws {
		if len(outs[i]) == 1 && outs[i][0] == k.Text {
			continue
		}
		if err := f.editKeyword(e, field, k, outs[i]); err != nil {
			return nil, err
		}
		f.res.Fixed++
	}
	if all == nil {
		all = []string{}
	}
	return all, nil
}

// editKeyword replaces keyword k, as written in the file, by the keywords
// with (none: it is removed), in the list's own form: an item of a flow list
// or JSON array, or a line of a block list.
func (f *fixer) editKeyword(e *schema.Entry, field string, k schema.Keyword, with []string) error {
	start, err := f.offset(k.Pos)
	if err != nil {
		return err
	}
	prev, prevAt := f.before(start)
	switch prev {
	case '[', ',':
		end, err := f.scalarEnd(start, true)
		if err != nil {
			return err
		}
		if len(with) == 0 {
			return f.removeFlowItem(prev, prevAt, start, end)
		}
		parts := make([]string, len(with))
		for i, w := range with {
			parts[i] = f.quote(w, true)
		}
		f.edits = append(f.edits, edit{start, end, strings.Join(parts, ", ")})
	case '-':
		end, err := f.scalarEnd(start, false)
		if err != nil {
			return err
		}
		lineStart := f.lines[f.lineOf(start)-1]
		lineEnd := end
		for lineEnd < len(f.data) && f.data[lineEnd] != '\n' {
			lineEnd++
		}
		indent := strings.Repeat(" ", utf8.RuneCount(f.data[lineStart:prevAt]))
		if len(with) == 0 {
			rest := strings.TrimSpace(string(f.data[end:lineEnd]))
			if rest != "" { // a comment: it stays, on a line of its own
				f.edits = append(f.edits, edit{lineStart, lineEnd, indent + rest})
			} else {
				f.edits = append(f.edits, edit{lineStart, min(lineEnd+1, len(f.data)), ""})
			}
			return nil
		}
		f.edits = append(f.edits, edit{start, end, f.quote(with[0], false)})
		var more strings.Builder
		for _, w := range with[1:] {
			more.WriteString(f.nl + indent + "- " + f.quote(w, false))
		}
		at := lineEnd
		if at > 0 && f.data[at-1] == '\r' {
			at--
		}
		if more.Len() > 0 {
			f.edits = append(f.edits, edit{at, at, more.String()})
		}
	default:
		return fmt.Errorf("%s:%d: keyword %q of entry %q is not written in a form --fix edits; fix it by hand", f.path, k.Pos.Line, k.Text, e.ID)
	}
	return nil
}

// renameID replaces e's id by id and, when e has no name, adds the old id as
// its name, so that what the creator sees as the entry's name stays.
func (f *fixer) renameID(e *schema.Entry, id string) error {
	p, ok := e.Fields["id"]
	if !ok {
		return fmt.Errorf("%s: entry %q has no id to rename", f.path, e.ID)
	}
	start, err := f.offset(p)
	if err != nil {
		return err
	}
	prev, prevAt := f.before(start)
	if prev != ':' {
		return fmt.Errorf("%s:%d: the id of entry %q is not written in a form --fix edits", f.path, p.Line, e.ID)
	}
	flow := f.inFlow(prevAt)
	end, err := f.scalarEnd(start, flow)
	if err != nil {
		return err
	}
	f.edits = append(f.edits, edit{start, end, f.quote(id, flow)})
	if e.Has("name") {
		return nil
	}
	name := f.quote(e.ID, true)
	switch {
	case f.json():
		f.edits = append(f.edits, edit{end, end, `, "name": ` + name})
	case flow:
		f.edits = append(f.edits, edit{end, end, ", name: " + name})
	default:
		// The key "id" starts the text before the colon; a new line at its
		// column holds the name.
		ls := f.lines[f.lineOf(start)-1]
		key := bytes.LastIndex(f.data[ls:prevAt], []byte("id"))
		if key < 0 {
			return fmt.Errorf("%s:%d: cannot find the id key of entry %q", f.path, p.Line, e.ID)
		}
		lineEnd := end
		for lineEnd < len(f.data) && f.data[lineEnd] != '\n' && f.data[lineEnd] != '\r' {
			lineEnd++
		}
		indent := strings.Repeat(" ", utf8.RuneCount(f.data[ls:ls+key]))
		f.edits = append(f.edits, edit{lineEnd, lineEnd, f.nl + indent + "name: " + f.quote(e.ID, false)})
	}
	return nil
}

package reply

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
)

// Rules are the ids of the checker's findings (docs/formats-replies.md).
const (
	RuleMissing     = "reply-missing"     // a block the rule asks for is not in the reply
	RuleTwice       = "reply-twice"       // a block is written twice
	RuleLiteral     = "reply-literal"     // a template line's text is missing or changed
	RuleOrder       = "reply-order"       // a template line is written out of order
	RuleExtra       = "reply-extra"       // the block has a line the template does not
	RuleUnfilled    = "reply-unfilled"    // a ${…} is left unfilled, copied or empty
	RuleInstruction = "reply-instruction" // a $(…) instruction is printed
	RulePart        = "reply-part"        // a line matches none of a part's alternatives
	RuleTag         = "reply-tag"         // a tag is not closed, nested wrongly or left over
	RuleLimit       = "reply-limit"       // a filled text or a count breaks a stated limit
	RuleJSON        = "reply-json"        // the JSON does not parse or does not fit its type
	RuleType        = "reply-type"        // (info) a type: lore cannot read
)

// finding is a problem at an offset of a reply's text.
type finding struct {
	off  int
	sev  diag.Severity
	rule string
	msg  string
	tpl  diag.Pos
	f    *Format
}

// Check checks a reply against formats, each where the reply has it; a
// format whose rule asks for it in every reply (Required), or every format
// when named is true (the caller names the formats to check), must be there.
// The findings are sorted.
func Check(r *Reply, formats []*Format, named bool) []diag.Diagnostic {
	rc := &replyCheck{r: r}
	for _, f := range formats {
		if f.Unchecked != "" {
			continue
		}
		fc := &formatCheck{replyCheck: rc, f: f, required: named || f.Required}
		fc.check()
	}
	sortFindings(rc.out)
	ds := make([]diag.Diagnostic, 0, len(rc.out))
	for _, x := range rc.out {
		p := r.at.pos(x.off)
		d := diag.Diagnostic{File: p.File, Line: p.Line, Column: p.Col, Severity: x.sev, Rule: x.rule,
			Message: x.msg, Entry: x.f.Entry.ID}
		if x.tpl.File != "" {
			d.Related = &diag.Related{File: x.tpl.File, Line: x.tpl.Line, Column: x.tpl.Col, Message: "template"}
		}
		if r.Message > 0 {
			d.Message = fmt.Sprintf("message %d: %s", r.Message, d.Message)
		}
		ds = append(ds, d)
	}
	return diag.Sort(ds)
}

// replyCheck is what the formats checked against one reply share: its
// tags and lines, found once.
type replyCheck struct {
	r     *Reply
	out   []finding
	tags  []outformat.Tag
	tagsR bool
	lines []rline // every line of the text, folded on first use
	buf   strings.Builder
	align alignScratch
	memo  []int8
}

// rline is a line of the reply: its byte range (without the line break)
// and, once folded, its folded text.
type rline struct {
	start, end int
	n          *normLine
}

func (rc *replyCheck) allTags() []outformat.Tag {
	if !rc.tagsR {
		rc.tags, rc.tagsR = outformat.Tags(rc.r.Text), true
	}
	return rc.tags
}

// linesIn are the non-blank lines of text[from:to], folded; a line cut by
// the range (a tag on the line) is folded as cut.
func (rc *replyCheck) linesIn(from, to int) []*rline {
	if rc.lines == nil {
		t := rc.r.Text
		rc.lines = make([]rline, 0, strings.Count(t, "\n")+1)
		start := 0
		for start <= len(t) {
			end := strings.IndexByte(t[start:], '\n')
			if end < 0 {
				end = len(t)
			} else {
				end += start
			}
			e := end
			if e > start && t[e-1] == '\r' {
				e--
			}
			rc.lines = append(rc.lines, rline{start: start, end: e})
			start = end + 1
		}
	}
	var out []*rline
	// The first line that ends at or after from.
	lo, hi := 0, len(rc.lines)
	for lo < hi {
		m := (lo + hi) / 2
		if rc.lines[m].end < from {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < len(rc.lines) && rc.lines[i].start < to; i++ {
		l := &rc.lines[i]
		s, e := max(l.start, from), min(l.end, to)
		if strings.TrimSpace(rc.r.Text[s:e]) == "" {
			continue
		}
		if s == l.start && e == l.end {
			if l.n == nil {
				l.n = &normLine{}
				l.n.fold(rc.r.Text[s:e], &rc.buf)
			}
			out = append(out, l)
			continue
		}
		cut := &rline{start: s, end: e, n: &normLine{}}
		cut.n.fold(rc.r.Text[s:e], &rc.buf)
		out = append(out, cut)
	}
	return out
}

// formatCheck checks one format against the reply.
type formatCheck struct {
	*replyCheck
	f        *Format
	required bool
	badTags  map[string]bool // tags with a problem: their lines are not reported again
	printed  map[int]bool    // lines (by start) with an instruction printed: not reported as extra too
	at       []int           // scratch for match
}

func (fc *formatCheck) add(off int, sev diag.Severity, rule string, tpl diag.Pos, format string, args ...any) {
	fc.out = append(fc.out, finding{off: off, sev: sev, rule: rule, msg: fmt.Sprintf(format, args...), tpl: tpl, f: fc.f})
}

func (fc *formatCheck) check() {
	f := fc.f
	from, to := 0, len(fc.r.Text)
	if f.tag != "" {
		b := fc.tagged()
		if b == nil {
			fc.absent()
			return
		}
		from, to = b.from, b.to
	}
	if f.json != nil {
		fc.checkJSON(from, to)
		return
	}
	if len(f.body) == 0 {
		return // a tag around `...`: the block's text is the model's
	}
	lines := fc.linesIn(from, to)
	free := false
	if f.tag == "" {
		a := -1
		for i, l := range lines {
			if c, _ := fc.match(f.anchor, l); c == costMatch {
				a = i
				break
			}
		}
		if a < 0 {
			fc.absent()
			return
		}
		lines, free = lines[a:], true
	}
	fc.instructions(lines)
	fc.align(lines, free, to)
}

func (fc *formatCheck) match(p *linePat, l *rline) (int8, int) {
	if cap(fc.at) < len(p.segs) {
		fc.at = make([]int, len(p.segs))
	}
	fc.at = fc.at[:len(p.segs)]
	return match(p, l.n, fc.at)
}

// absent reports a missing block when the format must be there.
func (fc *formatCheck) absent() {
	if !fc.required {
		return
	}
	f := fc.f
	what, tpl := f.ID+" block", f.Pos
	if f.tag != "" {
		what, tpl = "<"+f.tag+"> block ("+f.ID+")", f.tagPos
	} else if f.json != nil {
		what, tpl = "JSON ("+f.ID+")", f.json.pos
	}
	why := "its rule asks for it in every reply"
	if !f.Required {
		why = "the format was named to check"
	}
	fc.add(len(strings.TrimRightFunc(fc.r.Text, unicode.IsSpace)), diag.Error, RuleMissing, tpl, "no %s: %s", what, why)
}

// block is where a format's tag is in the reply: the text between its
// opening and closing tags.
type block struct{ from, to int }

// tagged finds the format's block by its tag and reports what is wrong
// with the tags: a block never closed, opened twice, a closing tag with
// nothing open, the block written twice, the format's tags left over after
// it or paired wrongly inside it.
func (fc *formatCheck) tagged() *block {
	f := fc.f
	var b *block
	depth, open, closed := 0, -1, false
	twice := false
	var tagsAfter []outformat.Tag
	for _, t := range fc.allTags() {
		if closed {
			if t.Name == f.tag && !t.Closing && !twice {
				twice = true
				fc.add(t.At, diag.Error, RuleTwice, f.tagPos, "a second <%s> block: the format is written once per reply", f.tag)
			} else if !twice && (f.tags[t.Name] || t.Name == f.tag) {
				tagsAfter = append(tagsAfter, t)
			}
			continue
		}
		if t.Name != f.tag {
			continue
		}
		switch {
		case !t.Closing && depth == 0:
			open, depth = t.End, 1
		case !t.Closing:
			depth++
			fc.add(t.At, diag.Error, RuleTag, f.tagPos, "<%s> is opened again inside the <%s> block: close the first one before", f.tag, f.tag)
		case depth == 0:
			fc.add(t.At, diag.Error, RuleTag, f.tagPos, "</%s> closes a block that was never opened: write <%s> before it", f.tag, f.tag)
		case depth > 1:
			depth--
		default:
			b, closed, depth = &block{from: open, to: t.At}, true, 0
		}
	}
	if b == nil && open >= 0 {
		fc.add(open-len("<"+f.tag+">"), diag.Error, RuleTag, f.tagPos, "<%s> is never closed: end the block with </%s>", f.tag, f.tag)
		b = &block{from: open, to: len(fc.r.Text)}
	}
	if b == nil {
		return nil
	}
	fc.innerTags(b)
	for _, t := range tagsAfter {
		if t.Name == f.tag && !t.Closing {
			continue // the second block, reported above
		}
		fc.add(t.At, diag.Error, RuleTag, f.tagPos, "%s is left over after the <%s> block, which ends before it", tagText(t), f.tag)
	}
	return b
}

func tagText(t outformat.Tag) string {
	if t.Closing {
		return "</" + t.Name + ">"
	}
	return "<" + t.Name + ">"
}

// innerTags pairs the format's own tags inside the block.
func (fc *formatCheck) innerTags(b *block) {
	var ts []outformat.Tag
	for _, t := range fc.allTags() {
		if t.At >= b.from && t.End <= b.to && fc.f.tags[t.Name] && t.Name != fc.f.tag {
			ts = append(ts, t)
		}
	}
	probs := outformat.PairTags(ts)
	lateClose := map[string]bool{} // tags closed after an outer tag: nested wrongly
	for _, p := range probs {
		if p.Unopened {
			lateClose[p.Tag.Name] = true
		}
	}
	fc.badTags = map[string]bool{}
	for _, p := range probs {
		fc.badTags[p.Tag.Name] = true
		switch {
		case p.Unopened && fc.wasOpen(probs, p):
			fc.add(p.Tag.At, diag.Error, RuleTag, fc.f.tagPos, "</%s> comes after </%s>, which closes the tag around it: the tags are nested wrongly", p.Tag.Name, fc.outer(probs, p))
		case p.Unopened:
			fc.add(p.Tag.At, diag.Error, RuleTag, fc.f.tagPos, "</%s> closes a tag that is not open in the block", p.Tag.Name)
		case p.Before != nil && lateClose[p.Tag.Name]:
			// reported at its late closing tag
		case p.Before != nil:
			fc.add(p.Tag.At, diag.Error, RuleTag, fc.f.tagPos, "<%s> is never closed: add </%s> before </%s>", p.Tag.Name, p.Tag.Name, p.Before.Name)
		default:
			fc.add(p.Tag.At, diag.Error, RuleTag, fc.f.tagPos, "<%s> is never closed in the block: add </%s>", p.Tag.Name, p.Tag.Name)
		}
	}
}

// wasOpen says whether an unopened closing tag closes a tag an outer tag's
// closing left open; outer names that tag.
func (fc *formatCheck) wasOpen(probs []outformat.TagProblem, u outformat.TagProblem) bool {
	return fc.outer(probs, u) != ""
}

func (fc *formatCheck) outer(probs []outformat.TagProblem, u outformat.TagProblem) string {
	for _, p := range probs {
		if p.Before != nil && p.Tag.Name == u.Tag.Name && p.Tag.At < u.Tag.At && p.Before.At < u.Tag.At {
			return p.Before.Name
		}
	}
	return ""
}

// instructions reports a $(…) printed in the block: the instruction's own
// words, or a "$(" left in.
func (fc *formatCheck) instructions(lines []*rline) {
	for _, in := range fc.f.instrs {
		if len([]rune(in.n)) < 4 {
			continue // too short to tell from the reply's own words
		}
		for _, l := range lines {
			if i := strings.Index(l.n.n, in.n); i >= 0 {
				fc.add(l.start+int(l.n.from[i]), diag.Error, RuleInstruction, in.pos,
					"the instruction $(%s) is printed: $(…) tells the model what to do, it is not part of the reply", shorten(in.text, 30))
				break
			}
		}
	}
	fc.printed = map[int]bool{}
	for _, x := range fc.out {
		if x.rule == RuleInstruction && x.f == fc.f {
			for _, l := range lines {
				if x.off >= l.start && x.off < l.end {
					fc.printed[l.start] = true
				}
			}
		}
	}
	for _, l := range lines {
		if i := strings.Index(l.n.n, "$("); i >= 0 {
			fc.printed[l.start] = true
			tpl := fc.f.Pos
			if len(fc.f.instrs) > 0 {
				tpl = fc.f.instrs[0].pos
			}
			fc.add(l.start+int(l.n.from[i]), diag.Error, RuleInstruction, tpl, "a $(…) is printed: instructions are for the model, not the reply")
		}
	}
}

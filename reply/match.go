package reply

import (
	"strings"
	"unicode/utf8"
)

// Line costs of the alignment (align.go): a reply line that matches a
// template line costs nothing; one that starts like it and differs later
// costs a little, less the more of its literal text matches (it is that
// line, changed; of a choice's alternatives, the one nearest the reply is
// taken); one that starts with the same character (身材 for 身体) costs more
// but less than a missing line, so it is reported as changed; a line with
// nothing of the template line costs more than a missing line and an extra
// one together, so a line moved elsewhere is missing here and extra there
// (then paired as out of order).
const (
	costMatch   = 0
	costPartial = 8 // less the literal segments that matched (at most 7)
	costChanged = 12
	costMissing = 16
	costExtra   = 16
	costUnlike  = costMissing + costExtra + 8
)

// match compares a reply line with a template line: its cost, the folded
// offset of each literal segment found (-1 for fills and the unfound), and
// the first segment that does not match (-1 when all do).
func match(p *linePat, l *normLine, at []int) (cost int8, fail int) {
	n := l.n
	first := -1
	for k, s := range p.segs {
		if s.fill == nil {
			first = k
			break
		}
	}
	if first < 0 {
		return costMatch, -1 // fills only: any line
	}
	for k := range at {
		at[k] = -1
	}
	pos, matched := 0, 0
	for k, s := range p.segs {
		if s.fill != nil {
			continue
		}
		var i int
		switch {
		case len(p.segs) == 1:
			if n != s.lit {
				return unlike(p, n, s.lit), k
			}
			i = 0
		case k == 0:
			if !strings.HasPrefix(n, s.lit) {
				return unlike(p, n, s.lit), k
			}
			i = 0
		case k == len(p.segs)-1:
			i = len(n) - len(s.lit)
			if i < pos || n[i:] != s.lit {
				return failCost(k, first, matched), k
			}
		default:
			j := strings.Index(n[pos:], s.lit)
			if j < 0 {
				return failCost(k, first, matched), k
			}
			i = pos + j
		}
		at[k] = i
		pos = i + len(s.lit)
		matched++
	}
	return costMatch, -1
}

// failCost is the cost of a line whose literal segment k did not match,
// after matched others: partial when the first matched, else changed (a
// line that starts with a fill has no first literal to tell it by).
func failCost(k, first, matched int) int8 {
	if k > first {
		return costPartial - int8(min(matched, 7))
	}
	return costChanged
}

// unlike is the cost of a line whose start differs from the template
// line's: changed when they start with the same character (身体 and 身材),
// else unlike.
func unlike(p *linePat, n, lit string) int8 {
	if p.tag == "" && n != "" && lit != "" {
		a, _ := utf8.DecodeRuneInString(n)
		b, _ := utf8.DecodeRuneInString(lit)
		if a == b {
			return costChanged
		}
	}
	return costUnlike
}

// fillSpan is where fill segment k of a matched line is, as byte offsets of
// the line's text (trimmed).
func fillSpan(p *linePat, l *normLine, at []int, k int) (int, int) {
	a, b := 0, len(l.n)
	if k > 0 && at[k-1] >= 0 {
		a = at[k-1] + len(p.segs[k-1].lit)
	}
	if k+1 < len(p.segs) && at[k+1] >= 0 {
		b = at[k+1]
	}
	return l.span(a, b)
}

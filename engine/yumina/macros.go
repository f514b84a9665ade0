package yumina

import (
	"encoding/binary"
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/render"
)

// macros expands Yumina's macros in entry content (never in chat messages).
// Names are case-sensitive, and a macro's text is not expanded again:
//   - {{char}}: the first enabled character entry's name, else "Assistant";
//   - {{user}}: the persona's name, else "User";
//   - {{//…}}: a comment, removed; {{trim}}: removes the white space around
//     it;
//   - {{turnCount}}: 0, the count of a session that has not played a turn
//     (lore has no turn counter);
//   - {{random::a::b}}: one of the options — Yumina draws with Math.random,
//     lore by a hash of --seed, the text and the macro's place, so a render
//     can be repeated;
//   - {{pick::a::b}}: the option Yumina's stable hash picks on turn 0 (it
//     depends only on the macro's place in the text);
//   - {{word}}: the variable of that id, printed as JavaScript prints it;
//   - anything else is left as written.
type macros struct {
	char, user string
	seed       int64
	vars       map[string]any
	budget     *render.MacroBudget // what expansion may add (nil: no bound)
}

// trimMark stands for {{trim}} until the white space around it is removed.
const trimMark = "\x00TRIM\x00"

// expand expands the macros of one text, within the render's macro budget:
// once a macro's text would pass it, the rest of s is left as written.
func (m *macros) expand(s string) string {
	if !strings.Contains(s, "{{") || m.budget.Spent() {
		return s
	}
	var b strings.Builder
	index := 0
	trimmed := false
	for i := 0; i < len(s); {
		start, end, ok := nextMacro(s, i)
		if !ok {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i:start])
		out := m.resolve(s, s[start+2:end-2], index)
		if !m.budget.Take(len(out)-(end-start), s[start:end], s) {
			b.WriteString(s[start:])
			break
		}
		trimmed = trimmed || out == trimMark
		b.WriteString(out)
		index++
		i = end
	}
	if !trimmed {
		return b.String()
	}
	return removeTrimMarks(b.String())
}

// nextMacro finds the first {{…}} at or after i whose inside holds no "{{"
// and no "}}".
func nextMacro(s string, i int) (start, end int, ok bool) {
	for {
		k := strings.Index(s[i:], "{{")
		if k < 0 {
			return 0, 0, false
		}
		start = i + k
		for j := start + 2; j < len(s); j++ {
			if s[j] == '{' && j+1 < len(s) && s[j+1] == '{' {
				break
			}
			if s[j] == '}' && j+1 < len(s) && s[j+1] == '}' {
				return start, j + 2, true
			}
		}
		i = start + 1
	}
}

func (m *macros) resolve(text, inner string, index int) string {
	switch {
	case strings.HasPrefix(inner, "//"):
		return ""
	case inner == "trim":
		return trimMark
	case inner == "char":
		return m.char
	case inner == "user":
		return m.user
	case inner == "turnCount":
		return "0"
	case strings.HasPrefix(inner, "random::"):
		items := strings.Split(inner[len("random::"):], "::")
		return items[m.draw(text, index)%uint64(len(items))]
	case strings.HasPrefix(inner, "pick::"):
		items := strings.Split(inner[len("pick::"):], "::")
		hash := uint32(uint64(index) * 2654435761) // turn 0
		return items[int(hash)%len(items)]
	}
	if isWord(inner) {
		if v, ok := m.vars[inner]; ok {
			return jsString(v)
		}
	}
	return "{{" + inner + "}}"
}

// drawText is how much of a text draw hashes: every {{random}} hashes it
// anew (its index comes first), so 20,000 of them in a text of 300 KB would
// hash 6 GB. An entry is shorter than this, so its draws are those of the
// whole text.
const drawText = 16 << 10

// draw is the pseudo-random number for the index-th macro of text.
func (m *macros) draw(text string, index int) uint64 {
	h := fnv.New64a()
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(m.seed))
	binary.LittleEndian.PutUint64(buf[8:], uint64(index))
	h.Write(buf[:])
	h.Write([]byte(text[:min(len(text), drawText)]))
	return h.Sum64()
}

// isWord is JavaScript's /^\w+$/.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// removeTrimMarks deletes each {{trim}} with the white space on both sides.
func removeTrimMarks(s string) string {
	var b strings.Builder
	for {
		k := strings.Index(s, trimMark)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(trimRightJS(s[:k]))
		s = strings.TrimLeftFunc(s[k+len(trimMark):], jsSpace)
	}
}

func trimRightJS(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !jsSpace(r) {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}

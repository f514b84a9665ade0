package yumina

import (
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
)

// parseExamples reads example dialogue as Yumina does, which is not lore's
// render.ParseExamples:
//   - blocks are split at every <START>, in any case, even inside a line;
//   - a line that starts with {{user}}: or the user's name and a colon
//     (case-insensitive) opens a user turn, one with {{char}}: or the
//     character's name an assistant turn; other lines continue the turn,
//     trimmed, and lines before a block's first turn are dropped;
//   - macros were expanded before, so {{user}}: is recognised by the name it
//     became;
//   - the turns of all blocks follow each other under one "[Example Chat]".
func parseExamples(text, user, char string) []render.ExampleTurn {
	var out []render.ExampleTurn
	for _, block := range splitStart(text) {
		if jsTrim(block) == "" {
			continue
		}
		speaker := ""
		var lines []string
		flush := func() {
			if speaker != "" && len(lines) > 0 {
				out = append(out, render.ExampleTurn{Speaker: speaker, Text: jsTrim(strings.Join(lines, "\n"))})
			}
			lines = nil
		}
		for _, line := range strings.Split(block, "\n") {
			t := jsTrim(line)
			if t == "" {
				continue
			}
			if rest, ok := speakerLine(t, "{{user}}", user); ok {
				flush()
				speaker = render.SpeakerUser
				if rest != "" {
					lines = append(lines, rest)
				}
			} else if rest, ok := speakerLine(t, "{{char}}", char); ok {
				flush()
				speaker = render.SpeakerAssistant
				if rest != "" {
					lines = append(lines, rest)
				}
			} else if speaker != "" {
				lines = append(lines, t)
			}
		}
		flush()
	}
	return out
}

// splitStart splits text at every <START>, case-insensitively.
func splitStart(text string) []string {
	const marker = "<start>"
	var out []string
	for {
		k := indexFoldASCII(text, marker)
		if k < 0 {
			return append(out, text)
		}
		out = append(out, text[:k])
		text = text[k+len(marker):]
	}
}

// indexFoldASCII finds an ASCII needle in s, ignoring ASCII case only (as a
// JavaScript /i regular expression does for ASCII letters).
func indexFoldASCII(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// speakerLine matches "{{macro}}: text" or "name: text"; the macro compares
// ignoring ASCII case, the name as a JavaScript /i regular expression would.
// The text is what follows the colon and its white space, up to a line
// break.
func speakerLine(line, macro, name string) (string, bool) {
	if len(line) > len(macro) && equalFoldASCII(line[:len(macro)], macro) && line[len(macro)] == ':' {
		return speakerText(line[len(macro)+1:]), true
	}
	if rest, ok := match.JSCutPrefixFold(line, name); ok && strings.HasPrefix(rest, ":") {
		return speakerText(rest[1:]), true
	}
	return "", false
}

func speakerText(s string) string {
	s = strings.TrimLeftFunc(s, jsSpace)
	if k := strings.IndexFunc(s, lineTerminator); k >= 0 {
		s = s[:k]
	}
	return s
}

// equalFoldASCII compares two strings of the same length ignoring the case
// of ASCII letters only.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

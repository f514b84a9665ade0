package sillytavern

import (
	"strings"

	"github.com/lorekit/lore/render"
)

// macros expands the macros SillyTavern substitutes in keys and contents
// (substituteParams), those that do not depend on the clock, the browser or
// chance, in SillyTavern's order: the legacy <USER>, <BOT>, <CHAR>, <GROUP>,
// <CHARIFNOTGROUP>; {{newline}}, {{trim}}, {{noop}}; the names and card
// fields ({{user}}, {{char}}, {{group}}, {{charIfNotGroup}}, {{description}},
// {{personality}}, {{scenario}}, {{persona}}, {{mesExamples}},
// {{charPrompt}}, {{charJailbreak}}, {{charVersion}}, {{model}}), one after
// the other so that a field's text has its own {{char}} expanded;
// {{lastMessage}}, {{lastUserMessage}}, {{lastCharMessage}};
// {{reverse:…}}; then {{// comments}} are removed. Names are matched without
// regard to ASCII case. Every other macro ({{random}}, {{roll}}, {{time}},
// {{getvar}}, …) is left as written.
type macros struct {
	usr, chr                      string
	env                           []macroVar
	lastMessage, lastUser, lastAI string
	budget                        *render.MacroBudget // what expansion may add (nil: no bound)
}

type macroVar struct{ name, value string }

func newMacros(user, char string, card map[string]string) *macros {
	m := &macros{usr: user, chr: char}
	for _, f := range []struct{ name, field string }{
		{"charPrompt", "system_prompt"}, {"charJailbreak", "post_history_instructions"},
		{"description", "description"}, {"personality", "personality"}, {"scenario", "scenario"},
		{"persona", "persona"}, {"mesExamples", "mes_example"}, {"charVersion", "character_version"},
		{"char_version", "character_version"},
	} {
		m.env = append(m.env, macroVar{f.name, card[f.field]})
	}
	m.env = append(m.env, macroVar{"user", user}, macroVar{"char", char}, macroVar{"group", char},
		macroVar{"charIfNotGroup", char}, macroVar{"model", ""})
	return m
}

// add118 gives the macros SillyTavern 1.18.0's substituteParams
// adds to 1.12.6's, for a one-character chat: {{charInstruction}} (the
// post-history instructions, as {{charJailbreak}}), {{mesExamplesRaw}} (the
// card's examples as written), {{charDepthPrompt}} (the Character's Note),
// {{creatorNotes}}, then after the names {{groupNotMuted}} (the character)
// and {{notChar}} (the user). {{mesExamples}} becomes the examples as
// Chat Completion sends them: each <START> block trimmed, under a
// "<START>" line, ending in a line break.
func (m *macros) add118(card map[string]string) *macros {
	var cardVars, names []macroVar
	for _, v := range m.env {
		switch v.name {
		case "user", "char", "group", "charIfNotGroup", "model":
			names = append(names, v)
		case "mesExamples":
			cardVars = append(cardVars, macroVar{v.name, chatExamples(v.value)})
		default:
			cardVars = append(cardVars, v)
		}
	}
	cardVars = append(cardVars, macroVar{"charInstruction", card["post_history_instructions"]},
		macroVar{"mesExamplesRaw", card["mes_example"]}, macroVar{"charDepthPrompt", jsTrim(card["depth_prompt"])},
		macroVar{"creatorNotes", jsTrim(card["creator_notes"])})
	names = append(names, macroVar{"groupNotMuted", m.chr}, macroVar{"notChar", m.usr})
	m.env = append(cardVars, names...)
	return m
}

// chatExamples is SillyTavern's parseMesExamples joined, for Chat
// Completion: "<START>" put first when missing, then each block after a
// <START> (any case) trimmed, as "<START>\n" + block + "\n".
func chatExamples(s string) string {
	if s == "" || s == "<START>" {
		return ""
	}
	if !strings.HasPrefix(s, "<START>") {
		s = "<START>\n" + jsTrim(s)
	}
	var b strings.Builder
	rest := s
	for {
		i := indexFold(rest, "<START>")
		if i < 0 {
			break
		}
		rest = rest[i+len("<START>"):]
		block := rest
		if j := indexFold(rest, "<START>"); j >= 0 {
			block = rest[:j]
		}
		b.WriteString("<START>\n" + jsTrim(block) + "\n")
	}
	return b.String()
}

// setChat gives {{lastMessage}} and its kin the chat of this generation
// (system messages already left out).
func (m *macros) setChat(msgs []chatMessage) {
	m.lastMessage, m.lastUser, m.lastAI = "", "", ""
	if n := len(msgs); n > 0 {
		m.lastMessage = msgs[n-1].text
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].user && m.lastUser == "" {
			m.lastUser = msgs[i].text
		}
		if !msgs[i].user && m.lastAI == "" {
			m.lastAI = msgs[i].text
		}
	}
}

func (m *macros) user() string { return m.usr }
func (m *macros) char() string { return m.chr }

// expand substitutes the macros in s, each kind in one pass over the text,
// within the render's macro budget: once a value would pass it, that pass
// and the later ones leave the rest as written.
func (m *macros) expand(s string) string {
	if s == "" || m.budget.Spent() {
		return s
	}
	orig := s
	if strings.IndexByte(s, '<') >= 0 {
		for _, r := range []struct{ tag, value string }{
			{"<USER>", m.user()}, {"<BOT>", m.char()}, {"<CHAR>", m.char()},
			{"<CHARIFNOTGROUP>", m.char()}, {"<GROUP>", m.char()},
		} {
			s = m.replace(s, r.tag, r.value, orig)
		}
	}
	if !strings.Contains(s, "{{") {
		return s
	}
	s = replaceFold(s, "{{newline}}", "\n")
	s = trimMacro(s)
	s = replaceFold(s, "{{noop}}", "")
	for _, v := range m.env {
		s = m.replace(s, "{{"+v.name+"}}", v.value, orig)
	}
	s = m.replace(s, "{{lastMessage}}", m.lastMessage, orig)
	s = m.replace(s, "{{lastUserMessage}}", m.lastUser, orig)
	s = m.replace(s, "{{lastCharMessage}}", m.lastAI, orig)
	s = reverseMacro(s)
	return stripComments(s)
}

// replace is replaceFold within the budget: an occurrence whose value does
// not fit, and every one after it, stays as written. orig is the text expand
// was given (to name its entry).
func (m *macros) replace(s, pat, value, orig string) string {
	if m.budget == nil || len(value) <= len(pat) {
		return replaceFold(s, pat, value)
	}
	return replaceFoldWhile(s, pat, value, func() bool { return m.budget.Take(len(value)-len(pat), pat, orig) })
}

// indexFold is strings.Index with ASCII letters compared without case (a
// JavaScript /i regular expression of ASCII text).
func indexFold(s, pat string) int {
	n := len(pat)
	for i := 0; i+n <= len(s); i++ {
		if s[i] == pat[0] || lowerASCII(s[i]) == lowerASCII(pat[0]) {
			if equalFoldASCII(s[i:i+n], pat) {
				return i
			}
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// replaceFold replaces every occurrence of pat, ASCII case ignored.
func replaceFold(s, pat, value string) string { return replaceFoldWhile(s, pat, value, nil) }

// replaceFoldWhile is replaceFold that stops replacing when ok (if not
// nil) says no.
func replaceFoldWhile(s, pat, value string, ok func() bool) string {
	i := indexFold(s, pat)
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		if ok != nil && !ok() {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(value)
		s = s[i+len(pat):]
		i = indexFold(s, pat)
	}
	b.WriteString(s)
	return b.String()
}

// withOriginal is a card's system prompt or post-history instructions with
// {{original}} replaced as SillyTavern does when the card overrides a
// preset's prompt: the first by the prompt it overrides (whose own macros
// are expanded with the rest), any other by nothing.
func withOriginal(s, original string) string {
	const pat = "{{original}}"
	i := indexFold(s, pat)
	if i < 0 {
		return s
	}
	return s[:i] + original + replaceFold(s[i+len(pat):], pat, "")
}

// trimMacro removes {{trim}} with the line breaks around it
// (/(?:\r?\n)*{{trim}}(?:\r?\n)*/gi), in one pass.
func trimMacro(s string) string {
	const pat = "{{trim}}"
	i := indexFold(s, pat)
	if i < 0 {
		return s
	}
	var b strings.Builder
	from := 0 // s[from:] is not written yet
	for i >= 0 {
		start, end := i, i+len(pat)
		for start > from && s[start-1] == '\n' {
			start--
			if start > from && s[start-1] == '\r' {
				start--
			}
		}
		for end < len(s) {
			if s[end] == '\n' {
				end++
			} else if s[end] == '\r' && end+1 < len(s) && s[end+1] == '\n' {
				end += 2
			} else {
				break
			}
		}
		b.WriteString(s[from:start])
		from = end
		if k := indexFold(s[end:], pat); k >= 0 {
			i = end + k
		} else {
			i = -1
		}
	}
	b.WriteString(s[from:])
	return b.String()
}

// reverseMacro is {{reverse:text}} (/{{reverse\:(.+?)}}/gi): the text's
// characters backwards; the text is one character or more, up to the first
// }} after it, on one line.
func reverseMacro(s string) string {
	const open = "{{reverse:"
	var b strings.Builder
	for {
		i := indexFold(s, open)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		body := s[i+len(open):]
		end := -1
		for k := 1; k+1 < len(body); k++ {
			if body[k] == '}' && body[k+1] == '}' {
				end = k
				break
			}
		}
		if end < 0 || strings.ContainsAny(body[:end], "\n\r\u2028\u2029") {
			// No match here: the next one may start inside.
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		rs := []rune(body[:end])
		for a, z := 0, len(rs)-1; a < z; a, z = a+1, z-1 {
			rs[a], rs[z] = rs[z], rs[a]
		}
		b.WriteString(s[:i])
		b.WriteString(string(rs))
		s = body[end+2:]
	}
}

// stripComments removes {{// …}} (the shortest, across lines), in one pass.
func stripComments(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{//")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+4:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+4+j+2:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

package render

import (
	"strings"

	"github.com/lorekit/lore/schema"
)

// Macros expands the macros of SPEC §3 in entry content, persona, format,
// summary, memory and pending text (never in chat messages):
//
//   - {{user}}: the transcript's persona name, else the manifest's, else "User";
//   - {{char}}: the manifest's character, else the name of the first enabled
//     entry whose role was set to character explicitly (the role's default is
//     character too, and counting defaulted roles would make {{char}} the
//     first entry of any lorebook), else the lorebook's name, else "Character";
//   - {{random::a::b::c}}: one of the options, chosen by a hash of the seed,
//     the whole text being expanded and the macro's byte offset in it, so the
//     same seed gives the same pick for the same text at the same place on
//     every render, and two entries with the same options do not always pick
//     alike;
//   - {{getvar::id}}: the variable's current value (lists joined with ", ",
//     null as nothing); a variable neither declared nor given is left as
//     written, so the creator sees it in the prompt (lint reports it).
//
// Macro names are case-insensitive ({{User}}, {{GETVAR::gold}}); arguments are
// taken as written. Unknown macros are left as written. Macros do not nest:
// in {{random::{{user}}::x}} only {{user}} is a macro; the text a macro
// expands to is not expanded again.
type Macros struct {
	user, char string
	seed       int64
	values     map[string]any
	budget     *MacroBudget
}

// NewMacros prepares the macros of one render.
func NewMacros(in *Input) *Macros {
	if in == nil {
		in = &Input{}
	}
	m := &Macros{user: "User", seed: in.Seed, budget: in.macros}
	if m.budget == nil {
		m.budget = NewMacroBudget(in)
	}
	book := in.Book
	switch {
	case in.Transcript != nil && in.Transcript.Persona != nil && in.Transcript.Persona.Name != "":
		m.user = in.Transcript.Persona.Name
	case book != nil && book.Manifest.Persona != nil && book.Manifest.Persona.Name != "":
		m.user = book.Manifest.Persona.Name
	}
	m.char = charName(book)
	m.values = CurrentValues(book, in.Vars)
	return m
}

func charName(book *schema.Lorebook) string {
	if book == nil {
		return "Character"
	}
	if book.Manifest.Character != "" {
		return book.Manifest.Character
	}
	for _, e := range book.Entries {
		if e != nil && e.Enabled && e.Role == "character" && e.Has("role") {
			if e.Name != "" {
				return e.Name
			}
			return e.ID
		}
	}
	if book.Manifest.Name != "" {
		return book.Manifest.Name
	}
	return "Character"
}

// User is what {{user}} expands to.
func (m *Macros) User() string { return m.user }

// Char is what {{char}} expands to.
func (m *Macros) Char() string { return m.char }

// Budget is the macro budget these macros spend (the render's).
func (m *Macros) Budget() *MacroBudget { return m.budget }

// Expand replaces the macros in s, within the render's macro budget: once
// an expansion would pass it, the rest of s is left as written.
func (m *Macros) Expand(s string) string {
	if !strings.Contains(s, "{{") || m.budget.Spent() {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var h textHash
	i := 0
	for {
		open := strings.Index(s[i:], "{{")
		if open < 0 {
			b.WriteString(s[i:])
			break
		}
		open += i
		end := strings.Index(s[open+2:], "}}")
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		end += open + 2
		// A "{{" before the closing braces means this one is not a macro
		// (or nests one): write it out and start again at the inner one.
		if inner := strings.Index(s[open+2:end], "{{"); inner >= 0 {
			b.WriteString(s[i : open+2+inner])
			i = open + 2 + inner
			continue
		}
		b.WriteString(s[i:open])
		body := s[open+2 : end]
		if out, ok := m.expandOne(body, s, open, &h); ok {
			if !m.budget.Take(len(out)-len(body)-4, s[open:end+2], s) {
				b.WriteString(s[open:])
				break
			}
			b.WriteString(out)
		} else {
			b.WriteString(s[open : end+2])
		}
		i = end + 2
	}
	return b.String()
}

// expandOne expands one macro body (what is between the braces); ok is false
// for an unknown macro.
func (m *Macros) expandOne(body, text string, offset int, h *textHash) (string, bool) {
	name, args, hasArgs := strings.Cut(body, "::")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "user":
		if !hasArgs {
			return m.user, true
		}
	case "char":
		if !hasArgs {
			return m.char, true
		}
	case "random":
		if hasArgs {
			opts := strings.Split(args, "::")
			return opts[m.pick(h, text, offset, len(opts))], true
		}
	case "getvar":
		if hasArgs {
			if v, ok := m.values[strings.TrimSpace(args)]; ok {
				return valueText(v), true
			}
		}
	}
	return "", false
}

// pick is the seeded choice of {{random}}: FNV-1a 64 over the seed (8 bytes,
// little-endian), the text and the macro's offset (8 bytes, little-endian),
// modulo the number of options. The hash of the seed and the text is made
// once per text (h), not once per macro.
func (m *Macros) pick(h *textHash, text string, offset, n int) int {
	if !h.done {
		h.done = true
		h.sum = fnvOffset
		h.sum = fnvUint64(h.sum, uint64(m.seed))
		for i := 0; i < len(text); i++ {
			h.sum = (h.sum ^ uint64(text[i])) * fnvPrime
		}
	}
	return int(fnvUint64(h.sum, uint64(offset)) % uint64(n))
}

// textHash is the FNV-1a state after the seed and the text, made on the
// first {{random}} of an Expand.
type textHash struct {
	sum  uint64
	done bool
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvUint64 feeds v's 8 little-endian bytes to an FNV-1a 64 state.
func fnvUint64(h, v uint64) uint64 {
	for k := 0; k < 8; k++ {
		h = (h ^ (v >> (8 * k) & 0xff)) * fnvPrime
	}
	return h
}

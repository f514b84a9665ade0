package sillytavern

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lorekit/lore/engine/sillytavern/stregex"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// SillyTavern's regex scripts (package stregex) run where 1.18.0 runs them
// when it generates: on each chat message before World Info scans the chat
// — the same text is then sent — as user input or AI output, at its depth
// (0 = the newest; a continue counts from −1), and on each activated
// entry's content as it is placed (placement World Info, at the entry's
// depth when it goes in at one). Only prompt-only scripts run then; a
// script with neither flag ran when its message was written, so it is in
// the transcript already, except in the greeting SillyTavern writes itself
// when it opens a chat. The global scripts (settings.sillytavern
// .regexScripts) run before the card's (extensions.regex_scripts, as when
// the user allowed them for the card; cardRegexScripts: false turns them
// off), as SillyTavern orders them.

// regexScripts are the scripts a generation runs: the settings', then the
// card's.
func regexScripts(lb *schema.Lorebook, s *Settings) ([]*stregex.Script, error) {
	scripts := append([]*stregex.Script(nil), s.RegexScripts...)
	if !s.CardRegexScripts {
		return scripts, nil
	}
	for _, f := range []string{formats.FormatCardV3, formats.FormatCardV2} {
		x, _ := lb.Manifest.Extensions[f].(map[string]any)
		ext, _ := x["extensions"].(map[string]any)
		if ext == nil {
			continue
		}
		card, err := stregex.Parse(ext["regex_scripts"], "the card's extensions.regex_scripts")
		if err != nil {
			return nil, err
		}
		return append(scripts, card...), nil
	}
	return scripts, nil
}

// scriptRunner runs the scripts of one generation with its macros.
func (b *book) scriptRunner(m *macros) *stregex.Runner {
	return &stregex.Runner{Clock: match.NewRegexClock(), Macros: stregex.Macros{
		Expand:  m.expand,
		Escaped: func(s string) string { return m.expand(escapeNames(s, m)) },
	}}
}

// escapeNames puts {{char}} and {{user}} in as regular-expression text
// (substituteRegex 2, sanitizeRegexMacro); other macros expand as written.
func escapeNames(s string, m *macros) string {
	s = replaceFold(s, "{{char}}", regexEscape(m.char()))
	return replaceFold(s, "{{user}}", regexEscape(m.user()))
}

func regexEscape(s string) string {
	r := strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`, "\v", `\v`, "\f", `\f`, "\x00", `\0`)
	return r.Replace(regexp.QuoteMeta(s))
}

// regexChat runs the scripts on the chat as Generate() does before World
// Info: each message as user input or AI output, at its depth. The newest
// `reach` messages, which the scan may read, are rewritten now; the older
// ones only when the history comes to them (settle), since most of a long
// chat is never sent.
func (b *book) regexChat(msgs []chatMessage, r *stregex.Runner, reach int) {
	if len(b.scripts) == 0 {
		return
	}
	b.runner = r
	b.markPending(msgs)
	for i := len(msgs) - reach; i < len(msgs); i++ {
		b.settle(&msgs[i])
	}
}

// markPending gives each message its depth (the tail ends the chat) and
// leaves the scripts to run on it when it is read.
func (b *book) markPending(msgs []chatMessage) {
	offset := 1
	if b.s.GenerationType == "continue" {
		offset = 2
	}
	for i := range msgs {
		msgs[i].depth, msgs[i].pending = float64(len(msgs)-i-offset), true
	}
}

// settle runs the scripts on a message the scan did not read, if they have
// not run on it yet.
func (b *book) settle(c *chatMessage) {
	if !c.pending {
		return
	}
	c.pending = false
	place := stregex.AIOutput
	if c.user {
		place = stregex.UserInput
	}
	if c.index < 0 { // the greeting SillyTavern wrote, through the scripts of a written message
		c.text = b.runner.Apply(b.scripts, c.text, place, stregex.NoDepth(), true)
	}
	c.text = b.runner.Apply(b.scripts, c.text, place, c.depth, false)
}

// regexEntries runs the World Info scripts on each activated entry's
// content as SillyTavern places it: at the entry's depth when it goes in
// at one (entry.depth ?? 4), else with no depth. An entry left empty is
// placed nowhere.
func (b *book) regexEntries(sc *scan, r *stregex.Runner) {
	if len(b.scripts) == 0 {
		return
	}
	for _, a := range sc.activated {
		e := a.e
		d := stregex.NoDepth()
		if e.position == posDepth {
			if v, ok := e.depthOrDefault().(float64); ok {
				d = v
			}
		}
		sc.content[e.idx] = r.Apply(b.scripts, sc.content[e.idx], stregex.WorldInfo, d, false)
	}
}

// scriptLimits says which scripts' expressions ran past the bounds.
func scriptLimits(r *stregex.Runner) []string {
	var out []string
	for _, s := range r.Clock.Stopped() {
		out = append(out, fmt.Sprintf("regex script %s %s", s.Keyword, s.Explain()))
	}
	return out
}

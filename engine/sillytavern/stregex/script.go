// Package stregex runs SillyTavern's regex scripts (its Regex extension,
// public/scripts/extensions/regex/engine.js in release 1.18.0) on the texts
// the sillytavern engine sends: the chat before World Info scans it and as
// it is sent, and each World Info entry's content as it is placed. Scripts
// come in SillyTavern's own export shape — globally from
// settings.sillytavern.regexScripts, and from a card's
// extensions.regex_scripts — and every expression runs as JavaScript's
// RegExp (dlclark/regexp2 in ECMAScript mode) within the bounds of
// docs/security.md.
package stregex

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlclark/regexp2/v2"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/match"
)

// Placements: where a script applies (regex_placement).
const (
	UserInput    = 1
	AIOutput     = 2
	SlashCommand = 3
	WorldInfo    = 5
	Reasoning    = 6
)

// How the find expression takes macros (substitute_find_regex).
const (
	SubstituteNone    = 0
	SubstituteRaw     = 1
	SubstituteEscaped = 2
)

// Script is one regex script, its fields read with JavaScript's meanings.
type Script struct {
	Name         string
	Find         string   // findRegex: a /pattern/flags literal (ParseLiteral)
	Replace      string   // replaceString: $1, $<name>, {{match}}, macros
	Trim         []string // trimStrings, removed from each group's text
	Placement    []float64
	Disabled     bool
	MarkdownOnly bool // only for display: never in the prompt
	PromptOnly   bool
	Substitute   float64 // substituteRegex
	MinDepth     float64 // NaN: none
	MaxDepth     float64 // NaN: none
}

// Parse reads a list of scripts as SillyTavern exports them. What is not a
// list of objects is an error; within a script, SillyTavern's loose reading
// applies (truthy flags, numbers from strings), and a field of a type it
// cannot use is an error naming the script.
func Parse(v any, where string) ([]*Script, error) {
	if v == nil {
		return nil, nil
	}
	xs, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a list of regex scripts", where)
	}
	out := make([]*Script, 0, len(xs))
	for i, x := range xs {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] must be an object (a regex script)", where, i)
		}
		s := &Script{MinDepth: math.NaN(), MaxDepth: math.NaN()}
		s.Name, _ = m["scriptName"].(string)
		var bad []string
		str := func(k string, dst *string) {
			switch y := m[k].(type) {
			case nil:
			case string:
				*dst = y
			default:
				bad = append(bad, k+" must be a string")
			}
		}
		str("findRegex", &s.Find)
		str("replaceString", &s.Replace)
		switch y := m["trimStrings"].(type) {
		case nil:
		case []any:
			for _, t := range y {
				if ts, ok := t.(string); ok {
					s.Trim = append(s.Trim, ts)
				} else {
					bad = append(bad, "trimStrings must be a list of strings")
					break
				}
			}
		default:
			bad = append(bad, "trimStrings must be a list of strings")
		}
		switch y := m["placement"].(type) {
		case nil:
		case []any:
			for _, p := range y {
				if f, ok := p.(float64); ok {
					s.Placement = append(s.Placement, f) // includes() compares strictly
				}
			}
		default:
			bad = append(bad, "placement must be a list of numbers")
		}
		s.Disabled, s.MarkdownOnly, s.PromptOnly = formats.JSTruthy(m["disabled"]), formats.JSTruthy(m["markdownOnly"]), formats.JSTruthy(m["promptOnly"])
		s.Substitute = formats.JSNumber(m["substituteRegex"])
		s.MinDepth, s.MaxDepth = depth(m["minDepth"]), depth(m["maxDepth"])
		if len(bad) > 0 {
			name := s.Name
			if name == "" {
				name = fmt.Sprintf("#%d", i)
			}
			return nil, fmt.Errorf("%s: script %q: %s", where, name, strings.Join(bad, "; "))
		}
		out = append(out, s)
	}
	return out, nil
}

// depth is a min or max depth as SillyTavern tests it: null and what is not
// a number (isNaN) count as none.
func depth(v any) float64 {
	if v == nil {
		return math.NaN()
	}
	return formats.JSNumber(v)
}

// Applies says whether the script runs on a text of this placement sent in
// the prompt (getRegexedString with isPrompt): a prompt-only script (a
// markdown-only one also prompt-only included) — not a markdown-only one,
// which is for display, and not one without either flag, which runs when a
// message is written, not when it is sent. depth is NoDepth for a text
// without one (an entry not placed at a depth).
func (s *Script) Applies(placement int, depth float64) bool {
	if s.Disabled || !s.PromptOnly {
		return false
	}
	return s.inDepth(depth) && s.placed(placement)
}

// AppliesWritten says whether the script runs on a message as it is written
// (neither flag): SillyTavern stores the result, as with the greeting it
// opens a new chat with.
func (s *Script) AppliesWritten(placement int) bool {
	return !s.Disabled && !s.MarkdownOnly && !s.PromptOnly && s.placed(placement)
}

// AppliesPlain says whether a script with neither flag runs on a prompt
// text of this placement and depth, where a release runs such scripts
// there (Runner.Before118).
func (s *Script) AppliesPlain(placement int, depth float64) bool {
	return s.AppliesWritten(placement) && s.inDepth(depth)
}

func (s *Script) placed(placement int) bool {
	for _, p := range s.Placement {
		if p == float64(placement) {
			return true
		}
	}
	return false
}

func (s *Script) inDepth(d float64) bool {
	if math.IsNaN(d) {
		return true // no depth given
	}
	if !math.IsNaN(s.MinDepth) && s.MinDepth >= -1 && d < s.MinDepth {
		return false
	}
	if !math.IsNaN(s.MaxDepth) && s.MaxDepth >= 0 && d > s.MaxDepth {
		return false
	}
	return true
}

// NoDepth is the depth of a text that has none (getRegexedString's depth
// undefined, or not a number): min and max depth do not apply.
func NoDepth() float64 { return math.NaN() }

// Macros expands SillyTavern's macros in a text; Escaped does so with each
// macro's value escaped for a regular expression (substituteRegex 2). Nil
// functions leave texts as written.
type Macros struct {
	Expand  func(string) string
	Escaped func(string) string
}

func (m Macros) expand(s string) string {
	if m.Expand == nil {
		return s
	}
	return m.Expand(s)
}

// Runner runs scripts within one render's regular-expression clock, and
// keeps each find expression compiled.
type Runner struct {
	Clock  *match.RegexClock
	Macros Macros
	// Before118 runs the scripts as SillyTavern 1.12.6 did: scripts with
	// neither flag run on prompt texts too (getRegexedString had no
	// !isPrompt), substituteRegex is a yes or no (any truthy value expands
	// the macros as written), and $<name> is not a group but text.
	Before118 bool
	compiled  map[string]*compiled
}

type compiled struct {
	re     *regexp2.Regexp // nil: SillyTavern's regexFromString returns nothing
	global bool
	named  bool
}

// Apply runs, in order, the scripts that apply to a prompt text of this
// placement and depth (NoDepth for none); written says the text is a
// message as it is written rather than sent.
func (r *Runner) Apply(scripts []*Script, text string, placement int, depth float64, written bool) string {
	for _, s := range scripts {
		ok := s.Applies(placement, depth) || r.Before118 && s.AppliesPlain(placement, depth)
		if written {
			ok = s.AppliesWritten(placement)
		}
		if ok {
			text = r.Run(s, text)
		}
	}
	return text
}

// Run is runRegexScript: the script on one text, whatever its flags.
func (r *Runner) Run(s *Script, text string) string {
	if s.Disabled || s.Find == "" || text == "" {
		return text
	}
	find := s.Find
	sub := s.Substitute
	if r.Before118 && sub != 0 {
		sub = SubstituteRaw
	}
	switch sub {
	case SubstituteRaw:
		find = r.Macros.expand(find)
	case SubstituteEscaped:
		if r.Macros.Escaped != nil {
			find = r.Macros.Escaped(find)
		}
	}
	c := r.compile(find)
	if c.re == nil {
		return text
	}
	count := 1
	if c.global {
		count = -1
	}
	var out string
	err := r.Clock.Time("/"+c.re.String()+"/", func() error {
		var err error
		out, err = c.re.ReplaceFunc(text, func(m regexp2.Match) string { return r.replacement(s, c, &m, text) }, -1, count)
		return err
	})
	if err != nil {
		return text // stopped: SillyTavern's would still be running; the text is left as it is
	}
	return out
}

// replacement is what one match becomes: {{match}} is $0, each $n or
// $<name> the group's text (arguments past the groups are the match's
// offset, the whole text and the groups object, as JavaScript passes
// them) with the trim strings removed, "" for a group that did not take
// part, then the macros.
func (r *Runner) replacement(s *Script, c *compiled, m *regexp2.Match, text string) string {
	rep := replaceMatchMacro(s.Replace)
	groups := m.Groups()
	var b strings.Builder
	for i := 0; i < len(rep); i++ {
		if rep[i] != '$' || i+1 >= len(rep) {
			b.WriteByte(rep[i])
			continue
		}
		var val string
		var has bool
		switch j := i + 1; {
		case rep[j] >= '0' && rep[j] <= '9':
			k := j
			n := 0
			for k < len(rep) && rep[k] >= '0' && rep[k] <= '9' {
				if n < 1<<20 {
					n = n*10 + int(rep[k]-'0')
				}
				k++
			}
			val, has = arg(groups, c.named, n, m, text)
			i = k - 1
		case rep[j] == '<' && !r.Before118:
			end := strings.IndexByte(rep[j+1:], '>')
			if end <= 0 {
				b.WriteByte('$')
				continue
			}
			name := rep[j+1 : j+1+end]
			for _, g := range groups[1:] {
				if g.Name == name && len(g.Captures) > 0 {
					val, has = g.String(), true
				}
			}
			i = j + 1 + end
		default:
			b.WriteByte('$')
			continue
		}
		if has && val != "" {
			b.WriteString(r.trim(s, val))
		}
	}
	return r.Macros.expand(b.String())
}

// arg is the n-th argument of JavaScript's replace callback.
func arg(groups []regexp2.Group, named bool, n int, m *regexp2.Match, text string) (string, bool) {
	switch {
	case n < len(groups):
		g := groups[n]
		if n > 0 && len(g.Captures) == 0 {
			return "", false // undefined
		}
		return g.String(), true
	case n == len(groups):
		if m.RuneIndex == 0 {
			return "", false // 0 is falsy
		}
		return fmt.Sprint(m.RuneIndex), true
	case n == len(groups)+1:
		return text, true
	case n == len(groups)+2 && named:
		return "[object Object]", true
	}
	return "", false
}

// replaceMatchMacro turns {{match}} (any case) into $0.
func replaceMatchMacro(s string) string {
	const macro = "{{match}}"
	if !strings.Contains(strings.ToLower(s), macro) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+len(macro) <= len(s) && strings.EqualFold(s[i:i+len(macro)], macro) {
			b.WriteString("$0")
			i += len(macro)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func (r *Runner) trim(s *Script, v string) string {
	for _, t := range s.Trim {
		if t = r.Macros.expand(t); t != "" {
			v = strings.ReplaceAll(v, t, "")
		}
	}
	return v
}

// compile is RegexProvider.get: the literal parsed, then new RegExp, nil
// when either fails.
func (r *Runner) compile(find string) *compiled {
	if c, ok := r.compiled[find]; ok {
		return c
	}
	if r.compiled == nil {
		r.compiled = map[string]*compiled{}
	}
	c := &compiled{}
	r.compiled[find] = c
	pattern, flags, ok := ParseLiteral(find)
	if !ok {
		return c
	}
	re, global, err := Compile(pattern, flags)
	if err != nil {
		return c
	}
	c.re, c.global = re, global
	for _, n := range re.GetGroupNames() {
		if n != "" && (n[0] < '0' || n[0] > '9') {
			c.named = true
		}
	}
	return c
}

// Compile is new RegExp(pattern, flags) as far as regexp2's ECMAScript
// mode has JavaScript's semantics, with the match time limit of
// docs/security.md. Flags JavaScript does not know (x X U A J, which
// regexFromString lets through) make it fail, as RegExp throws.
func Compile(pattern, flags string) (*regexp2.Regexp, bool, error) {
	opts := regexp2.ECMAScript
	global := false
	for _, f := range flags {
		if o, ok := match.JSFlagOption(f); ok {
			opts |= o
			continue
		}
		if f != 'g' {
			return nil, false, fmt.Errorf("invalid flag %q", f)
		}
		global = true
	}
	re, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return nil, false, err
	}
	re.MatchTimeout = match.RegexMatchTime
	return re, global, nil
}

package sillytavern

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/tokenize"
)

// naiveMatch is SillyTavern's matchKeys written out on the joined window:
// lower-case both sides unless case-sensitive, then includes() — or, for a
// one-word key with whole words on, /(?:^|\W)key(?:$|\W)/ with ASCII \W.
func naiveMatch(window, key string, cs, whole bool) bool {
	if !cs {
		window, key = match.JSLower(window), match.JSLower(key)
	}
	if !whole || hasJSSpace(key) {
		return strings.Contains(window, key)
	}
	re := regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + regexp.QuoteMeta(key) + `(?:$|[^A-Za-z0-9_])`)
	return re.MatchString(window)
}

// FuzzKeyMatch checks the scan's matching — each text scanned once, a key
// found in a window when a text of the window has it — against SillyTavern's
// own way, the key looked for in the joined window.
func FuzzKeyMatch(f *testing.F) {
	f.Add("Long live the king!|Meet me at the café.", "king", 2, false, true)
	f.Add("It's not to my liking.|x", "kin", 2, false, true)
	f.Add("the caf\u00e9|y", "caf", 1, false, true)
	f.Add("ΟΔΟΣ|Σ", "οδος", 1, false, false)
	f.Add("İstanbul", "i̇stanbul", 1, false, true)
	f.Add("red dragon|blue", "d d", 3, true, true)
	f.Add("a_b|a-b", "a", 2, false, true)
	f.Add("K-pop", "k", 1, false, true)
	f.Fuzz(func(t *testing.T, chat, key string, depth int, cs, whole bool) {
		key = jsTrim(key)
		// A key that starts with the combining dot İ lowers to (i + U+0307)
		// can start inside İ's lower case, where the scan, told offsets in the
		// original text, sees no letter before it (docs/engines.md).
		if r, _ := utf8.DecodeRuneInString(key); r == '\u0307' {
			return
		}
		if !utf8.ValidString(key) || !utf8.ValidString(chat) || key == "" || parseRegex(key) != nil || strings.ContainsRune(key, '\x01') {
			return
		}
		msgs := strings.Split(chat, "|")
		if len(msgs) > 6 {
			msgs = msgs[:6]
		}
		for i := range msgs {
			msgs[i] = jsTrim(msgs[i])
		}
		depth = depth%8 - 1
		s := DefaultSettings()
		s.ScanDepth = float64(depth)
		s.CaseSensitive, s.MatchWholeWords = cs, whole
		e := &entry{keys: []string{key}, keysArray: true}
		m := newMacros("User", "Character", nil)
		ks := newKeySet([]*entry{e}, &s, m)
		counter, _ := tokenize.Get(tokenize.Chars4)
		sc := newScan(&s, []*entry{e}, ks, msgs, nil, nil, m, counter, 8192)
		got := sc.hit(ks.primary[0][0], e, stateInitial)
		want := false
		if depth > 0 {
			window := matcher + strings.Join(msgs[:min(depth, len(msgs))], joiner)
			want = naiveMatch(window, key, cs, whole)
		}
		if got != want {
			t.Fatalf("key %q in %q (depth %d, case-sensitive %v, whole words %v): the scan says %v, SillyTavern's way %v",
				key, msgs, depth, cs, whole, got, want)
		}
	})
}

// FuzzParsers: decorators, regular-expression keys and macros take any text.
func FuzzParsers(f *testing.F) {
	f.Add("@@activate\n@@@dont_activate\nText {{user}} {{// x}} {{trim}}")
	f.Add("/(a|b)+\\/c/gimsuy")
	f.Add("{{reverse:{{char}}}} <USER> {{newline}}")
	m := newMacros("Tom", "Aria", map[string]string{"description": "{{char}}"})
	f.Fuzz(func(t *testing.T, s string) {
		// Decorator lines are cut from the front: what is left ends the text.
		if _, content := parseDecorators(s); !strings.HasSuffix(s, content) {
			t.Fatalf("%q: the content %q is not what follows its decorator lines", s, content)
		}
		if re := parseRegex(s); re != nil {
			re.test(s, nil)
		}
		m.expand(s)
	})
}

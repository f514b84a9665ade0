package formats

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// TestEWIPart: an EWIJSON key of text, groups and | is the texts it
// matches; other regular-expression syntax, or an alternative whose spaces
// are meant, stays a /regex/i keyword.
func TestEWIPart(t *testing.T) {
	for _, tc := range []struct {
		key   string
		alts  []string
		regex string
	}{
		{"Karth River", []string{"Karth River"}, ""},
		{"(Throat of the World|Snow Throat)", []string{"Throat of the World", "Snow Throat"}, ""},
		{"(Jerall(s| Mountains))", []string{"Jeralls", "Jerall Mountains"}, ""},
		{"Dragon('s |)tail Mountains", []string{"Dragon's tail Mountains", "Dragontail Mountains"}, ""},
		{"(Palace of (the |)Kings)", []string{"Palace of the Kings", "Palace of Kings"}, ""},
		{"(Dragonsreach)", []string{"Dragonsreach"}, ""},
		{"a|b|a", []string{"a", "b"}, ""},
		{`\you`, []string{"you"}, ""},
		// The space before "religion" is part of what matches: a regex.
		{"((ancient |)nord|) religion", nil, "/((ancient |)nord|) religion/i"},
		{"(stick|)", nil, "/(stick|)/i"},
		{`\bwolf\b`, nil, `/\bwolf\b/i`},
		{"colou?r", nil, "/colou?r/i"},
		{"(a|b)(c|d)(e|f)(g|h)(i|j)(k|l)", nil, "/(a|b)(c|d)(e|f)(g|h)(i|j)(k|l)/i"}, // 64 > 32
		{"(unclosed", nil, "/(unclosed/i"},
		{"a/b", nil, "/a/b/i"},
	} {
		got := parseEWIPart(tc.key)
		if !slices.Equal(got.alts, tc.alts) || got.regex != tc.regex {
			t.Errorf("%q: alts %q regex %q, want %q %q", tc.key, got.alts, got.regex, tc.alts, tc.regex)
		}
	}
}

// TestEWIImport: an entry with attributes gets EWIJSON's keys (the first
// part's alternatives, the other parts all required); the loss report says
// so; a key written as alternatives without attributes is matched as text
// by AI Dungeon, and import says it never fires.
func TestEWIImport(t *testing.T) {
	src := `[
{"id": "7.17", "keys": "(Throat of the World|Snow Throat)#[t=4l=5f=2S=2]", "entry": "A peak.", "hidden": false},
{"id": "9.1", "keys": "\\you, (wield|equip), (branch|stick),#[p=1]", "entry": "A stick.", "hidden": false},
{"id": "13.1", "keys": "((ancient |)nord|) religion#[t=5]", "entry": "Totems.", "hidden": false},
{"id": "2.1", "keys": "(Snow|Ice) Giant", "entry": "Big.", "hidden": false}]`
	lb, ds, err := Convert("wi.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, name        string
		keys, secondary []string
		logic           string
	}{
		{"throat-of-the-world", "Throat of the World", []string{"Throat of the World", "Snow Throat"}, nil, schema.AndAny},
		{"you", "you", []string{"you"}, []string{"/(wield|equip)/i", "/(branch|stick)/i"}, schema.AndAll},
		{"ancient-nord-religion", "((ancient |)nord|) religion", []string{"/((ancient |)nord|) religion/i"}, nil, schema.AndAny},
		{"snow-ice-giant", "(Snow|Ice) Giant", []string{"(Snow|Ice) Giant"}, nil, schema.AndAny},
	}
	for i, w := range want {
		e := lb.Entries[i]
		if e.ID != w.id || e.Name != w.name || !slices.Equal(keywordTexts(e.Keywords), w.keys) ||
			!slices.Equal(keywordTexts(e.SecondaryKeywords), w.secondary) || e.SecondaryKeywordLogic != w.logic {
			t.Errorf("entry %d: %s %q %q %q %s, want %+v", i, e.ID, e.Name, keywordTexts(e.Keywords), keywordTexts(e.SecondaryKeywords), e.SecondaryKeywordLogic, w)
		}
	}
	warned := false
	for _, d := range ds {
		if d.Severity == diag.Warning && strings.Contains(d.Message, `key "(Snow|Ice) Giant" is written as alternatives`) && d.Line == 5 {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning for the key without attributes: %v", ds)
	}
	var changed []string
	for _, l := range ImportReport(lb).Losses {
		if l.Field == "keys" && l.Kind == LossChanged {
			changed = append(changed, l.Entry+": "+l.Value+" → "+l.Target)
		}
	}
	wantChanged := []string{
		"throat-of-the-world: (Throat of the World|Snow Throat) → Throat of the World, Snow Throat",
		`you: \you, (wield|equip), (branch|stick) → you + all of /(wield|equip)/i, /(branch|stick)/i`,
		"ancient-nord-religion: ((ancient |)nord|) religion → /((ancient |)nord|) religion/i",
	}
	if !slices.Equal(changed, wantChanged) {
		t.Errorf("changed keys reported:\n%s\nwant\n%s", strings.Join(changed, "\n"), strings.Join(wantChanged, "\n"))
	}
}

// FuzzEWIPart: any key reads without a panic into at most
// maxEWIAlternatives texts, each of which the key, as a regular expression,
// matches whole; else a /regex/i keyword of the key.
func FuzzEWIPart(f *testing.F) {
	for _, s := range []string{"(a|b)", "((ancient |)nord|) religion", "Dragon('s |)tail", "((((((x))))))", "(|)", "a||b", "(a|b)(c|d)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		p := parseEWIPart(key)
		if !utf8.ValidString(key) {
			return // a JSON string is UTF-8; only the lack of a panic counts here
		}
		if p.alts == nil {
			if p.regex != "/"+strings.TrimSpace(key)+"/i" && !strings.HasPrefix(strings.TrimSpace(key), `\`) {
				t.Fatalf("%q: regex %q", key, p.regex)
			}
			return
		}
		if len(p.alts) > maxEWIAlternatives {
			t.Fatalf("%q: %d alternatives", key, len(p.alts))
		}
		re, err := regexp.Compile(`^(?:` + strings.TrimPrefix(strings.TrimSpace(key), `\`) + `)$`)
		if err != nil {
			t.Fatalf("%q expanded to %q but does not compile: %v", key, p.alts, err)
		}
		for _, a := range p.alts {
			if !re.MatchString(a) {
				t.Fatalf("%q expanded to %q, which it does not match", key, a)
			}
		}
	})
}

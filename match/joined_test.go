package match

import (
	"strings"
	"testing"
)

func TestSplitJoined(t *testing.T) {
	for _, tc := range []struct{ kw, want, sep string }{
		{"曹操，荀彧，曹仁", "曹操|荀彧|曹仁", "，"},
		{"刘备、关羽", "刘备|关羽", "、"},
		{"Shu; Han", "Shu|Han", ";"},
		{"axe|hatchet", "axe|hatchet", "|"},
		{"sword, blade, knife", "sword|blade|knife", ","},
		{"sword, blade", "sword|blade", ","},
		{"Ringwood, Hampshire", "", ""},
		{"Henry John Temple, 3rd Viscount Palmerston", "", ""},
		{"1,000 ships", "", ""},
		{"(Throat of the World|Snow Throat)", "", ""},
		{"/sword|blade/i", "", ""},
		{"dragon", "", ""},
		{"dragon,", "", ""},
		{"a，", "", ""},
	} {
		parts, sep := SplitJoined(tc.kw)
		if got := strings.Join(parts, "|"); got != tc.want || sep != tc.sep {
			t.Errorf("SplitJoined(%q) = %q, %q; want %q, %q", tc.kw, got, sep, tc.want, tc.sep)
		}
	}
}

// mayJoin's quick no never hides a list.
func FuzzMayJoin(f *testing.F) {
	for _, s := range []string{"a, b, c", "甲、乙", "甲，乙", "a；b", "a｜b", "a|b|c", "plain", "1,000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kw string) {
		if parts, _ := splitJoined(kw); parts != nil && !mayJoin(kw) {
			t.Fatalf("mayJoin(%q) = false, but it is the list %q", kw, parts)
		}
	})
}

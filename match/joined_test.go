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

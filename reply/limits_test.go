package reply

import "testing"

func TestParseLimit(t *testing.T) {
	for _, tc := range []struct {
		s        string
		w        where
		typeName string
		want     string // "" for no limit
	}{
		{"具体描述角色当前衣着，最多20字", inFill, "", "at most 20 characters"},
		{"具体描述，不低于40字，不超过60字", inFill, "", "40 to 60 characters"},
		{"一果对商品的评论，不超过10个字", inFill, "", "at most 10 characters"},
		{"少于20字", inFill, "", "at most 19 characters"},
		{"超过５字", inFill, "", "at least 6 characters"},
		{"30字以内", inFill, "", "at most 30 characters"},
		{"10~20字", inFill, "", "10 to 20 characters"},
		{"at most 20 characters", inFill, "", "at most 20 characters"},
		{"between 3 and 5 words", inFill, "", "3 to 5 words"},
		{"no more than 12 words", inFill, "", "at most 12 words"},
		{"fewer than 10 chars", inFill, "", "at most 9 characters"},
		{"exactly 4 words", inFill, "", "exactly 4 words"},
		{"write 5 words", inFill, "", ""},
		{"the 20 knights", inFill, "", ""},
		{"约会模拟次数", inFill, "", ""},
		{"最多3个选项", inFill, "", ""}, // a count in a description: nothing to count in one text
		{"generate {{random::4::5::6}} options based on `option type` below", inRepeat, "", "4, 5 or 6 items"},
		{"生成5~6个选项", inRepeat, "", "5 to 6 items"},
		{"generate 4-6 options", inRepeat, "", "4 to 6 items"},
		{"生成5个选项", inRepeat, "", "exactly 5 items"},
		{"each at most 20 characters", inRepeat, "", ""},
		{"以JSON格式输出Chat[]，包含不少于10个Chat，不多于15个Chat", inJSON, "Chat", "10 to 15 items"},
		{"at least 3 items", inJSON, "Chat", "at least 3 items"},
		{"at least 3 apples", inJSON, "Chat", ""},
		{"最多10字，至少20字", inFill, "", ""}, // contradictory: not decided
	} {
		l := parseLimit(tc.s, tc.w, tc.typeName)
		got := ""
		if l != nil {
			got = l.want() + " " + l.unit.String()
		}
		if got != tc.want {
			t.Errorf("parseLimit(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestLimitPhrasePosition(t *testing.T) {
	s := "具体描述，不低于40字，不超过60字"
	l := parseLimit(s, inFill, "")
	if l == nil || s[l.at:] != "不低于40字，不超过60字" || l.phrase != "不低于40字, 不超过60字" {
		t.Errorf("limit %+v: want it to start at 不低于", l)
	}
}

package lore

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

func TestSizeUp(t *testing.T) {
	c, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	entry := func(id, section, content string, always bool) *schema.Entry {
		return &schema.Entry{ID: id, Name: id, Section: section, Content: content, Enabled: true,
			AlwaysSend: always, Role: "lore", APIRole: "system", ConditionLogic: "all", SecondaryKeywordLogic: schema.AndAny}
	}
	book := &schema.Lorebook{Format: "lore", Manifest: schema.Manifest{Name: "t"}, Entries: []*schema.Entry{
		entry("rules", schema.SectionSystemPresets, strings.Repeat("rule", 800), true), // 800 tokens
		entry("note", schema.SectionPostHistory, strings.Repeat("note", 100), true),    // 100
		entry("small", schema.SectionChatHistory, strings.Repeat("smal", 50), false),
		entry("huge", schema.SectionChatHistory, strings.Repeat("huge", 300), false),
		entry("off", schema.SectionChatHistory, "x", false),
	}}
	book.Entries[4].Enabled = false
	s := schema.DefaultSettings()
	s.ContextTokens, s.ResponseReserve = 1000, 0 // cap 700
	sz := SizeUp(&render.Input{Book: book, Settings: s, Counter: c})
	// 900 of entries + 5 of the [Start a new Chat] marker.
	if sz.RequiredTotal != 905 || sz.RequiredCap != 700 {
		t.Errorf("Required %d of cap %d, want 905 of 700", sz.RequiredTotal, sz.RequiredCap)
	}
	// Over the cap, Required uses 700: R = 300, cards share 75.
	if sz.Remainder != 300 || sz.CardsShare != 75 || sz.Window != 4 {
		t.Errorf("R %d, cards share %d, window %d; want 300, 75, 4", sz.Remainder, sz.CardsShare, sz.Window)
	}
	if len(sz.Cards) != 2 || sz.Cards[0].Over || !sz.Cards[1].Over || sz.Cards[1].Tokens != 300 {
		t.Errorf("cards %+v: want small in budget, huge over", sz.Cards)
	}
	if p := sz.Report.Section(render.SecSystemPresets); !p.Cut {
		t.Errorf("system-presets %+v: want cut at the cap", p)
	}
}

package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lorekit/lore/schema"
)

// checkRequiredOverCap reports a lorebook whose always-sent (Required) pieces are
// larger than the Required cap: every prompt then cuts or drops some of them, in
// SPEC §4's priority order, before a single chat message is added. The message
// names the largest always-sent entries, which are where the tokens are.
func checkRequiredOverCap(c *Context) {
	if c.Engine.NoRequiredCap || c.noRoom() || !c.measured() {
		return // no Required part to be over, or no room at all (the schema error says so)
	}
	if c.fitsByBytes() {
		return
	}
	sz := c.sizing()
	if sz.RequiredTotal <= sz.RequiredCap {
		return
	}
	s := c.Settings
	type big struct {
		id string
		n  int
	}
	var bigs []big
	for _, e := range c.Book.Entries {
		if e.Enabled && e.AlwaysSend && e.Section != schema.SectionChatHistory {
			bigs = append(bigs, big{entryName(e), c.shared.counter.Count(e.Content)})
		}
	}
	sort.SliceStable(bigs, func(i, j int) bool { return bigs[i].n > bigs[j].n })
	var names []string
	for i, b := range bigs {
		if i == 3 || b.n == 0 {
			break
		}
		names = append(names, fmt.Sprintf("%s with %d tokens", b.id, b.n))
	}
	largest := ""
	if len(names) > 0 {
		largest = "; largest: " + strings.Join(names, ", ")
	}
	c.Report(nil, c.manifestPos("contextTokens"),
		"always-sent (Required) pieces take %d tokens, over the Required cap of %d (%.0f%% of the %d tokens left of %s after the %d-token response reserve), so some are cut or left out of every prompt%s; shorten them, make some keyword-activated, or raise contextTokens",
		sz.RequiredTotal, sz.RequiredCap, s.RequiredCap*100, s.Available(), c.contextSays(), s.ResponseReserve, largest)
}

// manifestPos points at a manifest setting, else the manifest, else the first
// entry (a bare list of entries has no manifest).
func (c *Context) manifestPos(setting string) schema.Pos {
	if p, ok := c.Book.Manifest.Settings.Fields[setting]; ok {
		return p
	}
	if p, ok := c.Book.Manifest.Fields["settings"]; ok {
		return p
	}
	if c.Book.Manifest.Pos.File != "" {
		return c.Book.Manifest.Pos
	}
	if len(c.Book.Entries) > 0 {
		return c.Book.Entries[0].Pos
	}
	return schema.Pos{File: c.Book.Path}
}

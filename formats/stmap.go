package formats

import (
	"slices"

	"github.com/lorekit/lore/schema"
)

// SillyTavern's numbers (SPEC §8, from its world-info.js).
const (
	stBeforeChar    = 0
	stAfterChar     = 1
	stANTop         = 2
	stANBottom      = 3
	stAtDepth       = 4
	stBeforeExample = 5
	stAfterExample  = 6
	stOutlet        = 7

	stDefaultDepth = 4
	stDefaultOrder = 100
)

var stLogic = []string{schema.AndAny, schema.NotAll, schema.NotAny, schema.AndAll}
var stRoles = []string{"system", "user", "assistant"}

// stView is one world-info entry seen through SillyTavern's field meanings,
// whichever file it came from: an ST world-info entry, or a character-book
// entry whose extensions carry ST's fields in snake_case. Nil means absent.
type stView struct {
	obj                                   *jnode
	key, keysecondary, comment, content   *jnode
	constant, selective, selectiveLogic   *jnode
	order, position, disable, depth, role *jnode
	excludeRecursion, preventRecursion    *jnode
	matchWholeWords                       *jnode
	enabledInverse                        bool // disable is really "enabled" (cards)
}

// stResult says which source fields the mapping consumed, so the caller keeps
// only the others under extensions.
type stResult struct {
	entry    *schema.Entry
	consumed *consumed
}

// consumed is the set of source values a mapping turned into lore fields:
// a dozen at most, so a list, not a map per entry.
type consumed struct{ nodes []*jnode }

func (c *consumed) use(n *jnode) *jnode {
	if n != nil {
		c.nodes = append(c.nodes, n)
	}
	return n
}

// has says whether the mapping consumed n.
func (c *consumed) has(n *jnode) bool { return slices.Contains(c.nodes, n) }

// stPlace is where an ST position puts an entry in lore.
type stPlace struct {
	section, apiRole, role string
	depth                  *int
	outlet                 bool
}

// mapST converts v into a lore entry. The decisions are documented in
// docs/formats.md ("SillyTavern"); keep them in step.
func (im *importer) mapST(v stView, fallbackID string) stResult {
	used := &consumed{nodes: make([]*jnode, 0, 16)}
	p := stPlacement(v, used)
	e := im.newEntry(v.obj, p.section)
	e.Role, e.APIRole, e.Depth = p.role, p.apiRole, p.depth
	if p.depth != nil {
		im.field(e, "depth", v.depth)
	}
	e.AlwaysSend, _ = v.constant.boolOf()
	im.field(e, "alwaysSend", used.use(v.constant))
	if v.constant == nil {
		e.Fields["alwaysSend"] = e.Pos // explicit in lore's terms: ST's default is "not constant"
	}
	// SillyTavern tests `entry.disable == true`: 1 and "1" disable an
	// entry too; 2, "true" and "" do not. A card's entry has `enabled`,
	// which SillyTavern's import turns into disable = !enabled.
	disabled := jsLooseTrue(v.disable.value())
	if en, ok := v.disable.boolOf(); ok && v.enabledInverse {
		disabled = !en
	} else if v.enabledInverse && v.disable != nil {
		disabled = !jsTruthy(v.disable.value()) // a card's enabled: SillyTavern takes !entry.enabled
	}
	e.Enabled = !disabled && !p.outlet
	if !p.outlet {
		im.field(e, "enabled", used.use(v.disable))
	}
	e.Position = stDefaultOrder
	if im.setInt(e, &e.Position, "position", v.order) {
		used.use(v.order)
	}
	im.content(e, used.use(v.content))
	im.stKeywords(e, v, used)
	for _, f := range []struct {
		dst   *bool
		field string
		n     *jnode
	}{
		{&e.ExcludeRecursion, "excludeRecursion", v.excludeRecursion},
		{&e.PreventRecursion, "preventRecursion", v.preventRecursion},
		{&e.MatchWholeWords, "matchWholeWords", v.matchWholeWords},
	} {
		// matchWholeWords: only true maps. Null means "the global setting"
		// and false is lore's default but not ST's (whose default is that
		// setting, shipped on): both stay under extensions, so that export
		// and the sillytavern engine read them again after a lore file.
		if b, _ := f.n.boolOf(); f.field == "matchWholeWords" && !b {
			continue
		}
		if im.setBool(e, f.dst, f.field, f.n) {
			used.use(f.n)
		}
	}
	comment := im.name(e, v.comment)
	if comment != "" {
		used.use(v.comment)
	}
	e.ID = im.entryID(comment, e.Keywords, fallbackID)
	return stResult{entry: e, consumed: used}
}

// stPlacement reads ST's position (and depth and role where they mean
// something) as lore's section, depth, apiRole and role.
func stPlacement(v stView, used *consumed) stPlace {
	p := stPlace{section: schema.SectionChatHistory, apiRole: "system", role: "lore"}
	position := stBeforeChar
	if n, ok := intOf(v.position); ok {
		position = n
	}
	switch position {
	case stBeforeChar, stAfterChar:
		// Keyword-triggered world info placed around the character
		// definitions: lore's story cards in the triggered block (depth null).
	case stANTop, stANBottom:
		p.section = schema.SectionPostHistory
	case stBeforeExample, stAfterExample:
		p.section, p.role = schema.SectionExamples, "example"
	case stAtDepth:
		if r, ok := intOf(v.role); ok && r >= 0 && r < len(stRoles) {
			p.apiRole = stRoles[r]
			used.use(v.role)
		} // a null role (ST: system) stays under extensions, so export writes null again
		depth := stDefaultDepth
		if d, ok := intOf(v.depth); ok {
			depth = d
		}
		if depth <= 0 {
			// ST depth 0 is after the newest message; lore's chat-history
			// cannot go there, post-history (step 13) does.
			p.section = schema.SectionPostHistory
		} else {
			d := depth - 1 // ST depth d is before lore's message d-1 counted back
			p.depth = &d
			used.use(v.depth)
		}
	case stOutlet:
		// Reached only through {{outlet::name}}, which lore does not
		// expand: imported disabled; disable stays kept for export.
		p.outlet = true
	}
	return p
}

// stKeywords maps key, keysecondary and selectiveLogic. Secondary keys of
// an entry with selective: false are inactive in ST as in lore: they stay
// kept for export, as does an unknown logic number (lore uses AND_ANY).
func (im *importer) stKeywords(e *schema.Entry, v stView, used *consumed) {
	e.Keywords = im.commaKeywords(used.use(v.key)) // very old files have "key": "a, b"
	if len(e.Keywords) > 0 {
		im.field(e, "keywords", v.key)
	}
	selective := true // ST's default for a missing field
	if b, ok := v.selective.boolOf(); ok {
		selective = b
	}
	sec := im.commaKeywords(v.keysecondary)
	switch {
	case len(sec) > 0 && selective:
		used.use(v.keysecondary)
		e.SecondaryKeywords = sec
		im.field(e, "secondaryKeywords", v.keysecondary)
		if l, ok := intOf(v.selectiveLogic); ok && l >= 0 && l < len(stLogic) {
			e.SecondaryKeywordLogic = stLogic[l]
			used.use(v.selectiveLogic)
			im.field(e, "secondaryKeywordLogic", v.selectiveLogic)
		}
	case len(sec) == 0 && v.keysecondary.is(jArr):
		used.use(v.keysecondary)
		if l, ok := intOf(v.selectiveLogic); ok && l == 0 {
			used.use(v.selectiveLogic)
		}
	}
}

package formats

import (
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
	consumed map[*jnode]bool
}

// mapST converts v into a lore entry. The decisions are documented in
// docs/formats.md ("SillyTavern"); keep them in step.
func (im *importer) mapST(v stView, fallbackID string) stResult {
	used := map[*jnode]bool{}
	use := func(n *jnode) *jnode {
		if n != nil {
			used[n] = true
		}
		return n
	}
	position := stBeforeChar
	if p, ok := intOf(v.position); ok {
		position = p
	}
	depth := stDefaultDepth
	if d, ok := intOf(v.depth); ok {
		depth = d
	}
	constant, _ := v.constant.boolOf()
	disabled, _ := v.disable.boolOf()
	if v.enabledInverse {
		if en, ok := v.disable.boolOf(); ok {
			disabled = !en
		}
	}

	section := schema.SectionChatHistory
	var lDepth *int
	apiRole := "system"
	role := "lore"
	outlet := false
	switch position {
	case stBeforeChar, stAfterChar:
		// Keyword-triggered world info placed around the character
		// definitions: lore's story cards in the triggered block (depth null).
	case stANTop, stANBottom:
		section = schema.SectionPostHistory
	case stBeforeExample, stAfterExample:
		section = schema.SectionExamples
		role = "example"
	case stAtDepth:
		if r, ok := intOf(v.role); ok && r >= 0 && r < len(stRoles) {
			apiRole = stRoles[r]
			use(v.role)
		} // a null role (ST: system) stays under extensions, so export writes null again
		if depth <= 0 {
			// ST depth 0 is after the newest message; lore's chat-history
			// cannot go there, post-history (step 13) does.
			section = schema.SectionPostHistory
		} else {
			d := depth - 1 // ST depth d is before lore's message d-1 counted back
			lDepth = &d
			use(v.depth)
		}
	case stOutlet:
		// Reached only through {{outlet::name}}, which lore does not
		// expand: imported disabled; disable stays kept for export.
		outlet = true
	}

	e := im.newEntry(v.obj, section)
	e.Role = role
	e.APIRole = apiRole
	e.Depth = lDepth
	if lDepth != nil {
		im.field(e, "depth", v.depth)
	}
	e.AlwaysSend = constant
	im.field(e, "alwaysSend", use(v.constant))
	if v.constant == nil {
		e.Fields["alwaysSend"] = e.Pos // explicit in lore's terms: ST's default is "not constant"
	}
	e.Enabled = !disabled && !outlet
	if !outlet {
		im.field(e, "enabled", use(v.disable))
	}
	e.Position = stDefaultOrder
	if im.setInt(e, &e.Position, "position", v.order) {
		use(v.order)
	}
	im.content(e, use(v.content))
	e.Keywords = im.commaKeywords(use(v.key)) // very old files have "key": "a, b"
	if len(e.Keywords) > 0 {
		im.field(e, "keywords", v.key)
	}
	selective := true // ST's default for a missing field
	if b, ok := v.selective.boolOf(); ok {
		selective = b
	}
	if sec := im.commaKeywords(v.keysecondary); len(sec) > 0 {
		if selective {
			use(v.keysecondary)
			e.SecondaryKeywords = sec
			im.field(e, "secondaryKeywords", v.keysecondary)
			if l, ok := intOf(v.selectiveLogic); ok {
				if l >= 0 && l < len(stLogic) {
					e.SecondaryKeywordLogic = stLogic[l]
					use(v.selectiveLogic)
					im.field(e, "secondaryKeywordLogic", v.selectiveLogic)
				} // else AND_ANY; the unknown number stays kept for export

			}
		} // else inactive in SillyTavern as in lore: kept for export
	} else if v.keysecondary.is(jArr) {
		use(v.keysecondary)
		if l, ok := intOf(v.selectiveLogic); ok && l == 0 {
			use(v.selectiveLogic)
		}
	}
	// A null matchWholeWords means "the global setting"; it stays under
	// extensions so export can write null again.
	for _, f := range []struct {
		dst   *bool
		field string
		n     *jnode
	}{
		{&e.ExcludeRecursion, "excludeRecursion", v.excludeRecursion},
		{&e.PreventRecursion, "preventRecursion", v.preventRecursion},
		{&e.MatchWholeWords, "matchWholeWords", v.matchWholeWords},
	} {
		if im.setBool(e, f.dst, f.field, f.n) {
			use(f.n)
		}
	}
	comment := im.name(e, v.comment)
	if comment != "" {
		use(v.comment)
	}
	e.ID = im.entryID(comment, e.Keywords, fallbackID)
	return stResult{entry: e, consumed: used}
}

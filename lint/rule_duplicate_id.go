package lint

import "github.com/lorekit/lore/schema"

// checkDuplicateID reports every entry after the first that reuses an id, pointing
// at the first. (When the loader already reported duplicates, the engine keeps the
// loader's findings and drops these, so each is reported once.)
//
// A book whose loader found its ids unique is not looked at again: one map
// of every id is the rule's whole cost, and the answer is known.
func checkDuplicateID(c *Context) {
	if c.Book.UniqueIDs {
		return
	}
	first := make(map[string]*schema.Entry, len(c.Book.Entries))
	for _, e := range c.Book.Entries {
		if e.ID == "" {
			continue // a missing id is a schema error
		}
		f, ok := first[e.ID]
		if !ok {
			first[e.ID] = e
			continue
		}
		c.Report(e, e.FieldPos("id"), "duplicate id %q: the first entry with this id is at %s; give each entry its own id",
			e.ID, lineOf(f.FieldPos("id")))
	}
}

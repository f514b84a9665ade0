package lint

import "github.com/lorekit/lore/schema"

// variable is what lint knows of a variable: declared in the manifest, given in
// the variables file, and its type (declared, else inferred from the given value;
// "" when neither says).
type variable struct {
	declared, given bool
	typ             string
}

func (c *Context) variable(id string) variable {
	if c.shared.declared == nil {
		// Indexed once: conditions × variables would grow quadratically.
		c.shared.declared = make(map[string]string, len(c.Book.Manifest.Variables))
		for _, d := range c.Book.Manifest.Variables {
			if _, dup := c.shared.declared[d.ID]; !dup {
				c.shared.declared[d.ID] = d.Type
			}
		}
	}
	var v variable
	if typ, ok := c.shared.declared[id]; ok {
		v.declared, v.typ = true, typ
	}
	if c.Vars != nil {
		if val, ok := c.Vars.Values[id]; ok {
			v.given = true
			if v.typ == "" {
				v.typ = schema.TypeOf(val)
			}
		}
	}
	return v
}

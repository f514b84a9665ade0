package lint

// variable is what lint knows of a variable: declared in the manifest, given in
// the variables file, and its type (declared, else inferred from the given value;
// "" when neither says).
type variable struct {
	declared, given bool
	typ             string
}

func (c *Context) variable(id string) variable {
	var v variable
	if d := c.Book.Manifest.Variable(id); d != nil {
		v.declared, v.typ = true, d.Type
	}
	if c.Vars != nil {
		if val, ok := c.Vars.Values[id]; ok {
			v.given = true
			if v.typ == "" {
				v.typ = typeOf(val)
			}
		}
	}
	return v
}

// typeOf is the variable type a decoded value has.
func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, int:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return ""
}

package lint

import (
	"fmt"
	"reflect"

	"github.com/lorekit/lore/schema"
)

// verifyFix parses the fixed text and checks that it holds exactly what the
// original held with the planned changes: the same values everywhere else,
// at any depth.
func verifyFix(path string, orig, out []byte, plan []entryPlan) error {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%s: --fix would change more than it means to (%s); nothing was written. Please report this as a lore bug", path, fmt.Sprintf(format, args...))
	}
	a, err := schema.ParseBytes(path, orig)
	if err != nil {
		return err
	}
	b, err := schema.ParseBytes(path, out)
	if err != nil {
		return refuse("the fixed text does not parse: %v", err)
	}
	want, got := schema.ToValue(a), schema.ToValue(b)
	entries := entryValues(want)
	if len(entries) != len(plan) {
		return refuse("%d entries in the text, %d loaded", len(entries), len(plan))
	}
	for i, m := range entries {
		p := plan[i]
		if p.id != "" {
			m["id"] = p.id
		}
		if p.name != "" {
			m["name"] = p.name
		}
		for field, list := range map[string][]string{"keywords": p.keywords, "secondaryKeywords": p.secondary} {
			if list != nil {
				vs := make([]any, len(list))
				for j, s := range list {
					vs[j] = s
				}
				m[field] = vs
			}
		}
	}
	if !reflect.DeepEqual(want, got) {
		return refuse("the values differ from the planned ones")
	}
	return nil
}

// entryValues finds the entries in a file's value tree: the list under
// entries, a bare list, or the file itself when it is one entry.
func entryValues(v any) []map[string]any {
	var list []any
	switch x := v.(type) {
	case []any:
		list = x
	case map[string]any:
		if es, ok := x["entries"].([]any); ok {
			list = es
		} else if _, ok := x["id"]; ok {
			return []map[string]any{x}
		}
	}
	var out []map[string]any
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

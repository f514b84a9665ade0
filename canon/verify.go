package canon

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
	"gopkg.in/yaml.v3"
)

// The safety check of lore fmt: a formatted file must say what the original
// said, value by value, comment by comment and once loaded.

// verify checks that out says what orig says: the same values (every
// key, at any depth, order aside), the same comments, and the same lorebook
// once loaded. It returns a *RefusalError naming the first difference.
// parsed, when not nil, is orig already parsed by the caller.
func verify(path string, orig, out []byte, parsed *schema.Doc) error {
	refuse := func(format string, args ...any) error {
		return &RefusalError{File: path, Msg: "formatting would change the file (" + fmt.Sprintf(format, args...) + "); nothing was written. Please report this as a lore fmt bug"}
	}
	// Each text is parsed once: its tree gives the values, then the lorebook.
	da := parsed // orig as the caller parsed it, when it did
	if da == nil {
		var err error
		if da, err = schema.ParseDoc(path, orig); err != nil {
			return err
		}
	}
	db, err := schema.ParseDoc(path, out)
	if err != nil {
		return refuse("the formatted text does not parse: %v", err)
	}
	a, b := da.Root, db.Root
	if d := firstValueDiff(schema.ToValue(a), schema.ToValue(b), ""); d != "" {
		return refuse("%s", d)
	}
	// A YAML comment needs a '#': without one in either text there is no
	// comment to keep.
	if !schema.IsJSON(path, orig) && (bytes.IndexByte(orig, '#') >= 0 || bytes.IndexByte(out, '#') >= 0) {
		// yaml.v3's own tree keeps the comments schema's tree drops (those of
		// the document); each text is parsed once for both checks.
		var ya, yb yaml.Node
		if yaml.Unmarshal(orig, &ya) != nil || yaml.Unmarshal(out, &yb) != nil {
			return refuse("the comments cannot be read again")
		}
		if d := diffComments(comments(&ya), comments(&yb)); d != "" {
			return refuse("%s", d)
		}
		if d := diffFullLineComments(orig, out, schema.ToValue(a)); d != "" {
			return refuse("%s", d)
		}
		if d := diffLineComments(lineComments(&ya), lineComments(&yb)); d != "" {
			return refuse("%s", d)
		}
	}
	// Each tree goes once its lorebook is loaded: at 100,000 entries two
	// trees and two lorebooks at once are most of fmt's peak memory.
	a, b = nil, nil
	la, _, err := schema.LoadDoc(da)
	if err != nil {
		return err
	}
	da.Root = nil
	lb, _, err := schema.LoadDoc(db)
	if err != nil {
		return refuse("the formatted text does not load: %v", err)
	}
	db.Root = nil
	if d := diffLorebooks(la, lb); d != "" {
		return refuse("%s", d)
	}
	return nil
}

// firstValueDiff compares decoded values and describes the first difference.
func firstValueDiff(a, b any, at string) string {
	name := at
	if name == "" {
		name = "the top level"
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: a mapping became %T", name, b)
		}
		for _, k := range unionKeys(x, y) {
			p := k
			if at != "" {
				p = at + "." + k
			}
			xv, xok := x[k]
			yv, yok := y[k]
			switch {
			case !yok:
				return fmt.Sprintf("%s: key lost", p)
			case !xok:
				return fmt.Sprintf("%s: key added", p)
			}
			if d := firstValueDiff(xv, yv, p); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: a list became %T", name, b)
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d items became %d", name, len(x), len(y))
		}
		for i := range x {
			if d := firstValueDiff(x[i], y[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %#v became %#v", name, a, b)
	}
	return ""
}

// comments lists every comment yaml.v3 attaches to a node, sorted.
func comments(doc *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > schema.MaxDepth {
			return
		}
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					out = append(out, l)
				}
			}
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	sort.Strings(out)
	return out
}

func diffComments(a, b []string) string {
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("comment %q added", b[i])
		case i >= len(b):
			return fmt.Sprintf("comment %q lost", a[i])
		case a[i] != b[i]:
			if a[i] < b[i] {
				return fmt.Sprintf("comment %q lost", a[i])
			}
			return fmt.Sprintf("comment %q added", b[i])
		}
	}
	return ""
}

// lineComments maps each end-of-line comment ("key: value # note") to the
// path of the value it follows ("entries[2].keywords"), whether yaml.v3 hangs
// it on the key or on the value: a line comment must stay on its line.
func lineComments(doc *yaml.Node) map[string]string {
	out := map[string]string{}
	add := func(path, c string) {
		if c = strings.TrimSpace(c); c != "" {
			if out[path] != "" {
				c = out[path] + "\n" + c
			}
			out[path] = c
		}
	}
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if n == nil || depth > schema.MaxDepth {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path, depth+1)
			}
		case yaml.MappingNode:
			add(path, n.LineComment)
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := path + "." + n.Content[i].Value
				add(p, n.Content[i].LineComment)
				walk(n.Content[i+1], p, depth+1)
			}
		case yaml.SequenceNode:
			add(path, n.LineComment)
			for i, c := range n.Content {
				walk(c, fmt.Sprintf("%s[%d]", path, i), depth+1)
			}
		default:
			add(path, n.LineComment)
		}
	}
	walk(doc, "", 0)
	return out
}

func diffLineComments(a, b map[string]string) string {
	for _, k := range unionKeys(a, b) {
		if a[k] != b[k] {
			where := strings.TrimPrefix(k, ".")
			if where == "" {
				where = "the top level"
			}
			if a[k] == "" {
				return fmt.Sprintf("comment %q moved to %s", b[k], where)
			}
			return fmt.Sprintf("comment %q of %s moved", a[k], where)
		}
	}
	return ""
}

// diffFullLineComments catches comments yaml.v3's parser itself does not
// attach to a node: every line of orig that holds only a comment must still be
// a line of out (as many times). Lines of string values that look like
// comments ("# Title" in a block scalar) may be written differently (a
// literal block whose text cannot stay one becomes a quoted string), so they
// are not required: val is the decoded original.
func diffFullLineComments(orig, out []byte, val any) string {
	count := func(data []byte) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(string(data), "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
				m[t]++
			}
		}
		return m
	}
	a, b := count(orig), count(out)
	inText := map[string]int{}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			for _, l := range strings.Split(x, "\n") {
				if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
					inText[t]++
				}
			}
			if strings.Contains(x, "#") {
				texts = append(texts, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				walk(k)
				walk(e)
			}
		}
	}
	walk(val)
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if b[k]+inText[k] < a[k] && !containedIn(texts, k) {
			return fmt.Sprintf("comment %q lost", k)
		}
	}
	return ""
}

// containedIn reports whether a line of a multi-line quoted string (folded
// into the value with a space) is part of one of texts.
func containedIn(texts []string, line string) bool {
	for _, t := range texts {
		if strings.Contains(t, line) {
			return true
		}
	}
	return false
}

// diffLorebooks compares two loaded lorebooks, positions aside (and which keys
// were present, by name only), and describes the first difference, or returns
// "" when they are the same. fmt must keep even a default value the author
// wrote, so the keys present count.
func diffLorebooks(a, b *schema.Lorebook) string { return differ{keys: true}.books(a, b) }

// diffModels is diffLorebooks without the keys present: the writer leaves
// defaults out, and what it writes must load to the same model.
func diffModels(a, b *schema.Lorebook) string { return differ{}.books(a, b) }

// differ compares loaded lorebooks field by field; keys says whether the sets
// of keys written (the Fields maps) must match too.
type differ struct{ keys bool }

func (d differ) books(a, b *schema.Lorebook) string {
	if s := d.value(reflect.ValueOf(a.Manifest), reflect.ValueOf(b.Manifest), "manifest"); s != "" {
		return s
	}
	if len(a.Entries) != len(b.Entries) {
		return fmt.Sprintf("%d entries became %d", len(a.Entries), len(b.Entries))
	}
	for i := range a.Entries {
		at := fmt.Sprintf("entry %d (id %q)", i+1, a.Entries[i].ID)
		if s := d.value(reflect.ValueOf(a.Entries[i]), reflect.ValueOf(b.Entries[i]), at); s != "" {
			return s
		}
	}
	return ""
}

var (
	posType    = reflect.TypeOf(diag.Pos{})
	posMapType = reflect.TypeOf(map[string]diag.Pos{})
)

func (d differ) value(a, b reflect.Value, at string) string {
	if a.IsValid() != b.IsValid() {
		return at + ": set on one side only"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %s became %s", at, a.Type(), b.Type())
	}
	switch {
	case a.Type() == posType:
		return ""
	case a.Type() == posMapType:
		if s := diffKeys(a, b); s != "" && d.keys {
			return at + ": " + s
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Func:
		return "" // ContentLine: a position function
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() != b.IsNil() {
			return at + ": set on one side only"
		}
		if a.IsNil() {
			return ""
		}
		return d.value(a.Elem(), b.Elem(), at)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if s := d.value(a.Field(i), b.Field(i), at+"."+f.Name); s != "" {
				return s
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d items became %d", at, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if s := d.value(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", at, i)); s != "" {
				return s
			}
		}
		return ""
	case reflect.Map:
		if s := diffKeys(a, b); s != "" {
			return at + ": " + s
		}
		keys := a.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			if s := d.value(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", at, k)); s != "" {
				return s
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %#v became %#v", at, a.Interface(), b.Interface())
	}
	return ""
}

// diffKeys compares the key sets of two maps with string keys.
func diffKeys(a, b reflect.Value) string {
	names := func(m reflect.Value) []string {
		var s []string
		for _, k := range m.MapKeys() {
			s = append(s, fmt.Sprint(k.Interface()))
		}
		sort.Strings(s)
		return s
	}
	x, y := names(a), names(b)
	if !reflect.DeepEqual(x, y) {
		return fmt.Sprintf("keys %v became %v", x, y)
	}
	return ""
}

// unionKeys is every key of a or b, sorted, so differences are reported in a
// stable order.
func unionKeys[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

package formats

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// importer carries what every format converter needs: the file (for
// positions), the id allocator, the names of kept fields.
type importer struct {
	file   string
	format string
	lb     *schema.Lorebook
	ids    idAlloc
	crlf   map[*schema.Entry]string // content as written, when it had \r\n
	diags  []diag.Diagnostic
	// keptNames interns "extensions.<format>.<key>" by (parent, key): an
	// entry records where each kept field was without a new string per
	// entry (nor a concatenation to look it up).
	keptNames map[[2]string]string
}

func newImporter(file, format string) *importer {
	lb := &schema.Lorebook{Path: file, Format: format, Files: []string{file}}
	lb.Manifest.Settings = schema.DefaultSettings()
	lb.Manifest.Fields = map[string]schema.Pos{}
	lb.Manifest.Pos = diag.Pos{File: file, Line: 1, Col: 1}
	return &importer{file: file, format: format, lb: lb, ids: idAlloc{used: map[string]bool{}},
		crlf: map[*schema.Entry]string{}, keptNames: map[[2]string]string{}}
}

// pos is where n starts in the source; the file itself when n is nil.
func (im *importer) pos(n *jnode) diag.Pos {
	if n == nil || n.line == 0 {
		return diag.Pos{File: im.file, Line: 1, Col: 1}
	}
	return diag.Pos{File: im.file, Line: int(n.line), Col: int(n.col)}
}

// skipped reports a part of the file that is not imported at all (rule
// "load": it is about the file, not about lore's model): a warning when it
// held something, an info note when it held nothing.
func (im *importer) skipped(at *jnode, format string, args ...any) {
	sev := diag.Warning
	if at != nil && (at.kind == jObj && len(at.keys()) == 0) {
		sev = diag.Info
	}
	im.diags = append(im.diags, diag.New(im.pos(at), sev, "load", format, args...))
}

// keptAt records where each field of obj kept under extensions is in the
// source (e.Fields["extensions.<format>.<key>"]), and one level down for the
// objects whose fields the loss report names (a card entry's extensions,
// NovelAI's contextConfig, RisuAI's extentions).
func (im *importer) keptAt(e *schema.Entry, obj *jnode, ext map[string]any) {
	for k := range ext {
		n := obj.get(k)
		if n == nil {
			continue
		}
		name := im.keptName("", k)
		e.Fields[name] = im.pos(n)
		if n.kind == jObj && (k == "extensions" || k == "contextConfig" || k == "extentions") {
			for subi, sub := range n.keys() {
				e.Fields[im.keptName(name, sub)] = im.pos(n.kids[subi])
			}
		}
	}
}

// keptBookAt is keptAt for the manifest: where each book-level field kept
// under extensions.<format>.<prefix> is in the source.
func (im *importer) keptBookAt(obj *jnode, ext map[string]any, prefix string) {
	m := &im.lb.Manifest
	for k := range ext {
		if n := obj.get(k); n != nil {
			name := im.keptName("", prefix+k)
			m.Fields[name] = im.pos(n)
			if n.kind == jObj && k == "extensions" {
				for subi, sub := range n.keys() {
					m.Fields[im.keptName(name, sub)] = im.pos(n.kids[subi])
				}
			}
		}
	}
}

func (im *importer) keptName(parent, key string) string {
	if s, ok := im.keptNames[[2]string{parent, key}]; ok {
		return s
	}
	full := parent + "." + key
	if parent == "" {
		full = "extensions." + im.format + "." + key
	}
	im.keptNames[[2]string{parent, key}] = full
	return full
}

// finish ends an import: \r\n texts kept for export, and one info note per
// kind of loss (at its first occurrence), so that lint and render say what
// the import could not carry without repeating it per entry (lore import
// prints the whole loss report instead). Kept values the format's own engine
// acts on (SillyTavern's, for a book read directly) are no loss there.
func (im *importer) finish() {
	schema.PackKeywords(im.lb.Entries)
	im.keepCRLF()
	im.diags = append(im.diags, lossNotes(ImportLosses(im.lb))...)
}

// lossNotes is one info diagnostic per kind of loss, at its first occurrence.
func lossNotes(ls []Loss) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	for _, l := range ls {
		kind := l.Field + "\x00" + l.Reason
		if seen[kind] || l.ActedOn != "" {
			continue // a book read directly renders with the engine that acts on it
		}
		seen[kind] = true
		what := l.Field
		if what == "" {
			what = "entry"
		}
		out = append(out, diag.New(l.Pos, diag.Info, "import", "%s (%s, %s; lore import lists every entry)", l.Reason, what, l.Kind))
	}
	return out
}

// newEntry starts an entry at n with lore's defaults.
func (im *importer) newEntry(n *jnode, section string) *schema.Entry {
	return &schema.Entry{
		Role:                  "character",
		APIRole:               "system",
		Section:               section,
		Enabled:               true,
		AlwaysSend:            schema.DefaultAlwaysSend(section),
		ConditionLogic:        "all",
		SecondaryKeywordLogic: schema.AndAny,
		Pos:                   im.pos(n),
		Fields:                make(map[string]schema.Pos, fieldRoom(n)),
	}
}

// fieldRoom is how many field positions an entry read from n can record at
// most: one per key and one per key of its extensions. Sizing the map once
// spares the rehashes that growing it key by key cost (a sixth of `lore
// validate`'s time on a 10,000-entry SillyTavern book).
func fieldRoom(n *jnode) int {
	if n == nil || n.kind != jObj {
		return 0
	}
	room := len(n.keys())
	if x := n.get("extensions"); x != nil && x.kind == jObj {
		room += len(x.keys())
	}
	return room
}

// loreEntry starts an entry of a world-info book: keyword-triggered lore in
// the chat history, which is what every foreign format's entries are.
func (im *importer) loreEntry(n *jnode) *schema.Entry {
	e := im.newEntry(n, schema.SectionChatHistory)
	e.Role = "lore"
	return e
}

// plainEntry starts a world-info entry from the fields every simple format
// has under its own names: content, name, a list of keys, enabled. It
// returns the entry and its name.
func (im *importer) plainEntry(obj *jnode, content, name, keys string) (*schema.Entry, string) {
	e := im.loreEntry(obj)
	im.content(e, obj.get(content))
	n := im.name(e, obj.get(name))
	e.Keywords = im.keywords(obj.get(keys))
	im.field(e, "keywords", obj.get(keys))
	im.setBool(e, &e.Enabled, "enabled", obj.get("enabled"))
	return e, n
}

// name sets e's name from n when n is a non-empty string, and returns it.
func (im *importer) name(e *schema.Entry, n *jnode) string {
	s, _ := n.strOf()
	if s != "" {
		e.Name = s
		im.field(e, "name", n)
	}
	return s
}

// setBool sets *dst and lore field from n when n is a boolean, and says
// whether it was.
func (im *importer) setBool(e *schema.Entry, dst *bool, field string, n *jnode) bool {
	b, ok := n.boolOf()
	if ok {
		*dst = b
		im.field(e, field, n)
	}
	return ok
}

// setInt is setBool for an integer (see intOf).
func (im *importer) setInt(e *schema.Entry, dst *int, field string, n *jnode) bool {
	i, ok := intOf(n)
	if ok {
		*dst = i
		im.field(e, field, n)
	}
	return ok
}

// field records that lore field came from source value n.
func (im *importer) field(e *schema.Entry, name string, n *jnode) {
	if n != nil {
		e.Fields[name] = im.pos(n)
	}
}

func (im *importer) content(e *schema.Entry, n *jnode) {
	if s, ok := n.strOf(); ok {
		// Windows line ends would force the whole text into one quoted
		// line of YAML; the model reads LF the same.
		// The original is kept (see keepCRLF) so export writes it back.
		e.Content = strings.ReplaceAll(s, "\r\n", "\n")
		if e.Content != s {
			im.crlf[e] = s
		}
		im.field(e, "content", n)
		p := im.pos(n)
		p.Col++ // after the opening quote
		e.ContentPos = p
	}
}

// keywords converts a JSON array of strings (or one string) to keywords.
// Empty keys are dropped: every engine ignores them.
func (im *importer) keywords(n *jnode) []schema.Keyword {
	var out []schema.Keyword
	add := func(s string, at *jnode) {
		if strings.TrimSpace(s) != "" {
			out = append(out, schema.Keyword{Text: s, Pos: im.pos(at)})
		}
	}
	switch {
	case n == nil:
	case n.kind == jStr:
		add(n.str, n)
	case n.kind == jArr:
		for _, k := range n.items() {
			if s, ok := k.strOf(); ok {
				add(s, k)
			} else if k.kind == jNum {
				add(k.str, k)
			}
		}
	}
	return out
}

// commaKeywords splits a comma-separated key string (AI Dungeon, RisuAI).
func (im *importer) commaKeywords(n *jnode) []schema.Keyword {
	s, ok := n.strOf()
	if !ok {
		return im.keywords(n)
	}
	var out []schema.Keyword
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, schema.Keyword{Text: k, Pos: im.pos(n)})
		}
	}
	return out
}

// rest returns the fields of obj not in mapped, as plain values: what the
// entry keeps under extensions.<format>.
func rest(obj *jnode, mapped ...string) map[string]any {
	if !obj.is(jObj) {
		return nil
	}
	skip := keySet(mapped)
	out := map[string]any{}
	for ki, k := range obj.keys() {
		if !skip[k] {
			out[k] = obj.kids[ki].value()
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// keySet makes a set of keys to look up.
func keySet(keys []string) map[string]bool {
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	return set
}

func setExt(e *schema.Entry, format string, m map[string]any) {
	if len(m) == 0 {
		return
	}
	if e.Extensions == nil {
		e.Extensions = map[string]any{}
	}
	e.Extensions[format] = m
}

func intOf(n *jnode) (int, bool) {
	f, ok := n.numOf()
	if !ok {
		if s, ok := n.strOf(); ok {
			if i, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
				return i, true
			}
		}
		return 0, false
	}
	if f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int(f), true
}

// idAlloc hands out unique kebab-case ids in the order entries are read, so
// the same file always gets the same ids.
type idAlloc struct{ used map[string]bool }

const maxIDLen = 48

// kebab turns a display name into an id: ASCII letters and digits, lowercased,
// every other run of characters a single hyphen. Scripts without a Latin
// transliteration (Thai, Chinese…) give "", and the caller falls back.
func kebab(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		folded, ok := latinFold[r]
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			folded, ok = string(r), true
		}
		if !ok {
			hyphen = true
			continue
		}
		if hyphen && b.Len() > 0 {
			b.WriteByte('-')
		}
		hyphen = false
		b.WriteString(folded)
	}
	id := b.String()
	if len(id) > maxIDLen {
		id = id[:maxIDLen]
		if i := strings.LastIndexByte(id, '-'); i > maxIDLen/2 {
			id = id[:i]
		}
		id = strings.Trim(id, "-")
	}
	return id
}

// latinFold keeps accented Latin names readable (Élodie → elodie).
var latinFold = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae", 'ç': "c",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'ù': "u",
	'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss", 'œ': "oe",
}

// id returns the first candidate that kebab-cases to something, made unique
// by appending -2, -3…
func (a *idAlloc) id(candidates ...string) string {
	base := "entry"
	for _, c := range candidates {
		if k := kebab(c); k != "" {
			base = k
			break
		}
	}
	id := base
	for n := 2; a.used[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	a.used[id] = true
	return id
}

// entryID picks an id from the entry's name, else the first of its keywords
// that has Latin letters or digits, else fallback.
func (im *importer) entryID(name string, kws []schema.Keyword, fallback string) string {
	cands := []string{name}
	for _, k := range kws {
		cands = append(cands, k.Text)
	}
	return im.ids.id(append(cands, fallback)...)
}

// reserve marks ids as taken (ids of entries the converter names itself).
func (a *idAlloc) reserve(ids ...string) {
	for _, id := range ids {
		a.used[id] = true
	}
}

// sortedKeys returns m's keys in order, for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// keepCRLF records, for the formats lore exports, that an entry's content had
// \r\n line ends which lore reads as \n: extensions.<format>.lineEndings is
// "crlf" when every line end was \r\n (the usual Windows case, a few bytes),
// else extensions.<format>.content keeps the original text whole (mixed line
// ends), so export writes back exactly what was read.
func (im *importer) keepCRLF() {
	switch im.format {
	case FormatSillyTavern, FormatCardV2, FormatCardV3, FormatLorebookV3, FormatNovelAI:
	default:
		return
	}
	for _, e := range im.lb.Entries {
		orig, ok := im.crlf[e]
		if !ok {
			continue
		}
		m, _ := e.Extensions[im.format].(map[string]any)
		if m == nil {
			m = map[string]any{}
			setExt(e, im.format, m)
		}
		if orig == strings.ReplaceAll(e.Content, "\n", "\r\n") {
			m["lineEndings"] = "crlf"
		} else {
			m["content"] = orig
		}
	}
}

// originalContent is what export writes for content, given the entry's
// extensions for the format: lore's text with its \r\n line ends restored, or
// the kept original while lore's text is still that original with \n ends.
func originalContent(ext map[string]any, content string) string {
	if ext["lineEndings"] == "crlf" {
		return strings.ReplaceAll(content, "\n", "\r\n")
	}
	if orig, ok := ext["content"].(string); ok && strings.ReplaceAll(orig, "\r\n", "\n") == content {
		return orig
	}
	return content
}

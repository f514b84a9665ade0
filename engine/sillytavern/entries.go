package sillytavern

import (
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

// SillyTavern's insertion positions (world-info.js world_info_position, and
// 7 for outlets in newer releases).
const (
	posBefore   = 0
	posAfter    = 1
	posANTop    = 2
	posANBottom = 3
	posDepth    = 4
	posEMTop    = 5
	posEMBottom = 6
	posOutlet   = 7

	defaultDepth  = 4
	defaultWeight = 100
	maxScanDepth  = 1000
)

// positionNames are the names `activated` items carry.
var positionNames = map[int]string{
	posBefore: "before-char", posAfter: "after-char", posANTop: "an-top", posANBottom: "an-bottom",
	posDepth: "depth", posEMTop: "em-top", posEMBottom: "em-bottom", posOutlet: "outlet",
}

var roleNames = []string{"system", "user", "assistant"}

// The roles by number, as SillyTavern's extension prompts number them.
const (
	roleSystem = iota
	roleUser
	roleAssistant
)

// Selective logics (world-info.js world_info_logic).
const (
	logicAndAny = 0
	logicNotAll = 1
	logicNotAny = 2
	logicAndAll = 3
)

// entry is one world-info entry with SillyTavern's own fields, read from the
// ST view of a lore entry (formats.STEntry: the mapping export uses).
type entry struct {
	idx int // place in SillyTavern's sorted order
	src *schema.Entry
	uid string // with the book's name, the key of its timed effects

	keys, secondary []string // as written (group scoring reads them so)
	keysArray       bool     // key is a list (else "has no keys")
	content         string   // after the decorators
	decorators      []string

	disable, constant, selective bool
	selectiveLogic               any // as written: scoring's switch has no default
	order                        float64
	position                     int
	depth                        any // as written; placement groups on depth ?? 4
	role                         any
	excludeRecursion             bool
	preventRecursion             bool
	delayLevel                   float64 // delayUntilRecursion (true = 1), 0 = none
	useProbability               bool
	probability                  float64
	probabilityIs100             bool // probability === 100: no roll at all
	group                        string
	groupOverride                bool
	groupWeight                  float64
	scanDepth                    *float64
	caseSensitive                *bool
	matchWholeWords              *bool
	useGroupScoring              *bool
	filterNames, filterTags      []string
	filterExclude                bool
	sticky, cooldown, delay      float64

	vectorized bool // vector storage activates it, which lore does not run

	// Fields of SillyTavern releases after 1.12.6 (by the docs).
	ignoreBudget bool
	triggers     []string
	outletName   string
	sources      uint8 // bit i: matchSourceFields[i], a text scanned besides the chat
}

// matchSourceFields are the newer per-entry switches that add a character
// card field (or the persona) to what the entry's keys are matched against.
var matchSourceFields = []string{"matchPersonaDescription", "matchCharacterDescription",
	"matchCharacterPersonality", "matchCharacterDepthPrompt", "matchScenario", "matchCreatorNotes"}

// loadEntries reads the book's world-info entries in SillyTavern's order:
// the order of the book's keys as JavaScript lists them (numeric uids
// ascending, then the others as written), then by Order, highest first.
// Entries made from a character card's own fields are not world info.
func loadEntries(book *schema.Lorebook) []*entry {
	var out []*entry
	for _, x := range readEntries(book) {
		if x != nil && formats.CardField(x.src) == "" && x.src.Role != "greeting" {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return jsKeyLess(out[a].uid, out[b].uid) })
	sort.SliceStable(out, func(a, b int) bool { return out[a].order > out[b].order })
	for i, e := range out {
		e.idx = i
	}
	return out
}

// readEntries reads every entry of the book (nil for a nil entry) in the
// book's order. Building each entry's SillyTavern view is most of what a
// render or a lint by SillyTavern costs before matching, and entries are
// independent, so a book of 1,000 entries or more is read on two goroutines.
func readEntries(book *schema.Lorebook) []*entry {
	out := make([]*entry, len(book.Entries))
	read := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if e := book.Entries[i]; e != nil {
				out[i] = newEntry(e, formats.STEntry(e), i)
			}
		}
	}
	n := len(out)
	if n < 1000 || runtime.GOMAXPROCS(0) < 2 {
		read(0, n)
		return out
	}
	var wg sync.WaitGroup
	wg.Go(func() { read(n/2, n) })
	read(0, n/2)
	wg.Wait()
	return out
}

// jsKeyLess orders an object's keys as JavaScript lists them (to sort
// stably): integer-like keys first, ascending, then the others as they are.
func jsKeyLess(a, b string) bool {
	ka, ia := arrayIndex(a)
	kb, ib := arrayIndex(b)
	if ia && ib {
		return ka < kb
	}
	return ia && !ib
}

// arrayIndex says whether a key is one JavaScript lists first, in numeric
// order (a canonical integer below 2³²−1).
func arrayIndex(k string) (uint64, bool) {
	n, err := strconv.ParseUint(k, 10, 32)
	if err != nil || strconv.FormatUint(n, 10) != k || n == math.MaxUint32 {
		return 0, false
	}
	return n, true
}

func newEntry(src *schema.Entry, st map[string]any, fileIndex int) *entry {
	e := &entry{src: src}
	kept, _ := src.Extensions[formats.FormatSillyTavern].(map[string]any)
	if u, ok := jsString(kept["uid"]); ok && kept != nil {
		e.uid = u
	} else if u, ok := jsString(st["uid"]); ok && hasCardID(src) {
		e.uid = u
	} else {
		e.uid = strconv.Itoa(fileIndex)
	}
	e.keys, e.keysArray = stringsOf(st["key"])
	e.secondary, _ = stringsOf(st["keysecondary"])
	content, _ := st["content"].(string)
	e.decorators, e.content = parseDecorators(content)

	e.disable = looseTrue(st["disable"])
	e.constant = truthy(st["constant"])
	e.selective = truthy(st["selective"])
	e.selectiveLogic = st["selectiveLogic"]
	e.order = number(st["order"])
	e.position = int(number(st["position"]))
	e.depth = st["depth"]
	e.role = st["role"]
	e.excludeRecursion = truthy(st["excludeRecursion"])
	e.preventRecursion = truthy(st["preventRecursion"])
	if d := st["delayUntilRecursion"]; truthy(d) {
		e.delayLevel = number(d) // true is level 1
	}
	e.useProbability = truthy(st["useProbability"])
	e.probability = number(st["probability"])
	p, isNum := st["probability"].(float64)
	e.probabilityIs100 = isNum && p == 100
	e.group, _ = st["group"].(string)
	e.groupOverride = truthy(st["groupOverride"])
	e.groupWeight = defaultWeight
	if w := st["groupWeight"]; w != nil {
		e.groupWeight = number(w)
	}
	if v := st["scanDepth"]; v != nil {
		d := number(v)
		e.scanDepth = &d
	}
	e.caseSensitive = optBool(st["caseSensitive"])
	e.matchWholeWords = optBool(st["matchWholeWords"])
	e.useGroupScoring = optBool(st["useGroupScoring"])
	if f, ok := st["characterFilter"].(map[string]any); ok {
		e.filterNames, _ = stringsOf(f["names"])
		e.filterTags, _ = stringsOf(f["tags"])
		e.filterExclude = truthy(f["isExclude"])
	}
	e.sticky = effectLength(st["sticky"])
	e.cooldown = effectLength(st["cooldown"])
	e.delay = effectLength(st["delay"])

	e.vectorized = truthy(st["vectorized"])
	e.ignoreBudget = truthy(st["ignoreBudget"])
	e.triggers, _ = stringsOf(st["triggers"])
	e.outletName, _ = st["outletName"].(string)
	for i, f := range matchSourceFields {
		if truthy(st[f]) {
			e.sources |= 1 << i
		}
	}
	return e
}

func hasCardID(e *schema.Entry) bool {
	for _, f := range []string{formats.FormatCardV3, formats.FormatCardV2, formats.FormatLorebookV3} {
		if m, ok := e.Extensions[f].(map[string]any); ok {
			_, has := m["id"]
			return has
		}
	}
	return false
}

// effectLength is a timed effect's length: 0 (none) unless a number SillyTavern
// takes as set.
func effectLength(v any) float64 {
	if !truthy(v) {
		return 0
	}
	n := number(v)
	if math.IsNaN(n) {
		return 0
	}
	return n
}

// looseTrue is JavaScript's `v == true`.
func looseTrue(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case nil, []any, map[string]any:
		return false
	}
	return number(v) == 1
}

// optBool is a nullable boolean setting: nil means "the global setting".
func optBool(v any) *bool {
	if v == nil {
		return nil
	}
	b := truthy(v)
	return &b
}

func stringsOf(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if s, ok := jsString(x); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// knownDecorators are the @@ lines SillyTavern acts on.
var knownDecorators = []string{"@@activate", "@@dont_activate"}

// parseDecorators splits the leading @@decorator lines off an entry's
// content, as SillyTavern does: "@@@" escapes a line that follows an unknown
// decorator, and a content made only of decorator lines is kept whole.
func parseDecorators(content string) ([]string, string) {
	if !strings.HasPrefix(content, "@@") {
		return nil, content
	}
	unescape := func(line string) string {
		if strings.HasPrefix(line, "@@@") {
			return line[1:]
		}
		return line
	}
	known := func(line string) bool {
		line = unescape(line)
		for _, k := range knownDecorators {
			if strings.HasPrefix(line, k) {
				return true
			}
		}
		return false
	}
	var decorators []string
	fallbacked := false
	lines := strings.Split(content, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "@@") {
			return decorators, strings.Join(lines[i:], "\n")
		}
		if strings.HasPrefix(line, "@@@") && !fallbacked {
			continue
		}
		if known(line) {
			decorators = append(decorators, unescape(line))
			fallbacked = false
		} else {
			fallbacked = true
		}
	}
	return decorators, content
}

func (e *entry) hasDecorator(d string) bool {
	for _, x := range e.decorators {
		if x == d {
			return true
		}
	}
	return false
}

// depthOrDefault is the depth placement groups on (entry.depth ?? 4).
func (e *entry) depthOrDefault() any {
	if e.depth == nil {
		return float64(defaultDepth)
	}
	return e.depth
}

// roleOrSystem is the message role of a depth entry (entry.role ?? system).
func (e *entry) roleOrSystem() any {
	if e.role == nil {
		return float64(0)
	}
	return e.role
}

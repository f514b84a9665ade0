package sillytavern

import (
	"math"
	"sort"
	"strconv"
	"strings"

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

// entry is one world-info entry with SillyTavern's own fields, decoded once
// from the entry's SillyTavern view (formats.STEntry: the mapping export and
// the loss report read too) with SillyTavern's JavaScript meanings.
type entry struct {
	idx int // place in SillyTavern's sorted order
	src *schema.Entry
	st  *formats.STEntry // its SillyTavern fields, with where each came from
	uid string           // with the book's name, the key of its timed effects

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
// book's order, through its SillyTavern view (formats.STEntries).
func readEntries(book *schema.Lorebook) []*entry {
	views := formats.STEntries(book)
	out := make([]*entry, len(views))
	for i, v := range views {
		if v != nil {
			out[i] = newEntry(v, i)
		}
	}
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

func newEntry(v *formats.STEntry, fileIndex int) *entry {
	src := v.Entry
	e := &entry{src: src, st: v}
	if u, ok := v.UID(); ok {
		e.uid = u
	} else {
		e.uid = strconv.Itoa(fileIndex)
	}
	e.keys, e.keysArray = v.Strings("key")
	e.secondary, _ = v.Strings("keysecondary")
	e.decorators, e.content = parseDecorators(v.String("content"))

	e.disable = v.LooseTrue("disable")
	e.constant = v.Truthy("constant")
	e.selective = v.Truthy("selective")
	e.selectiveLogic = v.Get("selectiveLogic")
	e.order = v.Number("order")
	e.position = int(v.Number("position"))
	e.depth = v.Get("depth")
	e.role = v.Get("role")
	e.excludeRecursion = v.Truthy("excludeRecursion")
	e.preventRecursion = v.Truthy("preventRecursion")
	if v.Truthy("delayUntilRecursion") {
		e.delayLevel = v.Number("delayUntilRecursion") // true is level 1
	}
	e.useProbability = v.Truthy("useProbability")
	e.probability = v.Number("probability")
	p, isNum := v.Get("probability").(float64)
	e.probabilityIs100 = isNum && p == 100
	e.group = v.String("group")
	e.groupOverride = v.Truthy("groupOverride")
	e.groupWeight = defaultWeight
	if w := v.Get("groupWeight"); w != nil {
		e.groupWeight = formats.JSNumber(w)
	}
	if x := v.Get("scanDepth"); x != nil {
		d := formats.JSNumber(x)
		e.scanDepth = &d
	}
	e.caseSensitive = v.OptBool("caseSensitive")
	e.matchWholeWords = v.OptBool("matchWholeWords")
	e.useGroupScoring = v.OptBool("useGroupScoring")
	e.filterNames, e.filterTags, e.filterExclude = v.Filter()
	e.sticky, e.cooldown, e.delay = v.Effect("sticky"), v.Effect("cooldown"), v.Effect("delay")

	e.vectorized = v.Truthy("vectorized")
	e.ignoreBudget = v.Truthy("ignoreBudget")
	e.triggers, _ = v.Strings("triggers")
	e.outletName = v.String("outletName")
	for i, f := range matchSourceFields {
		if v.Truthy(f) {
			e.sources |= 1 << i
		}
	}
	return e
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

package sillytavern

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// The conformance corpus: cases (testdata/cases: random, hand-written per
// feature, and corpus books with a chat) and what SillyTavern's own
// checkWorldInfo() gave for each, recorded by scripts/oracle-sillytavern:
// release 1.18.0 in testdata/golden, release 1.12.6 (still selectable with
// settings.sillytavern.version) in testdata/golden-1.12.6. Each case is
// rendered here as `lore render --engine sillytavern` renders it, at that
// version, and compared with SillyTavern's output.

// stCorpus is one release's recorded outputs for the cases.
type stCorpus struct{ version, cases, golden string }

var corpora = []stCorpus{
	{"1.18.0", "testdata/cases", "testdata/golden"},
	{"1.12.6", "testdata/cases", "testdata/golden-1.12.6"},
}

type stCase struct {
	Description string          `json:"description"`
	Book        json.RawMessage `json:"book"`
	BookFile    string          `json:"bookFile"`
	Messages    []struct {
		Name     *string `json:"name"`
		IsUser   bool    `json:"is_user"`
		IsSystem bool    `json:"is_system"`
		Mes      string  `json:"mes"`
	} `json:"messages"`
	Settings map[string]any `json:"settings"`
	Turns    []int          `json:"turns"`
}

type goldenEntry struct {
	UID      any     `json:"uid"`
	Position float64 `json:"position"`
	Depth    any     `json:"depth"`
	Role     any     `json:"role"`
	Order    float64 `json:"order"`
	Content  string  `json:"content"`
}

type goldenEffect struct {
	Start     float64 `json:"start"`
	End       float64 `json:"end"`
	Protected bool    `json:"protected"`
}

type goldenScan struct {
	ChatLength      int           `json:"chatLength"`
	Activated       []goldenEntry `json:"activated"`
	WorldInfoBefore string        `json:"worldInfoBefore"`
	WorldInfoAfter  string        `json:"worldInfoAfter"`
	ANTop           string        `json:"anTop"`
	ANBottom        string        `json:"anBottom"`
	EMTop           string        `json:"emTop"`
	EMBottom        string        `json:"emBottom"`
	DepthEntries    []struct {
		Depth   any    `json:"depth"`
		Role    any    `json:"role"`
		Content string `json:"content"`
	} `json:"depthEntries"`
	Outlets        map[string]string `json:"outlets"`
	Budget         int               `json:"budget"`
	RandomDraws    int               `json:"randomDraws"`
	TimedWorldInfo map[string]map[string]goldenEffect
}

type goldenFile struct {
	goldenScan
	Turns []goldenScan `json:"turns"`
}

// corpusDir is the shared corpus, a sibling of the repository.
const corpusDir = "../../../shared/corpus"

func loadCase(t *testing.T, path string) (*stCase, *schema.Lorebook) {
	t.Helper()
	var c stCase
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	bookPath, book := "case.json", []byte(c.Book)
	if c.BookFile != "" {
		bookPath = filepath.Join(corpusDir, c.BookFile)
		book, err = os.ReadFile(bookPath)
		if err != nil {
			t.Skipf("corpus book not available: %v", err)
		}
	}
	lb, ds, err := formats.Convert(bookPath, book)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, d := range ds {
		if d.Severity.String() == "error" {
			t.Fatalf("%s: %v", path, d)
		}
	}
	return &c, lb
}

func caseInput(t *testing.T, c *stCase, lb *schema.Lorebook) *render.Input {
	return versionInput(t, c, lb, "")
}

// versionInput is caseInput at a SillyTavern version ("" for the default).
func versionInput(t *testing.T, c *stCase, lb *schema.Lorebook, version string) *render.Input {
	t.Helper()
	tr := &schema.Transcript{}
	for _, m := range c.Messages {
		msg := schema.Message{Role: "assistant", Content: m.Mes}
		if m.IsUser {
			msg.Role = "user"
		}
		if m.IsSystem {
			msg.Role = "system"
		}
		if m.Name != nil {
			msg.Name = *m.Name
		}
		tr.Messages = append(tr.Messages, msg)
	}
	counter, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(0)
	if s, ok := c.Settings["seed"].(float64); ok {
		seed = int64(s)
	}
	settings := map[string]any{}
	for k, v := range c.Settings {
		settings[k] = v
	}
	if version != "" {
		settings["version"] = version
	}
	if _, ok := settings["maxContext"]; !ok {
		settings["maxContext"] = 8192.0 // the oracle's default
	}
	for _, k := range []string{"characterName", "userName"} {
		if _, ok := settings[k]; !ok {
			settings[k] = map[string]string{"characterName": "Character", "userName": "User"}[k]
		}
	}
	return &render.Input{Book: lb, Transcript: tr, Settings: schema.DefaultSettings(), Seed: seed, Counter: counter,
		EngineSettings: settings}
}

func goldenCases(t *testing.T) []string { return casesIn(t, "testdata/cases") }

func casesIn(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// TestConformance renders every case and compares it with SillyTavern's
// output, for each release's corpus: the entries activated (in SillyTavern's
// activation order), each insertion point's text (outlets included), the
// Result's `activated` items (position, depth, role, and order within each
// insertion point), the budget, the number of random draws and the timed
// effects left for the next generation.
//
// LORE_ST_FRESH=DIR compares instead the cases in DIR/cases with the 1.18.0
// outputs in DIR/golden (a fresh run of the generator and the oracle, see
// scripts/oracle-sillytavern-fresh) and logs how many agree;
// LORE_ST_FRESH_VERSION=1.12.6 says the outputs are 1.12.6's.
func TestConformance(t *testing.T) {
	if dir := os.Getenv("LORE_ST_FRESH"); dir != "" {
		c := stCorpus{Version118, filepath.Join(dir, "cases"), filepath.Join(dir, "golden")}
		if v := os.Getenv("LORE_ST_FRESH_VERSION"); v != "" {
			c.version = v // the outputs in DIR/golden are that release's
		}
		ok, n := runCorpus(t, c, false)
		t.Logf("fresh cases: %d of %d identical to SillyTavern %s", ok, n, c.version)
		return
	}
	for _, c := range corpora {
		t.Run(c.version, func(t *testing.T) { runCorpus(t, c, true) })
	}
}

// runCorpus checks every case of a corpus that has a recorded output (all
// of them when complete is set) and returns how many agree, of how many.
func runCorpus(t *testing.T, corpus stCorpus, complete bool) (agree, total int) {
	files := casesIn(t, corpus.cases)
	if len(files) == 0 {
		t.Fatalf("no conformance cases in %s", corpus.cases)
	}
	byDir := map[string][2]int{}
	seen := map[string]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(corpus.cases, f)
		if _, err := os.Stat(filepath.Join(corpus.golden, rel)); err != nil && !complete {
			continue // the oracle gave no output for it (--keep-going)
		}
		ok := t.Run(rel, func(t *testing.T) { checkCase(t, corpus, f, rel, seen) })
		total++
		if ok {
			agree++
		}
		d := filepath.Dir(rel)
		n := byDir[d]
		n[1]++
		if ok {
			n[0]++
		}
		byDir[d] = n
	}
	var dirs []string
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		t.Logf("%s: %d/%d identical to SillyTavern %s", d, byDir[d][0], byDir[d][1], corpus.version)
	}
	if !complete {
		return agree, total
	}
	// The corpus must exercise every check and every way in, or "identical"
	// says little: a generator changed for the worse shows here.
	var missing []string
	for _, want := range coverage {
		if !seen[want] {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no conformance case exercises: %s", strings.Join(missing, ", "))
	}
	return agree, total
}

// coverage is what the corpus must exercise (every gate but the newer
// fields' generation type, which the oracle lacks).
var coverage = []string{
	"in: constant", "in: @@activate", "in: external", "in: sticky", "in: key", "in: recursion pass", "in: min activations pass",
	"out: disabled", "out: character filter", "out: delay", "out: cooldown", "out: delay until recursion",
	"out: delay level", "out: exclude recursion", "out: @@dont_activate", "out: no keys", "out: keys",
	"out: secondary logic", "out: group", "out: probability", "out: budget", "out: max recursion steps",
	"group roll", "budget overflow", "delay levels", "case-sensitive entry", "regex key", "empty content",
}

// note records what one generation exercised.
func note(seen map[string]bool, tu turn) {
	sc := tu.sc
	gates := map[gate]string{gateDisabled: "disabled", gateCharacter: "character filter", gateDelay: "delay",
		gateCooldown: "cooldown", gateDelayRecursion: "delay until recursion", gateDelayLevel: "delay level",
		gateExcludeRecursion: "exclude recursion", gateDontActivate: "@@dont_activate", gateNoKeys: "no keys",
		gateKeys: "keys", gateSecondary: "secondary logic", gateGroup: "group", gateProbability: "probability",
		gateBudget: "budget", gateStopped: "max recursion steps", gateTrigger: "generation type"}
	for _, w := range sc.why {
		if w != nil {
			for _, g := range w.gates {
				seen["out: "+gates[g]] = true
			}
		}
	}
	for _, a := range sc.activated {
		seen["in: "+a.reason] = true
		switch a.state {
		case stateRecursion:
			seen["in: recursion pass"] = true
		case stateMinActivations:
			seen["in: min activations pass"] = true
		}
		if sc.content[a.e.idx] == "" {
			seen["empty content"] = true
		}
	}
	if sc.overflowed {
		seen["budget overflow"] = true
	}
	if len(sc.delayLevels()) > 1 {
		seen["delay levels"] = true
	}
	for _, e := range sc.entries {
		if e.caseSensitive != nil && *e.caseSensitive {
			seen["case-sensitive entry"] = true
		}
	}
	for _, rs := range sc.keys.primary {
		for _, r := range rs {
			if r.regex != nil {
				seen["regex key"] = true
			}
		}
	}
	for _, x := range tu.res.Explanations() {
		for _, r := range x.Texts() {
			if strings.Contains(r, "by the weighted roll") {
				seen["group roll"] = true
			}
		}
	}
}

func checkCase(t *testing.T, corpus stCorpus, file, rel string, seen map[string]bool) {
	c, lb := loadCase(t, file)
	var g goldenFile
	data, err := os.ReadFile(filepath.Join(corpus.golden, rel))
	if err != nil {
		t.Fatalf("no golden output (run scripts/oracle-sillytavern): %v", err)
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	in := versionInput(t, c, lb, corpus.version)
	lengths := c.Turns
	scans := g.Turns
	if lengths == nil {
		lengths = []int{len(c.Messages)}
		scans = []goldenScan{g.goldenScan}
	}
	var turns []turn
	err = New().runTurns(in, lengths, func(_ int, t turn) error {
		turns = append(turns, t)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	an := true
	if m, ok := c.Settings["authorsNote"].(map[string]any); ok && m["active"] == false {
		an = false
	}
	for i, tu := range turns {
		note(seen, tu)
		want := scans[i]
		got := describeTurn(tu, an)
		exp := expectTurn(want, tu, an)
		if d := cmp.Diff(exp, got); d != "" {
			t.Errorf("turn at chat length %d differs from SillyTavern (-SillyTavern +lore):\n%s", lengths[i], d)
		}
	}
}

// turnView is what the test compares for one generation.
type turnView struct {
	Activated []string // uids, SillyTavern's activation order
	Points    map[string]string
	Slots     map[string][]string // Result.activated grouped by slot, uids in prompt order
	Budget    int
	Draws     int
	Timed     map[string]string
}

func describeTurn(tu turn, an bool) turnView {
	sc, sl := tu.sc, tu.sl
	v := turnView{Points: map[string]string{}, Slots: map[string][]string{}, Timed: map[string]string{}}
	uidOf := map[string]string{}
	for _, e := range sc.entries {
		uidOf[e.src.ID] = e.uid
	}
	for _, a := range sc.activated {
		v.Activated = append(v.Activated, a.e.uid)
	}
	join := func(es []*entry) string {
		parts := make([]string, len(es))
		for i, e := range es {
			parts[i] = sc.content[e.idx]
		}
		return strings.Join(parts, "\n")
	}
	v.Points["before"] = join(sl.before)
	v.Points["after"] = join(sl.after)
	if an {
		v.Points["anTop"] = join(sl.anTop)
		v.Points["anBottom"] = join(sl.anBottom)
	} else {
		v.Points["anTop"], v.Points["anBottom"] = "", ""
	}
	top := append([]*entry(nil), sl.emTop...)
	reverse(top) // SillyTavern's EMEntries order; the prompt has them reversed
	v.Points["emTop"] = join(top)
	v.Points["emBottom"] = join(sl.emBottom)
	for i, d := range sl.depth {
		v.Points[fmt.Sprintf("depth#%d %v/%v", i, d.depth, d.role)] = join(d.entries)
	}
	for _, name := range sl.outletNames {
		v.Points["outlet "+name] = join(sl.outlets[name])
	}
	for _, a := range tu.res.Activated {
		if a.Kind == "card" {
			continue // a card's own field, not world info: the oracle lists none
		}
		k := a.Position
		if a.Depth != nil {
			k += fmt.Sprintf(" %d %s", *a.Depth, a.Role)
		}
		v.Slots[k] = append(v.Slots[k], uidOf[a.ID])
	}
	v.Budget = sc.budget
	v.Draws = tu.draws
	for _, kind := range []struct {
		name string
		es   *effects
	}{{"sticky", &tu.timed.sticky}, {"cooldown", &tu.timed.cooldown}} {
		for _, ef := range kind.es.list {
			uid := ef.key[strings.LastIndexByte(ef.key, '.')+1:]
			v.Timed[kind.name+" "+uid] = fmt.Sprintf("%v-%v %v", ef.start, ef.end, ef.protected)
		}
	}
	return v
}

func uidText(u any) string {
	switch x := u.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(u)
}

// expectTurn is SillyTavern's output in the same shape.
func expectTurn(g goldenScan, tu turn, an bool) turnView {
	v := turnView{Points: map[string]string{}, Slots: map[string][]string{}, Timed: map[string]string{}}
	for _, e := range g.Activated {
		v.Activated = append(v.Activated, uidText(e.UID))
	}
	v.Points["before"] = g.WorldInfoBefore
	v.Points["after"] = g.WorldInfoAfter
	v.Points["anTop"] = g.ANTop
	v.Points["anBottom"] = g.ANBottom
	v.Points["emTop"] = g.EMTop
	v.Points["emBottom"] = g.EMBottom
	for i, d := range g.DepthEntries {
		v.Points[fmt.Sprintf("depth#%d %v/%v", i, formats.JSNumber(d.Depth), formats.JSNumber(d.Role))] = d.Content
	}
	for name, text := range g.Outlets {
		v.Points["outlet "+name] = text
	}
	outletOf := map[string]string{} // uid → outlet name (the case's field)
	for _, e := range tu.sc.entries {
		outletOf[e.uid] = e.outletName
	}
	var outletNames []string
	outlets := map[string][]string{}
	// Insertion points in prompt order: Order descending (ties in
	// activation order), each entry put at the front of its point.
	sorted := append([]goldenEntry(nil), g.Activated...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Order > sorted[j].Order })
	slots := map[string][]string{}
	var emTop []string
	for _, e := range sorted {
		if e.Content == "" {
			continue
		}
		pos := int(e.Position)
		k := positionNames[pos]
		switch pos {
		case posANTop, posANBottom:
			if !an {
				continue
			}
		case posDepth:
			d := formats.JSNumber(e.Depth)
			if e.Depth == nil {
				d = defaultDepth
			}
			r := formats.JSNumber(e.Role)
			if _, ok := injectable(d); !ok || r < 0 || r > 2 || r != math.Trunc(r) {
				continue
			}
			k += fmt.Sprintf(" %v %s", d, roleNames[int(r)])
		case posEMTop:
			emTop = append(emTop, uidText(e.UID))
			continue
		case posOutlet:
			// 1.12.6 has no outlets; 1.18.0 appends to each named one.
			name := outletOf[uidText(e.UID)]
			if !tu.sc.s.v118() || name == "" {
				continue
			}
			if _, ok := outlets[name]; !ok {
				outletNames = append(outletNames, name)
			}
			outlets[name] = append(outlets[name], uidText(e.UID))
			continue
		}
		slots[k] = append([]string{uidText(e.UID)}, slots[k]...)
	}
	if len(emTop) > 0 {
		slots[positionNames[posEMTop]] = emTop // unshifted twice: Order descending
	}
	for _, name := range outletNames {
		slots[positionNames[posOutlet]] = append(slots[positionNames[posOutlet]], outlets[name]...)
	}
	v.Slots = slots
	v.Budget = g.Budget
	v.Draws = g.RandomDraws
	for _, kind := range []string{"sticky", "cooldown"} {
		for k, ef := range g.TimedWorldInfo[kind] {
			uid := k[strings.LastIndexByte(k, '.')+1:]
			v.Timed[kind+" "+uid] = fmt.Sprintf("%v-%v %v", ef.Start, ef.End, ef.Protected)
		}
	}
	return v
}

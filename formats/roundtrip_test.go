package formats

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

// change is one difference between a lorebook and what an export of it
// reads back as: the oracle the loss report is checked against.
type change struct {
	entry, field  string
	before, after any
}

// bookChanges lists what reading back the export of a to target (b) changed,
// field by field, in lore's model: the world-info entries in order, the
// entries made from a card's own fields by field, the manifest.
func bookChanges(a, b *schema.Lorebook, target string) []change {
	var out []change
	var wa, wb []*schema.Entry
	fieldsB := map[string]*schema.Entry{}
	for _, e := range b.Entries {
		if f := cardField(e); f != "" && isCard(target) {
			fieldsB[f] = e
		} else {
			wb = append(wb, e)
		}
	}
	for _, e := range a.Entries {
		switch {
		case !isWorldInfo(e) && !isCard(target):
			out = append(out, change{e.ID, "", "entry", nil}) // not written at all
		case cardField(e) != "" || e.Role == "greeting" && isCard(target):
			out = append(out, cardFieldChanges(e, fieldsB)...)
		default:
			wa = append(wa, e)
		}
	}
	for i, e := range wa {
		if i >= len(wb) {
			out = append(out, change{e.ID, "", "entry", nil})
			continue
		}
		out = append(out, entryChanges(e, wb[i], target)...)
	}
	return append(out, manifestChanges(a, b, target)...)
}

// cardFieldChanges: an entry made from a card field (or a greeting) comes
// back as the entry of that field, with the same text.
func cardFieldChanges(e *schema.Entry, fieldsB map[string]*schema.Entry) []change {
	f := cardField(e)
	if f == "" {
		f = "first_mes"
	}
	back := fieldsB[f]
	if back == nil || back.Content != e.Content || back.ID != e.ID || back.Section != e.Section ||
		back.Position != e.Position || back.APIRole != e.APIRole || back.Enabled != e.Enabled {
		return []change{{e.ID, "", f, back}}
	}
	return nil
}

// entryChanges compares two entries field by field; secondaryKeywordLogic
// and conditionLogic count only with secondaries and conditions, role only
// when it does something or was written (roleMatters).
func entryChanges(a, b *schema.Entry, target string) []change {
	var out []change
	diff := func(field string, x, y any) {
		if !reflect.DeepEqual(x, y) {
			out = append(out, change{a.ID, field, x, y})
		}
	}
	diff("id", a.ID, b.ID)
	diff("name", a.Name, b.Name)
	// Import reads \r\n as \n (docs/formats.md); export writes what lore has.
	diff("content", strings.ReplaceAll(a.Content, "\r\n", "\n"), b.Content)
	diff("section", a.Section, b.Section)
	diff("depth", fmt.Sprint(derefInt(a.Depth)), fmt.Sprint(derefInt(b.Depth)))
	diff("apiRole", a.APIRole, b.APIRole)
	if roleMatters(a) {
		diff("role", a.Role, b.Role)
	}
	diff("position", a.Position, b.Position)
	diff("enabled", a.Enabled, b.Enabled)
	diff("alwaysSend", a.AlwaysSend, b.AlwaysSend)
	diff("keywords", keywordTexts(a.Keywords), keywordTexts(b.Keywords))
	diff("secondaryKeywords", keywordTexts(a.SecondaryKeywords), keywordTexts(b.SecondaryKeywords))
	if len(a.SecondaryKeywords) > 0 {
		diff("secondaryKeywordLogic", a.SecondaryKeywordLogic, b.SecondaryKeywordLogic)
	}
	if len(a.Keywords)+len(a.SecondaryKeywords) > 0 {
		diff("matchWholeWords", a.MatchWholeWords, b.MatchWholeWords) // without keywords it matches nothing
	}
	diff("preventRecursion", a.PreventRecursion, b.PreventRecursion)
	diff("excludeRecursion", a.ExcludeRecursion, b.ExcludeRecursion)
	diff("tags", nilIfEmpty(a.Tags), nilIfEmpty(b.Tags))
	diff("folderId", a.FolderID, b.FolderID)
	diff("conditions", len(a.Conditions), len(b.Conditions))
	diff("lint", keywordTexts(a.Lint.Ignore), keywordTexts(b.Lint.Ignore))
	for _, f := range sortedKeys(a.Extensions) {
		if !restores(target, f) {
			if _, ok := b.Extensions[f]; !ok {
				out = append(out, change{a.ID, "extensions." + f, "kept", nil})
			}
			continue
		}
		if target == FormatNovelAI {
			diff("extensions."+f, naiComparable(a), naiComparable(b))
		} else {
			diff("extensions."+f, stComparable(a), stComparable(b))
		}
	}
	return out
}

// stComparable is what SillyTavern gets of an entry (its uid and
// displayIndex aside, which the exporter numbers).
func stComparable(e *schema.Entry) map[string]any {
	st := stFields(e)
	delete(st, "uid")
	delete(st, "displayIndex")
	b, _ := json.Marshal(st)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// naiComparable is what an entry kept from NovelAI, the fields export
// computes from lore's model aside, and the ones it adds at NovelAI's
// defaults when the source lacked them.
func naiComparable(e *schema.Entry) map[string]any {
	m, _ := e.Extensions[FormatNovelAI].(map[string]any)
	defaults := map[string]any{"keyRelative": false, "advancedConditions": []any{}, "loreBiasGroups": []any{},
		"searchRange": float64(naiSearchRange), "lastUpdatedAt": 0.0}
	out := map[string]any{}
	for k, v := range m {
		if k != "nonStoryActivatable" && k != "category" && k != "contextConfig" && k != "id" &&
			!reflect.DeepEqual(defaults[k], v) {
			out[k] = v
		}
	}
	return out
}

func derefInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func nilIfEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}

// manifestChanges compares the manifest; book data of a format the target
// does not write back must be reported as a whole.
func manifestChanges(a, b *schema.Lorebook, target string) []change {
	var out []change
	ma, mb := &a.Manifest, &b.Manifest
	diff := func(field string, x, y any) {
		if !reflect.DeepEqual(x, y) {
			out = append(out, change{"", field, x, y})
		}
	}
	if target != FormatNovelAI {
		diff("name", ma.Name, mb.Name)
	}
	if isCard(target) {
		diff("character", firstNonEmpty(ma.Character, ma.Name), firstNonEmpty(mb.Character, mb.Name))
	} else {
		diff("character", ma.Character, "")
	}
	diff("description", ma.Description, mb.Description)
	diff("format", ma.Format, mb.Format)
	diff("persona", ma.Persona != nil, mb.Persona != nil)
	diff("presets", len(ma.Presets), len(mb.Presets))
	diff("transforms", len(ma.Transforms), len(mb.Transforms))
	diff("variables", len(ma.Variables), len(mb.Variables))
	diff("folders", len(ma.Folders), len(mb.Folders))
	sa, sb := ma.Settings, mb.Settings
	sa.Fields, sb.Fields = nil, nil
	diff("settings", sa, sb)
	charx, _ := ma.Extensions[FormatCharX].(map[string]any)
	files, _ := charx["files"].([]any)
	for _, f := range files {
		m, _ := f.(map[string]any)
		out = append(out, change{"", "asset:" + short(m["path"]), "a file of the archive", nil}) // none given here
	}
	for _, f := range sortedKeys(ma.Extensions) {
		if f != FormatCharX && (!restores(target, f) || stFamily[f] && f != FormatSillyTavern && !isCard(target)) {
			out = append(out, change{"", "extensions." + f, "kept", nil})
		}
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// covered says whether a loss names the change: same entry, and the same
// field, a field it is part of, or the whole entry. A setting change is
// named by a loss on that setting.
func covered(c change, losses []Loss) bool {
	for _, l := range losses {
		if l.Entry == "" && (l.Field == c.field && strings.HasPrefix(c.field, "extensions.") || "asset:"+l.Value == c.field) {
			return true // "what N entries kept from F has no place in…", a file of a .charx
		}
		if l.Entry != c.entry {
			continue
		}
		switch {
		case l.Field == "" && c.entry != "", l.Field == c.field,
			strings.HasPrefix(l.Field, c.field+"."), strings.HasPrefix(c.field, l.Field+"."),
			c.field == "secondaryKeywordLogic" && l.Field == "secondaryKeywords",
			c.field == "settings" && strings.HasPrefix(l.Field, "settings."):
			return true
		}
	}
	return false
}

// assertReported exports lb to target, reads the result back and fails for
// every change the loss report does not name. It returns what was read back.
func assertReported(t *testing.T, lb *schema.Lorebook, target string) *schema.Lorebook {
	t.Helper()
	data, report, err := Export(lb, target, nil)
	if err != nil {
		t.Fatalf("export to %s: %v", target, err)
	}
	back, _, err := Convert("again", data)
	if err != nil {
		t.Fatalf("export to %s does not import: %v\n%s", target, err, data)
	}
	for _, c := range bookChanges(lb, back, target) {
		if !covered(c, report.Losses) {
			t.Errorf("→ %s: entry %q field %s changed (%v → %v) and the loss report does not say so", target, c.entry, c.field, short(c.before), short(c.after))
		}
	}
	return back
}

// convertibles are every corpus and fixture file that opens.
func convertibles(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*"))
	if d := testcorpus.Find(t); d != "" {
		files = append(files, testcorpus.Files(t)...)
	}
	var out []string
	for _, f := range files {
		if _, _, err := Open(f); err == nil {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatal("no files to convert")
	}
	return out
}

// TestEveryConversionReported: every corpus and fixture file, converted to
// every format lore writes and from there to every one again, changes
// nothing that the loss report of that step does not name.
func TestEveryConversionReported(t *testing.T) {
	for _, f := range convertibles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lb, _, err := Open(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, first := range Targets {
				back := assertReported(t, lb, first)
				for _, second := range Targets {
					assertReported(t, back, second)
				}
			}
		})
	}
}

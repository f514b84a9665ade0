package yumina

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// renderFiles renders a lorebook, chat and variables given as file texts.
func renderFiles(t testing.TB, book, chat, vars string) *rendered {
	t.Helper()
	ar := &txtar.Archive{Files: []txtar.File{{Name: "book.yaml", Data: []byte(book)}, {Name: "transcript.yaml", Data: []byte(chat)}}}
	if vars != "" {
		ar.Files = append(ar.Files, txtar.File{Name: "vars.yaml", Data: []byte(vars)})
	}
	path := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := loadCase(t, path)
	r, err := run(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// inPrompt lists the entries in the prompt, in prompt order.
func inPrompt(r *rendered) []string {
	var ids []string
	for _, a := range r.res.Activated {
		ids = append(ids, a.ID)
	}
	return ids
}

// Yumina's lorebook budget cannot be checked against the oracle (it runs with
// the budget off), so these cases pin it by hand. Token counts are chars/4,
// rounded up: tok(n), "word" n times, is n tokens.
func TestLorebookBudget(t *testing.T) {
	const chat = "messages:\n  - {role: user, content: the moon and the night}\n"
	tok := func(n int) string { // content of n tokens under chars4
		return strings.TrimSpace(strings.Repeat("word", n))
	}
	tests := []struct {
		name     string
		settings string
		entries  string
		want     []string // in the prompt
		dropped  []string
	}{{
		name:     "keeps in rank order until one does not fit",
		settings: "lorebookBudgetCap: 10",
		entries: "  - {id: a, section: post-history, position: 0, keywords: [moon], content: " + tok(4) + "}\n" +
			"  - {id: b, section: post-history, position: 1, keywords: [moon], content: " + tok(4) + "}\n" +
			"  - {id: c, section: post-history, position: 2, keywords: [moon], content: " + tok(4) + "}\n",
		want: []string{"a", "b"}, dropped: []string{"c"},
	}, {
		name:     "stops at the first that does not fit, even if a later one would",
		settings: "lorebookBudgetCap: 10",
		entries: "  - {id: a, section: post-history, position: 0, keywords: [moon], content: " + tok(4) + "}\n" +
			"  - {id: big, section: post-history, position: 1, keywords: [moon], content: " + tok(8) + "}\n" +
			"  - {id: small, section: post-history, position: 2, keywords: [moon], content: " + tok(1) + "}\n",
		want: []string{"a"}, dropped: []string{"big", "small"},
	}, {
		name:     "ranks by position before score",
		settings: "lorebookBudgetCap: 5",
		entries: "  - {id: high, section: post-history, position: 1, keywords: [moon, night], content: " + tok(4) + "}\n" +
			"  - {id: low, section: post-history, position: 0, keywords: [moon], content: " + tok(4) + "}\n",
		want: []string{"low"}, dropped: []string{"high"},
	}, {
		name:     "at one position, the higher score first",
		settings: "lorebookBudgetCap: 5",
		entries: "  - {id: low, section: post-history, keywords: [moon], content: " + tok(4) + "}\n" +
			"  - {id: high, section: post-history, keywords: [moon, night], content: " + tok(4) + "}\n",
		want: []string{"high"}, dropped: []string{"low"},
	}, {
		name:     "the first entry is kept whatever its size",
		settings: "lorebookBudgetCap: 2",
		entries:  "  - {id: huge, section: post-history, keywords: [moon], content: " + tok(50) + "}\n",
		want:     []string{"huge"}, dropped: nil,
	}, {
		name:     "always-sent entries are outside the budget",
		settings: "lorebookBudgetCap: 3",
		entries: "  - {id: rules, section: post-history, alwaysSend: true, content: " + tok(40) + "}\n" +
			"  - {id: a, section: post-history, keywords: [moon], content: " + tok(3) + "}\n" +
			"  - {id: b, section: post-history, position: 1, keywords: [moon], content: " + tok(1) + "}\n",
		want: []string{"rules", "a"}, dropped: []string{"b"},
	}, {
		name:     "a disabled entry with conditions counts though it is never sent",
		settings: "lorebookBudgetCap: 6",
		entries: "  - {id: ghost, section: post-history, enabled: false, keywords: [moon], conditions: [{variableId: x, operator: eq, value: 1}], content: " + tok(5) + "}\n" +
			"  - {id: a, section: post-history, position: 1, keywords: [moon], content: " + tok(2) + "}\n",
		want: nil, dropped: []string{"a"},
	}, {
		name:     "a percent of maxContext",
		settings: "{maxContext: 1000, lorebookBudgetPercent: 0.5}",
		entries: "  - {id: a, section: post-history, keywords: [moon], content: " + tok(4) + "}\n" +
			"  - {id: b, section: post-history, position: 1, keywords: [moon], content: " + tok(2) + "}\n",
		want: []string{"a"}, dropped: []string{"b"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book := "settings:\n  tokenizer: chars4\n  yumina: " + tt.settings + "\nvariables: [{id: x, type: number, default: 1}]\nentries:\n" + tt.entries
			if strings.HasPrefix(tt.settings, "lorebook") {
				book = strings.Replace(book, "yumina: "+tt.settings, "yumina: {"+tt.settings+"}", 1)
			}
			r := renderFiles(t, book, chat, "")
			if got := inPrompt(r); !slices.Equal(got, tt.want) {
				t.Errorf("in the prompt: %v, want %v", got, tt.want)
			}
			sec := r.res.Report.Section("lorebook")
			if sec == nil || !slices.Equal(sec.Dropped, append([]string{}, tt.dropped...)) {
				t.Errorf("report: %+v, want dropped %v", sec, tt.dropped)
			}
			for _, id := range tt.dropped {
				x := r.res.Explanations()[id]
				if x == nil || !x.Active || !strings.Contains(strings.Join(x.Texts(), "\n"), "left out by Yumina's lorebook budget") {
					t.Errorf("--explain %s: %+v", id, x)
				}
			}
		})
	}
}

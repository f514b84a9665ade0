package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
)

// knownRule stands for lint's rule registry.
func knownRule(id string) (bool, string) {
	return id == "empty-content" || id == "recursion-loop", ""
}

func format(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Pos().String() + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Rule + "]\n")
	}
	return b.String()
}

func TestParseFileErrorsHaveLines(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"unknown key", "rules:\n  empty-content: off\ncontext: 4096\n",
			[]string{`.lore.yaml:3:1: error: unknown key "context" in .lore.yaml (valid: rules, ignore, tokenizer, contextTokens, responseReserve) [config]`}},
		{"unknown rule", "rules:\n  empty-content: off\n  emtpy-content: info\n",
			[]string{"emtpy-content"}},
		{"bad level", "rules:\n  recursion-loop: fatal\n",
			[]string{`.lore.yaml:2:19: error: rule "recursion-loop": level must be off, info, warning or error, not "fatal" [config]`}},
		{"bad tokenizer", "tokenizer: gpt2\n", []string{".lore.yaml:1:12: error: tokenizer must be one of"}},
		{"bad context", "contextTokens: -5\n", []string{".lore.yaml:1:16: error: contextTokens must be a positive whole number"}},
		{"ignore not a list", "ignore: drafts\n", []string{".lore.yaml:1:9: error: ignore must be a list"}},
		{"not a mapping", "- rules\n", []string{".lore.yaml:1:1: error: .lore.yaml must be a mapping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds, err := ParseFile(".lore.yaml", []byte(tc.yaml), knownRule)
			if err != nil {
				t.Fatal(err)
			}
			got := format(ds)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in:\n%s", w, got)
				}
			}
			if len(ds) != len(tc.want) {
				t.Errorf("want %d diagnostics, got:\n%s", len(tc.want), got)
			}
		})
	}
}

func TestParseFileNotYAML(t *testing.T) {
	if _, _, err := ParseFile("c.yaml", []byte("rules: [\n"), knownRule); err == nil {
		t.Error("want an error for YAML that does not parse")
	}
}

func TestFindWalksUp(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, "book.yaml"), []byte("x"), 0o644)
	if got := Find(filepath.Join(deep, "book.yaml")); got != "" && strings.HasPrefix(got, dir) {
		t.Errorf("no config yet, got %q", got)
	}
	os.WriteFile(filepath.Join(dir, "a", FileName), nil, 0o644)
	if got := Find(filepath.Join(deep, "book.yaml")); got != filepath.Join(dir, "a", FileName) {
		t.Errorf("Find = %q", got)
	}
}

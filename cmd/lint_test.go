package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runLintCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

// lintBook writes a lorebook (and optionally a .lore.yaml beside it) into a
// temporary folder and returns the lorebook's path.
func lintBook(t *testing.T, book, config string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "book.yaml")
	if err := os.WriteFile(p, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, ".lore.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

const warnBook = `name: W
entries:
  - id: todo
    section: chat-history
    keywords: [todo]
    content: ""
`

const errorBook = `name: E
entries:
  - id: lost
    section: chat-history
    content: Nobody can trigger this.
`

func TestLintFixturesExitCodes(t *testing.T) {
	for _, p := range []string{"../fixtures/eldoria/book", "../fixtures/sakura/book.yaml"} {
		if _, errb, code := runLintCmd(t, "lint", p); code != 0 {
			t.Errorf("%s: exit %d (%s)", p, code, errb)
		}
	}
}

func TestLintExitCodes(t *testing.T) {
	warn, bad := lintBook(t, warnBook, ""), lintBook(t, errorBook, "")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"lint", warn}, 0},
		{[]string{"lint", "--strict", warn}, 1},
		{[]string{"lint", bad}, 1},
		{[]string{"lint", "no/such/book.yaml"}, 2},
		{[]string{"lint", "--format", "xml", warn}, 2},
		{[]string{"lint", "--color", "sometimes", warn}, 2},
		{[]string{"lint"}, 2},
	} {
		if _, errb, code := runLintCmd(t, tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, errb)
		}
	}
}

func TestLintTextOutput(t *testing.T) {
	p := lintBook(t, errorBook, "")
	out, errb, _ := runLintCmd(t, "lint", p)
	want := p + `:3:9: error: entry "lost" can never be sent: a chat-history entry needs keywords, or alwaysSend: true to be constant [unreachable-entry]` + "\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if errb != "1 error in 1 file\n" {
		t.Errorf("summary %q", errb)
	}
}

func TestLintJSONContract(t *testing.T) {
	out, _, code := runLintCmd(t, "lint", "--format", "json", lintBook(t, warnBook, ""))
	var v struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(v.Diagnostics) != 1 {
		t.Fatalf("want 1 diagnostic: %s", out)
	}
	d := v.Diagnostics[0]
	for _, k := range []string{"file", "line", "column", "severity", "rule", "message"} {
		if _, ok := d[k]; !ok {
			t.Errorf("diagnostic lacks %q: %v", k, d)
		}
	}
	if d["rule"] != "empty-content" || d["severity"] != "warning" || d["line"] != 6.0 {
		t.Errorf("unexpected diagnostic %v", d)
	}
}

func TestLintSARIFListsEveryRule(t *testing.T) {
	out, _, _ := runLintCmd(t, "lint", "--format", "sarif", lintBook(t, errorBook, ""))
	var v struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Version != "2.1.0" || len(v.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log with one run:\n%s", out)
	}
	rules := v.Runs[0].Tool.Driver.Rules
	if len(rules) < 17 || !strings.HasSuffix(rules[1].HelpURI, "docs/rules.md#duplicate-id") {
		t.Errorf("driver rules incomplete: %+v", rules)
	}
	res := v.Runs[0].Results
	if len(res) != 1 || res[0].RuleID != "unreachable-entry" || res[0].Locations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Errorf("results: %+v", res)
	}
}

func TestLintGitHubAnnotations(t *testing.T) {
	p := lintBook(t, warnBook, "")
	out, _, _ := runLintCmd(t, "lint", "--format", "github", p)
	if !strings.HasPrefix(out, "::warning file="+filepath.ToSlash(p)+",line=6,col=14,title=empty-content::") {
		t.Errorf("annotation: %q", out)
	}
}

func TestLintConfig(t *testing.T) {
	// Found upward: raise empty-content to error.
	p := lintBook(t, warnBook, "rules:\n  empty-content: error\n")
	if out, _, code := runLintCmd(t, "lint", p); code != 1 || !strings.Contains(out, "error: entry \"todo\" has no content") {
		t.Errorf("config level not applied: exit %d\n%s", code, out)
	}
	// Turned off.
	p = lintBook(t, warnBook, "rules:\n  empty-content: off\n")
	if out, _, code := runLintCmd(t, "lint", "--strict", p); code != 0 || out != "" {
		t.Errorf("rule off: exit %d\n%s", code, out)
	}
	// An unknown key is an error with its line, and exit 2.
	p = lintBook(t, warnBook, "rules:\n  empty-content: off\nsevere: yes\n")
	out, _, code := runLintCmd(t, "lint", p)
	if code != 2 || !strings.Contains(out, ".lore.yaml:3:1: error: unknown key \"severe\"") {
		t.Errorf("bad config: exit %d\n%s", code, out)
	}
	// --config overrides the search.
	cfg := filepath.Join(t.TempDir(), "ci.yaml")
	os.WriteFile(cfg, []byte("rules: {empty-content: info}\n"), 0o644)
	if out, _, _ := runLintCmd(t, "lint", "--config", cfg, p); !strings.Contains(out, "info: entry \"todo\"") {
		t.Errorf("--config not used:\n%s", out)
	}
}

func TestLintVars(t *testing.T) {
	book := lintBook(t, `name: V
entries:
  - id: ambush
    section: chat-history
    keywords: [road]
    conditions: [{variableId: gold, operator: gt, value: 5}]
    content: Bandits.
`, "")
	if _, _, code := runLintCmd(t, "lint", book); code != 1 {
		t.Errorf("undefined variable must be an error, exit %d", code)
	}
	vars := filepath.Join(t.TempDir(), "vars.yaml")
	os.WriteFile(vars, []byte("gold: 3\n"), 0o644)
	if out, _, code := runLintCmd(t, "lint", "--vars", vars, book); code != 0 {
		t.Errorf("with --vars: exit %d\n%s", code, out)
	}
}

func TestRulesCmd(t *testing.T) {
	out, _, code := runLintCmd(t, "rules")
	if code != 0 || !strings.Contains(out, "recursion-loop") || !strings.Contains(out, "docs/rules.md#RULE") {
		t.Errorf("rules text: exit %d\n%s", code, out)
	}
	// The table fits 100 columns (、 takes two), and a rule that is off
	// until enabled says off, not the level it would report at.
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if textWidth(line) > 100 {
			t.Errorf("%d columns: %q", textWidth(line), line)
		}
		if f := strings.Fields(line); len(f) > 1 && f[0] == "engine-divergence" && f[1] != "off" {
			t.Errorf("engine-divergence's default: %q", line)
		}
	}
	out, _, _ = runLintCmd(t, "rules", "--format", "json")
	var v struct {
		Rules []struct{ ID, Severity, Default, Description, Docs string } `json:"rules"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Rules) < 17 || v.Rules[0].ID != "schema" || v.Rules[0].Severity != "error" || v.Rules[0].Default != "error" {
		t.Errorf("rules json: %v\n%s", err, out)
	}
	for _, r := range v.Rules {
		if r.ID == "engine-divergence" && (r.Default != "off" || r.Severity != "info") {
			t.Errorf("engine-divergence: default %q, severity %q", r.Default, r.Severity)
		}
	}
	if _, _, code := runLintCmd(t, "rules", "--format", "yaml"); code != 2 {
		t.Errorf("bad format: exit %d", code)
	}
}

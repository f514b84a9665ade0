package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRenderCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"render"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

var eldoria = []string{"../fixtures/eldoria/book", "--transcript", "../fixtures/eldoria/transcript.yaml",
	"--vars", "../fixtures/eldoria/vars.yaml"}

func TestRenderText(t *testing.T) {
	out, errOut, code := runRenderCmd(t, eldoria...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"── 1 · system presets", "── 10 · chat history",
		`system · sleeping-stag — keyword "tavern" in message:3, depth 2`, "gold: 7", "Not in the prompt: 3 entries"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour when stdout is not a terminal")
	}
	colored, _, _ := runRenderCmd(t, append(eldoria, "--color", "always", "--report")...)
	if !strings.Contains(colored, "\x1b[") || !strings.Contains(colored, "Token budget") {
		t.Error("--color always --report: no colour or no report")
	}
}

func TestRenderFormats(t *testing.T) {
	for _, f := range []string{"json", "openai", "anthropic"} {
		out, errOut, code := runRenderCmd(t, append(eldoria, "--format", f)...)
		if code != 0 || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", f, code, errOut)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, ok := doc["messages"]; !ok {
			t.Errorf("%s: no messages", f)
		}
	}
}

func TestRenderSettingsFlags(t *testing.T) {
	out, _, code := runRenderCmd(t, append(eldoria, "--format", "json", "--context", "600", "--reserve", "100", "--tokenizer", "chars4")...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Report struct {
			Tokenizer     string `json:"tokenizer"`
			ContextTokens int    `json:"contextTokens"`
			Available     int    `json:"available"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if r := doc.Report; r.Tokenizer != "chars4" || r.ContextTokens != 600 || r.Available != 500 {
		t.Errorf("report %+v: flags not applied", r)
	}
}

func TestRenderWithoutTranscript(t *testing.T) {
	out, _, code := runRenderCmd(t, "../fixtures/eldoria/book", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, `"[Start a new Chat]"`) || strings.Contains(out, "message:") {
		t.Error("empty chat: want the static prompt and no messages")
	}
	// The greeting opens an empty chat.
	if !strings.Contains(out, `"greeting"`) {
		t.Error("empty chat: greeting missing")
	}
}

func TestRenderExplain(t *testing.T) {
	out, _, code := runRenderCmd(t, append(eldoria, "--explain", "rich-traveller")...)
	if code != 0 || !strings.Contains(out, "not in the prompt") || !strings.Contains(out, "gold gte 50 is false") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, code = runRenderCmd(t, append(eldoria, "--explain", "sleeping-stag", "--format", "json")...)
	var x struct {
		ID       string `json:"id"`
		InPrompt bool   `json:"inPrompt"`
		Depth    *int   `json:"depth"`
	}
	if err := json.Unmarshal([]byte(out), &x); err != nil || code != 0 || x.ID != "sleeping-stag" || !x.InPrompt || x.Depth == nil || *x.Depth != 2 {
		t.Errorf("explain json: exit %d, %v, %+v", code, err, x)
	}
	_, errOut, code := runRenderCmd(t, append(eldoria, "--explain", "sleepng-stag")...)
	if code != ExitUsage || !strings.Contains(errOut, `did you mean "sleeping-stag"?`) {
		t.Errorf("unknown id: exit %d, stderr %q", code, errOut)
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("entries:\n  - id: Bad_Id\n    section: nowhere\n    content: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"missing lorebook", []string{filepath.Join(dir, "nope")}, ExitUsage, "nope"},
		{"missing transcript", []string{"../fixtures/eldoria/book", "--transcript", filepath.Join(dir, "t.yaml")}, ExitUsage, "t.yaml"},
		{"schema errors", []string{bad}, ExitFindings, "bad.yaml:2:"},
		{"bad format", append(eldoria, "--format", "html5"), ExitUsage, "--format"},
		{"bad tokenizer", append(eldoria, "--tokenizer", "gpt2"), ExitUsage, "gpt2"},
		{"bad context", append(eldoria, "--context", "0"), ExitUsage, "--context"},
		{"bad colour", append(eldoria, "--color", "pink"), ExitUsage, "--color"},
		{"no lorebook", nil, ExitUsage, "needs a LOREBOOK"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runRenderCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, tt.code, errOut, tt.stderr)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

func TestRenderDeterministic(t *testing.T) {
	a, _, _ := runRenderCmd(t, append(eldoria, "--format", "json", "--seed", "7")...)
	b, _, _ := runRenderCmd(t, append(eldoria, "--format", "json", "--seed", "7")...)
	if a != b {
		t.Error("two renders differ")
	}
}

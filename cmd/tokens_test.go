package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runTokensCmd runs `lore tokens args...` in-process.
func runTokensCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"tokens"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

const (
	eldoriaBook       = "../fixtures/eldoria/book"
	eldoriaTranscript = "../fixtures/eldoria/transcript.yaml"
	eldoriaVars       = "../fixtures/eldoria/vars.yaml"
)

func TestTokensJSONContract(t *testing.T) {
	out, stderr, code := runTokensCmd(t, eldoriaBook, "--transcript", eldoriaTranscript, "--vars", eldoriaVars, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Tokenizer     string `json:"tokenizer"`
		ContextTokens int    `json:"contextTokens"`
		Available     int    `json:"available"`
		RequiredCap   int    `json:"requiredCap"`
		Total         int    `json:"total"`
		Sections      []struct {
			Name    string   `json:"name"`
			Class   string   `json:"class"`
			Tokens  int      `json:"tokens"`
			Budget  int      `json:"budget"`
			Cut     bool     `json:"cut"`
			Dropped []string `json:"dropped"`
		} `json:"sections"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("report JSON: %v\n%s", err, out)
	}
	if rep.Tokenizer != "o200k_base" || rep.ContextTokens != 8192 || rep.Available != 7168 || rep.RequiredCap != 5017 {
		t.Errorf("header %+v", rep)
	}
	var names []string
	sum := 0
	for _, s := range rep.Sections {
		names = append(names, s.Name)
		sum += s.Tokens
		if s.Dropped == nil {
			t.Errorf("%s: dropped is null", s.Name)
		}
	}
	want := []string{"last-action", "front-memory", "post-history", "plot-essentials", "system-presets", "summary", "examples", "cards", "history", "memory"}
	if !slices.Equal(names, want) {
		t.Errorf("sections %v", names)
	}
	if rep.Total < sum || rep.Sections[0].Tokens == 0 {
		t.Errorf("total %d, sections sum %d, last action %d", rep.Total, sum, rep.Sections[0].Tokens)
	}
}

func TestTokensText(t *testing.T) {
	out, stderr, code := runTokensCmd(t, eldoriaBook, "--transcript", eldoriaTranscript, "--color", "never")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Token budget o200k_base, context 8192", "last-action", "memory", "Required:", "Largest entries"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour with --color never")
	}
	col, _, _ := runTokensCmd(t, eldoriaBook, "--transcript", eldoriaTranscript, "--color", "always")
	if !strings.Contains(col, "\x1b[") {
		t.Error("--color always printed no colour")
	}
}

func TestTokensWithoutTranscript(t *testing.T) {
	// A 500-token budget leaves a cards share too small for the larger cards.
	out, stderr, code := runTokensCmd(t, eldoriaBook, "--context", "700", "--reserve", "200", "--tokenizer", "chars4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"chars4, context 700 − reserve 200 = 500 available", "Story cards against the cards share", "old-maren", "can never be included"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	js, _, code := runTokensCmd(t, eldoriaBook, "--format", "json")
	if code != 0 || !strings.HasPrefix(js, "{\n  \"tokenizer\": \"o200k_base\"") {
		t.Errorf("json without transcript: exit %d\n%s", code, js)
	}
}

func TestTokensSettingsPrecedence(t *testing.T) {
	out, _, code := runTokensCmd(t, eldoriaBook, "--format", "json", "--context", "4096")
	if code != 0 || !strings.Contains(out, `"contextTokens": 4096`) || !strings.Contains(out, `"available": 3072`) {
		t.Errorf("--context not applied (exit %d):\n%s", code, out)
	}
}

func TestTokensUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("entries: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{eldoriaBook, "--tokenizer", "gpt2"}, "o200k_base, cl100k_base, chars4"},
		{[]string{eldoriaBook, "--format", "xml"}, "--format"},
		{[]string{eldoriaBook, "--context", "0"}, "--context"},
		{[]string{eldoriaBook, "--transcript", filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{filepath.Join(dir, "nothing")}, "nothing"},
		{[]string{bad}, "bad.yaml"},
		{[]string{}, "needs a LOREBOOK"},
	} {
		_, stderr, code := runTokensCmd(t, tt.args...)
		if code != ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("tokens %v: exit %d, stderr %q; want exit 2 mentioning %q", tt.args, code, stderr, tt.want)
		}
	}
}

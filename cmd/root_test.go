package cmd

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// brokenPipe is a writer whose reader has gone away.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestOutputErrors: output that cannot be written is exit 2 with a message on
// stderr, for every command that prints, never a silent exit 0.
func TestOutputErrors(t *testing.T) {
	book, tr := "../fixtures/eldoria/book", "../fixtures/eldoria/transcript.yaml"
	for _, args := range [][]string{
		{"render", book, "--transcript", tr},
		{"render", book, "--format", "json"},
		{"render", book, "--explain", "whisperwood"},
		{"tokens", book},
		{"lint", book},
		{"validate", writeFile(t, "bad.yaml", "id: Bad\nsection: examples\ncontent: x\n")},
		{"fmt", fmtFile(t)},
		{"import", "../fixtures/formats/st_edge_cases.json"},
		{"export", book, "--to", "sillytavern"},
		{"rules"},
		{"schema", "entry"},
		{"version"},
		{"completion", "bash"},
		{"--help"},
	} {
		var errb bytes.Buffer
		code := Main(args, IO{Stdin: strings.NewReader(""), Stdout: brokenPipe{}, Stderr: &errb})
		if code != ExitUsage || !strings.Contains(errb.String(), "lore: cannot write the output: broken pipe") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestStderrErrors: a command whose stderr cannot be written exits 2 too.
func TestStderrErrors(t *testing.T) {
	var out bytes.Buffer
	code := Main([]string{"validate", "../fixtures/eldoria/book"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: brokenPipe{}})
	if code != ExitUsage {
		t.Errorf("exit %d", code)
	}
}

func fmtFile(t *testing.T) string {
	return writeFile(t, "e.yaml", fmtUnformatted)
}

// TestArgumentMessages: every command says in one wording what argument it
// needs, or how many it takes, never cobra's "requires at least 1 arg(s)".
func TestArgumentMessages(t *testing.T) {
	root := newRootCmd(&IO{})
	zeroOK := map[string]bool{"init": true, "test": true, "schema": true, "rules": true, "version": true, "completion": true, "help": true, "lsp": true}
	many := []string{"a", "b", "c", "d", "e", "f"}
	for _, c := range root.Commands() {
		name := c.Name()
		var runs [][]string
		if !zeroOK[name] {
			runs = append(runs, []string{name})
		}
		if name != "test" && name != "completion" && name != "help" && c.Args != nil && c.Args(c, many) != nil {
			runs = append(runs, append([]string{name}, many...))
		}
		for _, args := range runs {
			_, errOut, code := runCmd(t, IO{}, args...)
			if code != ExitUsage || strings.Contains(errOut, "arg(s)") || !strings.Contains(errOut, "lore: "+name+" ") ||
				!strings.Contains(errOut, "see 'lore "+name+" --help'") {
				t.Errorf("%v: exit %d, %q", args, code, errOut)
			}
		}
	}
}

// TestDidYouMean: a misspelt flag, flag value or rule id is answered with
// the one it is closest to.
func TestDidYouMean(t *testing.T) {
	book := "../fixtures/eldoria/book"
	cfg := writeFile(t, ".lore.yaml", "rules:\n  keyword-colision: off\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"render", book, "--transcipt", "t.yaml"}, "unknown flag: --transcipt (did you mean --transcript?)"},
		{[]string{"lint", book, "--strikt"}, "(did you mean --strict?)"},
		{[]string{"render", book, "--engine", "SillyTavern"}, `(did you mean "sillytavern"?)`},
		{[]string{"lint", book, "--engine", "Yumina"}, `(did you mean "yumina"?)`},
		{[]string{"lint", book, "--format", "sarf"}, `(did you mean "sarif"?)`},
		{[]string{"render", book, "--format", "jsn"}, `(did you mean "json"?)`},
		{[]string{"render", book, "--tokenizer", "o200k"}, `(did you mean "o200k_base"?)`},
		{[]string{"export", book, "--to", "card_v3"}, `(did you mean "card-v3"?)`},
		{[]string{"lint", book, "--enable", "engine-divergnce"}, `(did you mean "engine-divergence"?)`},
		{[]string{"validate", book, "--color", "nevr"}, `(did you mean "never"?)`},
		{[]string{"schema", "lorbook"}, `(did you mean "lorebook"?)`},
		{[]string{"help", "rendr"}, `(did you mean "render"?)`},
		{[]string{"lint", book, "--config", cfg}, `unknown rule "keyword-colision" (did you mean "keyword-collision"?)`},
	} {
		out, errOut, code := runCmd(t, IO{}, tc.args...)
		if code != ExitUsage || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}

// Command mutate re-runs the mutation check of issue 16: each mutant is a
// small change to lore's code that a user would notice, and the tests must
// fail with it in place ("killed"). A mutant that passes the tests
// ("survived") is a behaviour no test holds.
//
// Mutants find their code by text, not by file and line, so they survive
// files moving between packages; one whose text is not found exactly once
// is reported as stale, to be updated here.
//
// Usage, from the repository root:
//
//	go run ./scripts/mutate            # every mutant
//	go run ./scripts/mutate -list      # the mutants, without running them
//	go run ./scripts/mutate -only cap  # the mutants whose name contains "cap"
//
// For each mutant it runs `go test` on the package of the mutated file, the
// end-to-end scripts (the root package) and ./cmd, then restores the file.
// The exit code is 0 when every mutant was killed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

type mutant struct {
	name string // what a user would see go wrong
	old  string // code as it is (found exactly once in the non-test Go files)
	new  string // the change
}

var mutants = []mutant{
	{"an entry that exactly fits the Required cap is reported as cut",
		"case t <= left:", "case t < left:"},
	{"share flooring without its float tolerance (0.29 × 100 → 28)",
		"math.Floor(share*float64(n) + 1e-9)", "math.Floor(share*float64(n))"},
	{"orphan [Example Chat] markers no longer dropped",
		"\tb.dropOrphanMarkers()\n", "\n"},
	{"default recursionLimit 3 → 2",
		"RecursionLimit:  3,", "RecursionLimit:  2,"},
	{"SillyTavern export of the default chat-history position (1 → 0)",
		"return stAfterChar // the triggered block follows the character definitions",
		"return stBeforeChar // the triggered block follows the character definitions"},
	{"SillyTavern position 6 collapsing into 5 on export",
		"if pos != stBeforeExample && pos != stAfterExample {", "if pos != stBeforeExample {"},
	{"an enabled SillyTavern outlet comes back disabled through a card",
		`out["enabled"] = st["disable"] != true`, `out["enabled"] = e.Enabled`},
	{"an export to NovelAI changes whole-word matching without saying so",
		"if !e.MatchWholeWords {\n\t\tx.add(", "if false {\n\t\tx.add("},
	{"a .charx listing 100,000 files is parsed before it is refused",
		"if n > maxCharXFiles {", "if n > 100*maxCharXFiles {"},
	{"secondary keywords looked for only in the newest message with the primary",
		"return wg != nil && wg.n[mode] > 0", "return wg != nil && wg.last[mode] == t.msg"},
	{"a card activated by a system-presets entry is dropped although its parent was sent",
		"if b.st[i].kept && b.pieces[i].Key != \"\" {", "if false && b.st[i].kept {"},
	{"a long entries list written in chunks loses its first line",
		"out.Write(chunk[bytes.IndexByte(chunk, '\\n')+1:])", "out.Write(chunk)"},
	{"Yumina's alwaysSend default forgotten by lint",
		"x.alwaysSend, x.defaultAlwaysSend = false, true", "x.defaultAlwaysSend = true"},
}

func main() {
	list := flag.Bool("list", false, "list the mutants and where their code is, run nothing")
	only := flag.String("only", "", "run only the mutants whose name contains this text")
	flag.Parse()
	if _, err := os.Stat("go.mod"); err != nil {
		fmt.Fprintln(os.Stderr, "mutate: run from the repository root (go run ./scripts/mutate)")
		os.Exit(2)
	}
	files, err := goFiles()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	bad := 0
	for _, m := range mutants {
		if *only != "" && !strings.Contains(m.name, *only) {
			continue
		}
		file, err := locate(files, m.old)
		if err != nil {
			fmt.Printf("STALE     %s: %v\n", m.name, err)
			bad++
			continue
		}
		if *list {
			fmt.Printf("%-9s %s (%s)\n", "", m.name, file)
			continue
		}
		start := time.Now()
		killedBy, err := run(file, m)
		switch {
		case err != nil:
			fmt.Printf("ERROR     %s (%s): %v\n", m.name, file, err)
			bad++
		case killedBy == "":
			fmt.Printf("SURVIVED  %s (%s), %s\n", m.name, file, time.Since(start).Round(time.Second))
			bad++
		default:
			fmt.Printf("killed    %s (%s) by %s, %s\n", m.name, file, killedBy, time.Since(start).Round(time.Second))
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}

// goFiles lists the non-test Go files of the module, but this command's own.
func goFiles() ([]string, error) {
	var out []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "testdata" || p == filepath.Join("scripts", "mutate")) {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// locate finds the one file holding text.
func locate(files []string, text string) (string, error) {
	var found []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		if n := bytes.Count(b, []byte(text)); n > 0 {
			for range n {
				found = append(found, f)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("code %q not found: it changed or moved; update scripts/mutate", text)
	}
	return "", fmt.Errorf("code %q found %d times (%s): make it unique in scripts/mutate", text, len(found), strings.Join(found, ", "))
}

// run applies m to file, runs the tests and restores the file. It returns the
// first failing test, or "" when the tests pass with the mutant in place.
func run(file string, m mutant) (string, error) {
	orig, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(file)
	if err != nil {
		return "", err
	}
	restore := func() { os.WriteFile(file, orig, st.Mode().Perm()) }
	// An interrupted run must not leave the mutant behind.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			restore()
			os.Exit(130)
		}
	}()
	defer restore()
	if err := os.WriteFile(file, bytes.Replace(orig, []byte(m.old), []byte(m.new), 1), st.Mode().Perm()); err != nil {
		return "", err
	}
	pkg := "./" + filepath.ToSlash(filepath.Dir(file))
	cmd := exec.Command("go", "test", "-count=1", pkg, ".", "./cmd")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if err == nil {
		return "", nil
	}
	if _, ok := err.(*exec.ExitError); !ok {
		return "", err
	}
	if strings.Contains(out.String(), "[build failed]") || strings.Contains(out.String(), "[setup failed]") {
		return "", fmt.Errorf("the mutant does not compile:\n%s", out.String())
	}
	if f := regexp.MustCompile(`--- FAIL: (\S+)`).FindAllStringSubmatch(out.String(), -1); len(f) > 0 {
		return f[len(f)-1][1], nil
	}
	return "a failing test", nil
}

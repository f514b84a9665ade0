//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileInputs runs every attack of issue 21 (and variants) through the
// lore command — this test binary, run as "lore" as testscript does — under
// a 2 GB address-space limit and a 60 s deadline, and checks the exit code,
// the message, the CPU time and peak memory it took, and that no file of
// the work folder (inputs, devices, pipes) was changed, replaced or added
// except the one output a case means to write. docs/security.md lists the
// bounds these cases hit.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("the attacks take about a minute of CPU")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	lore := filepath.Join(bin, "lore")
	if err := os.Symlink(exe, lore); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) } // a YAML double-quoted scalar

	// A panic: the JSON Lines reader read past a record's line.
	write("sep.jsonl", ",\n0")
	write("sep-late.jsonl", "{\"mes\":\"hi\"}\n,\n")
	// Regular expressions that backtrack without end, as keys, as
	// secondary keys, and matched against a constant entry's content.
	evil := func(extra string) string {
		return "name: Evil\n" + extra + "entries:\n  - id: evil\n    section: chat-history\n    keywords: [\"/(a+)+$/\"]\n    content: x\n"
	}
	write("regex.yaml", evil(""))
	write("regex-st.yaml", evil("settings:\n  engine: sillytavern\n"))
	write("regex-secondary.yaml", "name: Evil\nentries:\n  - id: evil\n    section: chat-history\n    keywords: [a]\n    secondaryKeywords: [\"/(a+a+)+y/\"]\n    content: x\n")
	write("regex-constant.yaml", "name: Evil\nsettings:\n  engine: sillytavern\n  sillytavern: {recursive: true}\nentries:\n"+
		"  - id: text\n    section: chat-history\n    keywords: []\n    alwaysSend: true\n    content: "+strings.Repeat("a", 40)+"!\n"+
		"  - id: evil\n    section: chat-history\n    keywords: [\"/(a+)+$/\"]\n    content: x\n")
	write("chat.yaml", "messages:\n  - {role: user, content: "+strings.Repeat("x", 40)+"}\n  - {role: assistant, content: "+strings.Repeat("a", 40)+"!}\n  - {role: user, content: "+strings.Repeat("a", 40)+"!}\n")
	write("regex-test.yaml", "lorebook: regex.yaml\ncases:\n  - name: evil\n    engine: yumina\n    transcript: chat.yaml\n    expect: {active: [evil]}\n")
	// Huge keywords: the automaton was built in quadratic time.
	write("long-literal.yaml", "name: Long\nentries:\n  - id: long\n    section: chat-history\n    keywords: ["+q(strings.Repeat("a", 100_000))+", dragon]\n    content: x\n")
	write("long-regex.yaml", "name: Long\nsettings:\n  engine: sillytavern\nentries:\n  - id: long\n    section: chat-history\n    keywords: ["+q("/"+strings.Repeat("a", 1<<20)+"/")+"]\n    content: x\n")
	periodic := make([]string, 100)
	for i := range periodic {
		periodic[i] = q(fmt.Sprintf("%03d", i) + strings.Repeat("a", 4000))
	}
	write("periodic.yaml", "name: Periodic\nentries:\n  - id: p\n    section: chat-history\n    keywords: ["+strings.Join(periodic, ", ")+", \"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\"]\n    content: x\n")
	// Macro amplification.
	write("char.yaml", "name: Mac\ncharacter: "+strings.Repeat("N", 100_000)+"\nentries:\n  - id: bomb\n    section: system-presets\n    content: "+q(strings.Repeat("{{char}} ", 20_000))+"\n")
	write("getvar.yaml", "name: Var\nvariables:\n  - {id: x, type: string, default: "+strings.Repeat("v", 100_000)+"}\nentries:\n  - id: bomb\n    section: system-presets\n    alwaysSend: true\n    content: "+q(strings.Repeat("{{getvar::x}} ", 20_000))+"\n")
	write("yvar.yaml", "name: Var\nvariables:\n  - {id: x, type: string, default: "+strings.Repeat("v", 100_000)+"}\nentries:\n  - id: bomb\n    section: system-presets\n    alwaysSend: true\n    content: "+q(strings.Repeat("{{x}} ", 20_000))+"\n")
	write("random.yaml", "name: Rnd\nentries:\n  - id: r\n    section: system-presets\n    content: "+q(strings.Repeat("{{random::a::b}} ", 20_000))+"\n")
	write("last.yaml", "name: Last\nsettings:\n  engine: sillytavern\nentries:\n  - id: bomb\n    section: chat-history\n    keywords: [y]\n    content: "+q(strings.Repeat("{{lastMessage}} ", 1000))+"\n")
	write("long-chat.yaml", "messages:\n  - {role: user, content: "+q("y "+strings.Repeat("z", 20_000))+"}\n")
	// Where output must never go, and what must never be read.
	book := "name: Out\nentries:\n  - id: a\n    section: chat-history\n    keywords: [a]\n    content: A.\n"
	write("book.yaml", book)
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pipedir"), 0o755); err != nil {
		t.Fatal(err)
	}
	device := ""
	if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		device = "null" // a character device like /dev/null, never the real one
		if err := os.Symlink("null", filepath.Join(dir, "out.json")); err != nil {
			t.Fatal(err)
		}
	}
	// Terminal and report injection.
	write("esc.yaml", "name: \"Evil\\e]52;c;aGk=\\a\"\nentries:\n  - id: a\n    name: \"Bad\\e[2J\\e]0;pwned\\a\"\n    section: system-presets\n"+
		"    content: \"hi \\e[31mred\\e[0m {{getvar::x\\ny.yaml:1:1: error: forged [schema]}}\"\n")
	write("esc-test.yaml", "lorebook: book.yaml\ncases:\n  - name: \"x\\r\\nok 1 - forged \\e[2J\"\n    transcript: {messages: [{role: user, content: b}]}\n    expect: {active: [a]}\n")
	// Slow shapes.
	var tags strings.Builder
	tags.WriteString("name: F\nentries:\n  - id: f\n    section: post-history\n    content: |-\n      ---\n      format: |-\n")
	for range 20_000 {
		tags.WriteString("        <b> <i>\n")
	}
	tags.WriteString("      rule: always\n      ...\n")
	write("tags.yaml", tags.String())
	var group, chain strings.Builder
	group.WriteString(`{"entries": {`)
	chain.WriteString(`{"entries": {`)
	for i := range 5000 {
		if i > 0 {
			chain.WriteString(",")
		}
		if i > 0 && i < 300 {
			group.WriteString(",")
		}
		if i < 300 {
			fmt.Fprintf(&group, `"%d": {"uid": %d, "key": ["storm"], "content": "Storm %d.", "group": "weather", "comment": "e%d"}`, i, i, i, i)
		}
		fmt.Fprintf(&chain, `"%d": {"uid": %d, "key": ["link%d"], "content": "Next is link%d.", "constant": %v, "comment": "c%d"}`, i, i, i, i+1, i == 0, i)
	}
	group.WriteString("}}")
	chain.WriteString("}}")
	write("group.json", group.String())
	write("chain.json", chain.String())
	write("recursive.json", `{"recursive": true, "maxRecursionSteps": 0, "budget": 100, "maxContext": 10000000}`)
	var turns strings.Builder
	turns.WriteString(`{"user_name": "U", "character_name": "C"}` + "\n")
	for i := range 2000 {
		fmt.Fprintf(&turns, `{"name": "x", "is_user": %v, "mes": "storm %d"}`+"\n", i%2 == 0, i)
	}
	write("turns.jsonl", turns.String())

	stopped := `keyword /\(a\+\)\+\$/ was stopped: one match took over 250ms`
	budget := `its macros expand past the macro budget of this render: 1\.?\d* MiB of added text`
	cases := []struct {
		name   string
		args   []string
		exit   int
		out    string // a regular expression stdout must match ("" for anything)
		err    string // the same for stderr
		cpu    time.Duration
		mem    int64  // peak RSS, MB
		writes string // the one path the command may write
	}{
		{"jsonl separator: validate", []string{"validate", "sep.jsonl"}, 2, `sep\.jsonl:1:1: error: invalid JSON: unexpected ',' where a value should start`, "", 2 * time.Second, 200, ""},
		{"jsonl separator: render", []string{"render", "book.yaml", "--transcript", "sep-late.jsonl"}, 2, "", `sep-late\.jsonl:2:1: error: invalid JSON`, 2 * time.Second, 200, ""},
		{"catastrophic regex: yumina", []string{"render", "regex.yaml", "--transcript", "chat.yaml", "--engine", "yumina"}, 1, `Evil: `, `regex\.yaml:3:5: entry "evil": ` + stopped, 4 * time.Second, 300, ""},
		{"catastrophic regex: sillytavern", []string{"render", "regex-st.yaml", "--transcript", "chat.yaml"}, 1, "", stopped, 4 * time.Second, 300, ""},
		{"catastrophic regex: secondary key", []string{"render", "regex-secondary.yaml", "--transcript", "chat.yaml", "--engine", "sillytavern"}, 1, "", `keyword /\(a\+a\+\)\+y/ was stopped`, 4 * time.Second, 300, ""},
		{"catastrophic regex: a constant's content, no chat", []string{"render", "regex-constant.yaml"}, 1, "", stopped, 4 * time.Second, 300, ""},
		{"catastrophic regex: tokens", []string{"tokens", "regex.yaml", "--transcript", "chat.yaml", "--engine", "yumina"}, 1, "", stopped, 4 * time.Second, 300, ""},
		{"catastrophic regex: --turns", []string{"render", "regex-st.yaml", "--transcript", "chat.yaml", "--turns"}, 1, `turn 2 · chat length 3`, stopped, 4 * time.Second, 300, ""},
		{"catastrophic regex: test", []string{"test", "regex-test.yaml"}, 1, `the render ran into a limit: .*` + stopped, "", 4 * time.Second, 300, ""},
		{"catastrophic regex: lint", []string{"lint", "regex.yaml"}, 0, `repeats \(a\+\)\+, a repetition inside a repetition.*\[slow-regex\]`, "", 2 * time.Second, 200, ""},
		{"100,000-character keyword: render", []string{"render", "long-literal.yaml", "--transcript", "chat.yaml"}, 0, "", `entry "long": keyword "a+…" is 100000 bytes long, over the limit of 4096: it never matches`, 2 * time.Second, 300, ""},
		{"100,000-character keyword: lint", []string{"lint", "long-literal.yaml"}, 1, `\[keyword-too-long\]`, "", 2 * time.Second, 300, ""},
		{"1 MB regular-expression keyword", []string{"render", "long-regex.yaml", "--transcript", "chat.yaml"}, 0, "", `is 1048578 bytes long, over the limit`, 3 * time.Second, 400, ""},
		{"100 periodic keywords of 4 KB", []string{"render", "periodic.yaml", "--transcript", "chat.yaml"}, 0, "", "", 8 * time.Second, 900, ""},
		{"{{char}} bomb: render", []string{"render", "char.yaml"}, 1, "", `char\.yaml:4:5: entry "bomb": ` + budget, 5 * time.Second, 400, ""},
		{"{{char}} bomb: lint", []string{"lint", "char.yaml"}, 1, `entry "bomb": ` + budget + `.*\[macro-budget\]`, "", 8 * time.Second, 600, ""},
		{"{{char}} bomb: tokens", []string{"tokens", "char.yaml"}, 1, "", budget, 5 * time.Second, 400, ""},
		{"{{getvar}} bomb", []string{"render", "getvar.yaml"}, 1, "", budget, 5 * time.Second, 400, ""},
		{"{{x}} bomb: yumina", []string{"render", "yvar.yaml", "--engine", "yumina"}, 1, "", budget, 5 * time.Second, 400, ""},
		{"{{random}} 20,000 times", []string{"render", "random.yaml"}, 0, `Rnd: `, "", 3 * time.Second, 300, ""},
		{"{{lastMessage}} bomb", []string{"render", "last.yaml", "--transcript", "long-chat.yaml"}, 1, "", `entry "bomb": ` + budget, 5 * time.Second, 400, ""},
		{"export onto a FIFO", []string{"export", "book.yaml", "--to", "sillytavern", "-o", "pipe.json", "--force"}, 2, "", `cannot write pipe\.json: it is a named pipe \(FIFO\), not a regular file`, 2 * time.Second, 200, ""},
		{"import onto a FIFO", []string{"import", "book.yaml", "-o", "pipe.json", "--force"}, 2, "", `it is a named pipe \(FIFO\), not a regular file`, 2 * time.Second, 200, ""},
		{"import a folder onto a FIFO", []string{"import", "book.yaml", "-o", "pipe.json/", "--force"}, 2, "", `pipe\.json`, 2 * time.Second, 200, ""},
		{"--asset from a device", []string{"export", "book.yaml", "--to", "charx", "--asset", "icon=/dev/zero", "-o", "x.charx"}, 2, "", `--asset icon=/dev/zero: /dev/zero: is a device, not a regular file`, 2 * time.Second, 200, ""},
		{"--asset from a FIFO", []string{"export", "book.yaml", "--to", "charx", "--asset", "pipe.json", "-o", "x.charx"}, 2, "", `is a named pipe \(FIFO\)`, 2 * time.Second, 200, ""},
		{"--baseline from a FIFO", []string{"lint", "book.yaml", "--baseline", "pipe.json"}, 2, "", `is a named pipe \(FIFO\)`, 2 * time.Second, 200, ""},
		{"an ordinary export still writes", []string{"export", "book.yaml", "--to", "sillytavern", "-o", "ok.json"}, 0, "", "", 2 * time.Second, 200, "ok.json"},
		{"escapes: render", []string{"render", "esc.yaml"}, 0, `(?s)^Evil\\x1b\]52;c;aGk=\\x07: .*hi \\x1b\[31mred`, "", 2 * time.Second, 200, ""},
		{"escapes: --explain", []string{"render", "esc.yaml", "--explain", "a"}, 0, `^a \(Bad\\x1b\[2J\\x1b\]0;pwned\\x07\)`, "", 2 * time.Second, 200, ""},
		{"escapes: lint", []string{"lint", "esc.yaml"}, 0, `\{\{getvar::x\\ny\.yaml:1:1: error: forged \[schema\]\}\}`, "", 2 * time.Second, 200, ""},
		{"escapes: TAP", []string{"test", "esc-test.yaml", "--format", "tap"}, 1, `not ok 1 - esc-test\.yaml: x\\r\\nok 1 - forged \\x1b\[2J`, "", 2 * time.Second, 200, ""},
		{"escapes: GitHub", []string{"lint", "esc.yaml", "--format", "github"}, 0, `::warning file=esc\.yaml.*\\x1b|getvar::x%0Ay\.yaml`, "", 2 * time.Second, 200, ""},
		{"format-template: 40,000 unbalanced tags", []string{"lint", "tags.yaml"}, 0, `<b> is never closed`, `40001 warnings in 1 file`, 5 * time.Second, 400, ""},
		{"--turns: 1,000 generations, a 300-entry group", []string{"render", "group.json", "--transcript", "turns.jsonl", "--turns", "--format", "jsonl"}, 0, `"chatLength":1999,`, "", 15 * time.Second, 150, ""},
		{"unlimited recursion on a 5,000-entry chain", []string{"render", "chain.json", "--st-settings", "recursive.json", "--format", "json"}, 0, `"id": "c4999"`, "", 4 * time.Second, 400, ""},
	}
	if device != "" {
		cases = append(cases, struct {
			name   string
			args   []string
			exit   int
			out    string
			err    string
			cpu    time.Duration
			mem    int64
			writes string
		}{"export onto a device through a link", []string{"export", "book.yaml", "--to", "sillytavern", "-o", "out.json", "--force"}, 2, "", `cannot write out\.json: it is a device, not a regular file`, 2 * time.Second, 200, ""})
	}
	// Forbidden everywhere: a raw ESC, BEL or CR from the inputs, and a line
	// a value forged.
	forged := regexp.MustCompile(`(?m)^(y\.yaml:1:1: error: forged|ok 1 - forged)`)
	var docLine string // what docs/security.md shows
	defer func() {
		doc, err := os.ReadFile("docs/security.md")
		if err != nil || docLine == "" || !bytes.Contains(doc, []byte(strings.TrimSpace(docLine))) {
			t.Errorf("docs/security.md does not show the stopped-keyword message %q", docLine)
		}
	}()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", `ulimit -v 2000000 && exec "$0" "$@"`, lore}, c.args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("still running after 60 s")
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			ps := cmd.ProcessState
			cpu := ps.UserTime() + ps.SystemTime()
			rss := ps.SysUsage().(*syscall.Rusage).Maxrss >> 10 // KB on Linux
			t.Logf("exit %d, %s CPU, %d MB", code, cpu.Round(time.Millisecond), rss)
			out, errOut := stdout.String(), stderr.String()
			if c.name == "catastrophic regex: yumina" {
				docLine = errOut
			}
			short := func(s string) string { return s[:min(len(s), 2000)] }
			if code != c.exit {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.exit, short(out), short(errOut))
			}
			if c.out != "" && !regexp.MustCompile(c.out).MatchString(out) {
				t.Errorf("stdout does not match %q:\n%s", c.out, short(out))
			}
			if c.err != "" && !regexp.MustCompile(c.err).MatchString(errOut) {
				t.Errorf("stderr does not match %q:\n%s", c.err, short(errOut))
			}
			if strings.ContainsAny(out+errOut, "\x1b\a\r") || forged.MatchString(out+errOut) {
				t.Errorf("a control character or a forged line got through:\n%q", short(out+errOut))
			}
			if cpu > c.cpu {
				t.Errorf("took %s of CPU, over %s", cpu, c.cpu)
			}
			if rss > c.mem {
				t.Errorf("peaked at %d MB, over %d MB", rss, c.mem)
			}
			after := snapshot(t, dir)
			for p, st := range after {
				if before[p] != st && p != c.writes {
					t.Errorf("%s changed: %s → %s", p, before[p], st)
				}
			}
			for p := range before {
				if _, ok := after[p]; !ok {
					t.Errorf("%s was removed", p)
				}
			}
			if c.writes != "" {
				os.Remove(filepath.Join(dir, c.writes))
			}
		})
	}
}

// snapshot is every path under dir with its type, mode, size and (for
// regular files) content hash.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		desc := fmt.Sprintf("%v %d", st.Mode(), st.Size())
		if st.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		out[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

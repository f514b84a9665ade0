package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer a command writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// copyEldoria copies the bundled example into a temporary folder, for tests
// that change its files.
func copyEldoria(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "eldoria")
	if err := os.CopyFS(dir, os.DirFS("../fixtures/eldoria")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func eldoriaArgs(dir string) []string {
	return []string{filepath.Join(dir, "book"), "--transcript", filepath.Join(dir, "transcript.yaml"), "--vars", filepath.Join(dir, "vars.yaml")}
}

// running is a command started in-process that runs until stopped.
type running struct {
	stdout, stderr *syncBuffer
	stop           func() int // interrupts the command and returns its exit code
}

// start runs lore args in-process until the returned stop.
func start(t testing.TB, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := untilInterrupted
	untilInterrupted = func() (context.Context, context.CancelFunc) { return ctx, func() {} }
	r := &running{stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	done := make(chan int, 1)
	go func() { done <- Main(args, IO{Stdin: strings.NewReader(""), Stdout: r.stdout, Stderr: r.stderr}) }()
	var once sync.Once
	code := 0
	r.stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(10 * time.Second):
				t.Errorf("lore %s did not stop", strings.Join(args, " "))
			}
			untilInterrupted = old
		})
		return code
	}
	t.Cleanup(func() { r.stop() })
	return r
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startServe starts lore serve and returns it with its URL, read from the
// first line of its stderr.
func startServe(t testing.TB, args ...string) (*running, string) {
	t.Helper()
	r := start(t, append([]string{"serve"}, args...)...)
	var url string
	waitFor(t, "the serving line", func() bool {
		line, _, ok := strings.Cut(r.stderr.String(), "\n")
		url, _ = strings.CutPrefix(line, "serving ")
		return ok && url != line
	})
	return r, url
}

type renderAnswer struct {
	Version int               `json:"version"`
	Err     string            `json:"error"`
	Parts   map[string]string `json:"parts"`
	Chat    string            `json:"chat"`
	Lint    string            `json:"lint"`
	Fired   []string          `json:"fired"`
}

func postRender(t testing.TB, url, body string) renderAnswer {
	t.Helper()
	resp, err := http.Post(url+"api/render", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a renderAnswer
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestServe(t *testing.T) {
	dir := copyEldoria(t)
	r, url := startServe(t, eldoriaArgs(dir)...)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("serving %q: want http://127.0.0.1:PORT/", url)
	}
	if strings.Contains(r.stderr.String(), "warning") {
		t.Errorf("a warning on loopback: %s", r.stderr.String())
	}

	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"<title>Eldoria · lore serve</title>", `<textarea id="message" aria-label="Message"`, `<option value="sillytavern">SillyTavern</option>`, "<h2>Lint</h2>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	req, _ := http.NewRequest("GET", url, nil)
	req.Host = "rebind.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a foreign Host: %v %v, want 421", resp.StatusCode, err)
	}

	msg := `{"engine":"lore","messages":[{"role":"user","content":"Which knight guards the bridge?"}]}`
	a := postRender(t, url, msg)
	if a.Err != "" || !strings.Contains(strings.Join(a.Fired, " "), "silver-order") || !strings.Contains(a.Chat, "<mark>knight</mark>") {
		t.Fatalf("error %q, fired %v, chat %s", a.Err, a.Fired, a.Chat)
	}

	// A keyword changed on disk: the server reads the files again.
	places := filepath.Join(dir, "book", "entries", "places.yaml")
	data, err := os.ReadFile(places)
	if err != nil {
		t.Fatal(err)
	}
	edit := strings.Replace(string(data), `keywords: [Silver Order, "/\\bknights?\\b/i"]`, `keywords: [Silver Order, paladin]`, 1)
	if edit == string(data) {
		t.Fatal("the fixture's silver-order keywords moved: update the test")
	}
	if err := os.WriteFile(places, []byte(edit), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reload", func() bool { return postRender(t, url, msg).Version == 2 })
	if a := postRender(t, url, msg); strings.Contains(strings.Join(a.Fired, " "), "silver-order") {
		t.Errorf("after the edit the knight still fires silver-order: %v", a.Fired)
	}

	// A broken file: its error, with its place, instead of a prompt.
	if err := os.WriteFile(places, []byte("- id: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the broken reload", func() bool { return postRender(t, url, msg).Version == 3 })
	if a := postRender(t, url, msg); !strings.Contains(a.Err, "places.yaml:2:1: error: invalid YAML") || a.Parts != nil || !strings.Contains(a.Chat, "Which knight") {
		t.Errorf("a broken file: error %q, parts %v, chat %q", a.Err, a.Parts != nil, a.Chat)
	}
	if resp, err := http.Get(url); err == nil {
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(page), `<option value="sillytavern">SillyTavern</option>`) || !strings.Contains(string(page), "The files cannot be rendered") {
			t.Errorf("the page of a broken book lacks the engine switch or the error")
		}
	}
	if code := r.stop(); code != 0 {
		t.Errorf("exit %d after Ctrl-C, want 0; stderr:\n%s", code, r.stderr.String())
	}
	for _, f := range []string{"transcript.yaml", "vars.yaml"} {
		got, _ := os.ReadFile(filepath.Join(dir, f))
		want, _ := os.ReadFile(filepath.Join("../fixtures/eldoria", f))
		if !bytes.Equal(got, want) {
			t.Errorf("serve changed %s", f)
		}
	}
}

func TestServeWarnsOffLoopback(t *testing.T) {
	r, url := startServe(t, append(eldoriaArgs("../fixtures/eldoria"), "--addr", "0.0.0.0:0")...)
	if !strings.Contains(r.stderr.String(), "warning: 0.0.0.0:") || !strings.Contains(r.stderr.String(), "not a loopback address") {
		t.Errorf("no warning for 0.0.0.0: %s", r.stderr.String())
	}
	if !strings.HasPrefix(url, "http://0.0.0.0:") {
		t.Errorf("serving %s", url)
	}
}

func TestStdinRefused(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-"},
		{"serve", "../fixtures/eldoria/book", "--transcript", "-"},
		{"render", "--watch", "-"},
		{"render", "--watch", "../fixtures/eldoria/book", "--vars", "-"},
		{"lint", "--watch", "../fixtures/eldoria/book", "-"},
	} {
		var out, errb bytes.Buffer
		code := Main(args, IO{Stdin: strings.NewReader("name: x\n"), Stdout: &out, Stderr: &errb})
		if code != ExitUsage || !strings.Contains(errb.String(), "- is standard input: name the files") {
			t.Errorf("lore %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

func TestServeBadAddr(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(append([]string{"serve", "--addr", "256.1.1.1:99999"}, eldoriaArgs("../fixtures/eldoria")...), IO{Stdout: &out, Stderr: &errb})
	if code != ExitUsage || !strings.Contains(errb.String(), "--addr") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestWatch: render --watch and lint --watch print what a normal run prints,
// then again after a change.
func TestWatch(t *testing.T) {
	dir := copyEldoria(t)
	for _, c := range []struct {
		cmd  string
		args []string
	}{
		{"render", eldoriaArgs(dir)},
		{"lint", []string{filepath.Join(dir, "book")}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			var once bytes.Buffer
			Main(append([]string{c.cmd}, c.args...), IO{Stdout: &once, Stderr: io.Discard})
			r := start(t, append([]string{c.cmd, "--watch"}, c.args...)...)
			waitFor(t, "the first run", func() bool { return strings.Contains(r.stderr.String(), "watching the files") })
			if r.stdout.String() != once.String() {
				t.Fatalf("the first run printed otherwise than lore %s:\n%s", c.cmd, r.stdout.String())
			}
			places := filepath.Join(dir, "book", "entries", "places.yaml")
			data, _ := os.ReadFile(places)
			if err := os.WriteFile(places, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the second run", func() bool { return strings.Count(r.stderr.String(), "watching the files") == 2 })
			if r.stdout.String() != once.String()+once.String() {
				t.Errorf("the second run printed otherwise:\n%s", r.stdout.String())
			}
			r.stop()
		})
	}
}

// TestServeForeignFormat: a SillyTavern book is served as SillyTavern
// renders it, said once on stderr after the serving line, as render says it.
func TestServeForeignFormat(t *testing.T) {
	r, url := startServe(t, "../fixtures/formats/st_edge_cases.json")
	waitFor(t, "the note", func() bool { return strings.Contains(r.stderr.String(), "rendering as SillyTavern would") })
	if lines := strings.Split(r.stderr.String(), "\n"); !strings.HasPrefix(lines[0], "serving ") {
		t.Errorf("the first stderr line is %q", lines[0])
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), `<option value="sillytavern" selected>`) {
		t.Errorf("the engine switch is not on SillyTavern")
	}
}

// TestWatchClearsTerminal: on a terminal each run starts on a cleared screen;
// a run's error is printed and the watch goes on, ending with its code.
func TestWatchClearsTerminal(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "book.yaml")
	if err := os.WriteFile(f, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	old := untilInterrupted
	untilInterrupted = func() (context.Context, context.CancelFunc) { return ctx, func() {} }
	defer func() { untilInterrupted = old }()
	out, errb := &syncBuffer{}, &syncBuffer{}
	iox := &IO{Stdout: out, Stderr: errb, IsTerminal: true}
	runs := 0
	done := make(chan error, 1)
	go func() {
		done <- watchRuns(iox, []string{f}, func() error {
			runs++
			io.WriteString(out, "run\n")
			return usageErr("run %d failed", runs)
		})
	}()
	waitFor(t, "the first run", func() bool { return strings.Contains(errb.String(), "watching the files") })
	if err := os.WriteFile(f, []byte("name: y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second run", func() bool { return strings.Count(errb.String(), "watching the files") == 2 })
	cancel()
	err := <-done
	if got, want := out.String(), clearScreen+"run\n"+clearScreen+"run\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if !strings.Contains(errb.String(), "lore: run 1 failed\n") || !strings.Contains(errb.String(), "lore: run 2 failed\n") {
		t.Errorf("stderr %q", errb.String())
	}
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitUsage || ee.err != nil {
		t.Errorf("the watch ended with %v, want exit 2 already printed", err)
	}
}

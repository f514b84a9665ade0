package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// findBrowser is the Chromium the browser tests drive: $LORE_CHROMIUM, else
// the first of the usual names on $PATH.
func findBrowser() string {
	if p := os.Getenv("LORE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium with a fresh profile, nothing fetched
// from the network, and rebind.test resolving to this machine (the name a
// DNS rebinding attack would use). It skips the test when no browser can be
// had, unless LORE_REQUIRE_BROWSER is set (CI sets it: .ci/run installs
// Chromium).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := findBrowser()
	if path == "" {
		if os.Getenv("LORE_REQUIRE_BROWSER") != "" {
			t.Fatal("no Chromium found (LORE_CHROMIUM, or chromium on $PATH), and LORE_REQUIRE_BROWSER is set")
		}
		t.Skip("no Chromium to drive (install chromium, or set LORE_CHROMIUM): the browser test is skipped")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancel(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// inPrompt is a script that says whether the trace's first table, "In the
// prompt", lists an entry id.
func inPrompt(id string) string {
	return `(() => { const t = document.querySelector("#trace table"); return !!t && t.innerText.includes(` + quoteJS(id) + `); })()`
}

func quoteJS(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestServeInBrowser drives the page in a real browser: a typed message
// fires an entry, a keyword edited on disk changes the page by itself (the
// message kept), the search narrows the trace, a broken file shows its
// error, and a page reached through a foreign host name is refused.
func TestServeInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := copyEldoria(t)
	_, url := startServe(t, eldoriaArgs(dir)...)
	wait := []chromedp.PollOption{chromedp.WithPollingTimeout(10 * time.Second), chromedp.WithPollingInterval(50 * time.Millisecond)}

	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`textarea[aria-label="Message"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if in, err := chromedp.Run(ctx, chromedp.Evaluate[bool](inPrompt("act2-ambush"))); err != nil || in {
		t.Fatalf("act2-ambush is in the prompt before any message (%v)", err)
	}

	// Type a message with one of act2-ambush's keywords (its condition,
	// story-phase act2, holds in vars.yaml) and send it.
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`textarea[aria-label="Message"]`), "Is the bridge safe at night?"),
		chromedp.Click(chromedp.CSS(`#send`)),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](inPrompt("act2-ambush"), wait...)); err != nil {
		t.Fatalf("the typed message did not bring act2-ambush into the trace: %v", err)
	}
	mark, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#typed mark`)))
	if err != nil || mark != "bridge" {
		t.Errorf("the matched word marked: %q (%v), want bridge", mark, err)
	}

	// The search narrows the trace to the entry.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#search`), "ambush")); err != nil {
		t.Fatal(err)
	}
	narrowed := `(() => { const rows = [...document.querySelectorAll("#trace h3:first-of-type + table tbody tr")].filter((r) => !r.classList.contains("hidden")); return rows.length === 1 && rows[0].innerText.includes("act2-ambush"); })()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](narrowed, wait...)); err != nil {
		t.Fatalf("searching for ambush does not leave act2-ambush alone in the trace: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`)); err != nil {
		t.Fatal(err)
	}

	// Change the keyword on disk: the page follows by itself, keeping the
	// typed message, which no longer fires the entry.
	places := filepath.Join(dir, "book", "entries", "places.yaml")
	data, err := os.ReadFile(places)
	if err != nil {
		t.Fatal(err)
	}
	edit := strings.Replace(string(data), "keywords: [road, bridge]", "keywords: [road, ford]", 1)
	if edit == string(data) {
		t.Fatal("act2-ambush's keywords moved in the fixture: update the test")
	}
	if err := os.WriteFile(places, []byte(edit), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!`+inPrompt("act2-ambush"), wait...)); err != nil {
		t.Fatalf("the page did not follow the edited keyword: %v", err)
	}
	t.Logf("the page followed the edit in %v", time.Since(start))
	if kept, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#typed .text`))); err != nil || kept != "Is the bridge safe at night?" {
		t.Errorf("the typed message after the reload: %q (%v)", kept, err)
	}

	// A broken file: its error in place of the prompt, the message kept;
	// mended, the prompt comes back.
	if err := os.WriteFile(places, []byte("- id: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := `(() => { const e = document.getElementById("error"); return !e.classList.contains("hidden") && e.innerText.includes("places.yaml:2:1") && document.getElementById("prompt").offsetParent === null; })()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](broken, wait...)); err != nil {
		t.Fatalf("the page does not show the broken file's error in place of the prompt: %v", err)
	}
	if err := os.WriteFile(places, []byte(edit), 0o644); err != nil {
		t.Fatal(err)
	}
	mended := `(() => document.getElementById("error").classList.contains("hidden") && document.querySelector("#prompt details") !== null && document.querySelector("#typed .text") !== null)()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](mended, wait...)); err != nil {
		t.Fatalf("the prompt did not come back once the file was mended: %v", err)
	}

	// The same server reached as rebind.test: refused.
	rebind := strings.Replace(url, "127.0.0.1", "rebind.test", 1)
	if err := chromedp.Do(ctx, chromedp.Navigate(rebind)); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`body`)))
	if err != nil || !strings.Contains(body, "this server answers only to 127.0.0.1:") {
		t.Errorf("the page at %s: %q (%v), want the refusal", rebind, body, err)
	}
}

// TestServeScreenshots writes docs/serve.md's pictures of the page, on the
// bundled example with one message typed, at 1280 and 400 pixels wide:
// (and of the trace at 1280):
// LORE_SCREENSHOTS=../docs go test ./cmd -run TestServeScreenshots
func TestServeScreenshots(t *testing.T) {
	out := os.Getenv("LORE_SCREENSHOTS")
	if out == "" {
		t.Skip("set LORE_SCREENSHOTS to a folder to write the screenshots of docs/serve.md")
	}
	out, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	t.Chdir("..") // the page names the files as a user at the repository's root does
	_, url := startServe(t, eldoriaArgs("fixtures/eldoria")...)
	for _, size := range []struct {
		name          string
		width, height int64
		at            string // the element scrolled to the top
	}{{"serve-1280.png", 1280, 860, ""}, {"serve-400.png", 400, 860, ""}, {"serve-trace-1280.png", 1280, 860, "#trace"}} {
		scroll := `window.scrollTo(0, 0)`
		if size.at != "" {
			scroll = `document.querySelector("` + size.at + `").scrollIntoView()`
		}
		var png []byte
		err := chromedp.Do(ctx,
			chromedp.EmulateViewport(size.width, size.height),
			chromedp.Navigate(url),
			chromedp.WaitVisible(chromedp.CSS(`textarea[aria-label="Message"]`)),
			chromedp.Click(chromedp.CSS(`#reset`)), // the last size's message, kept by the page
			chromedp.Poll[chromedp.Void](`document.querySelector("#typed .typed") === null`, chromedp.WithPollingTimeout(10*time.Second)),
			chromedp.SendKeys(chromedp.CSS(`textarea[aria-label="Message"]`), "Is the bridge safe at night?"),
			chromedp.Click(chromedp.CSS(`#send`)),
			chromedp.Poll[chromedp.Void](`document.querySelector("#typed mark") !== null`, chromedp.WithPollingTimeout(10*time.Second)),
			chromedp.Evaluate[chromedp.Void](scroll),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				var err error
				png, err = chromedp.CaptureScreenshot()(ctx, tg)
				return err
			}),
		)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, size.name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// loadDir makes a Snapshot of a fixture as lore serve's command does, from
// the files alone (no .lore.yaml, no lint).
func loadDir(t testing.TB, dir string) func() *Snapshot {
	return func() *Snapshot {
		book, _, err := schema.Load(filepath.Join(dir, "book"))
		if err != nil {
			return &Snapshot{Err: err.Error()}
		}
		tr, _, err := schema.LoadTranscript(filepath.Join(dir, "transcript.yaml"))
		if err != nil {
			return &Snapshot{Err: err.Error()}
		}
		return snapshotOf(t, book, tr)
	}
}

func snapshotOf(t testing.TB, book *schema.Lorebook, tr *schema.Transcript) *Snapshot {
	c, err := tokenize.Get(book.Manifest.Settings.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Name: book.Manifest.Name, Default: engine.Default}
	for _, p := range engine.Profiles() {
		eng := p.New()
		in := &render.Input{Book: book, Transcript: tr, Settings: book.Manifest.Settings, Counter: c, EngineSettings: book.Manifest.Settings.Engines[p.Name]}
		render.DecodeEngineSettings(eng, in)
		s.Engines = append(s.Engines, Engine{Name: p.Name, Title: p.Title, Engine: eng, Input: in})
	}
	return s
}

func eldoria(t testing.TB) *Server {
	s := New(Config{Load: loadDir(t, filepath.Join("..", "fixtures", "eldoria"))})
	if s.snap.Err != "" {
		t.Fatal(s.snap.Err)
	}
	s.setAddr("127.0.0.1:4242")
	return s
}

func do(s *Server, method, target, host string, hdr map[string]string, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = host
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w
}

const jsonCT = "application/json"

func TestHostAndOrigin(t *testing.T) {
	s := eldoria(t)
	msg := `{"engine":"lore","messages":[{"role":"user","content":"the tavern"}]}`
	cases := []struct {
		name, method, target, host string
		hdr                        map[string]string
		want                       int
	}{
		{"the page", "GET", "/", "127.0.0.1:4242", nil, 200},
		{"localhost names loopback", "GET", "/", "localhost:4242", nil, 200},
		{"the script", "GET", "/app.js", "127.0.0.1:4242", nil, 200},
		{"a foreign host (DNS rebinding)", "GET", "/", "evil.example:4242", nil, 421},
		{"a foreign host on the API", "POST", "/api/render", "evil.example", map[string]string{"Content-Type": jsonCT}, 421},
		{"another port", "GET", "/", "127.0.0.1:80", nil, 421},
		{"no file is served", "GET", "/book/lorebook.yaml", "127.0.0.1:4242", nil, 404},
		{"nor a path out (cleaned to /transcript.yaml, not found)", "GET", "/../transcript.yaml", "127.0.0.1:4242", nil, 307},
		{"nor the transcript", "GET", "/transcript.yaml", "127.0.0.1:4242", nil, 404},
		{"a render", "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT}, 200},
		{"a render from the page", "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT, "Origin": "http://127.0.0.1:4242", "Sec-Fetch-Site": "same-origin"}, 200},
		{"a render from another page", "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT, "Origin": "http://evil.example"}, 403},
		{"a render another site asked for", "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT, "Sec-Fetch-Site": "cross-site"}, 403},
		{"a form post", "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"events from another page", "GET", "/api/events", "127.0.0.1:4242", map[string]string{"Origin": "http://evil.example"}, 403},
		{"GET on the render API", "GET", "/api/render", "127.0.0.1:4242", nil, 405},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := do(s, c.method, c.target, c.host, c.hdr, msg)
			if w.Code != c.want {
				t.Errorf("status %d, want %d: %s", w.Code, c.want, w.Body.String())
			}
			if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("no content security policy: %q", csp)
			}
		})
	}
}

func TestHostsUnspecified(t *testing.T) {
	s := &Server{cfg: Config{Hosts: []string{"box.lan"}}}
	s.setAddr("0.0.0.0:8080")
	for host, want := range map[string]bool{"192.168.1.5:8080": true, "[fe80::1]:8080": true, "localhost:8080": true,
		"box.lan:8080": true, "evil.example:8080": false, "192.168.1.5:9090": false, "box.lan": false} {
		if got := s.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestRenderAPI(t *testing.T) {
	s := eldoria(t)
	w := do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT},
		`{"engine":"lore","messages":[{"role":"user","content":"Is there a TAVERN here? <b>"},{"role":"assistant","content":"Ask Maren."}]}`)
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body.String())
	}
	var v struct {
		Version int               `json:"version"`
		Engine  string            `json:"engine"`
		Err     string            `json:"error"`
		Parts   map[string]string `json:"parts"`
		Chat    string            `json:"chat"`
		Fired   []string          `json:"fired"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Err != "" || v.Version != 1 || v.Engine != "lore" {
		t.Fatalf("version %d engine %q error %q", v.Version, v.Engine, v.Err)
	}
	if got := strings.Join(v.Fired, ","); got != "old-maren,sleeping-stag" {
		t.Errorf("fired %v, want old-maren and sleeping-stag", got)
	}
	for _, want := range []string{"Is there a <mark>TAVERN</mark> here? &lt;b&gt;", "Ask <mark>Maren</mark>.", `<div class="typed assistant">`} {
		if !strings.Contains(v.Chat, want) {
			t.Errorf("chat lacks %q:\n%s", want, v.Chat)
		}
	}
	if !strings.Contains(v.Parts["prompt"], "Is there a TAVERN here? &lt;b&gt;") {
		t.Errorf("the typed message is not in the prompt")
	}
	// Every engine renders; an unknown one falls back to the default.
	for _, e := range []string{"yumina", "sillytavern", "nonesuch"} {
		w := do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT}, `{"engine":"`+e+`","messages":[]}`)
		if w.Code != 200 || strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("engine %s: %d %s", e, w.Code, w.Body.String()[:min(200, w.Body.Len())])
		}
	}
	for _, bad := range []string{`{"messages":[{"role":"system","content":"x"}]}`, `{"messages":`, `[1]`} {
		if w := do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT}, bad); w.Code != 400 {
			t.Errorf("%s: status %d, want 400", bad, w.Code)
		}
	}
}

func TestHighlight(t *testing.T) {
	cases := []struct {
		text  string
		fired []firedBy
		want  string
	}{
		{"the tavern & the Tavern", []firedBy{{Keyword: "tavern"}}, "the <mark>tavern</mark> &amp; the <mark>Tavern</mark>"},
		{"the taverns", []firedBy{{Keyword: "tavern", Whole: true}}, "the taverns"},
		{"Sleeping Stag", []firedBy{{Keyword: "Sleeping Stag"}, {Keyword: "Stag"}}, "<mark>Sleeping Stag</mark>"},
		{"two knights", []firedBy{{Keyword: `/\bknights?\b/i`}}, "two <mark>knights</mark>"},
		{"nothing", []firedBy{{Keyword: ""}}, "nothing"},
		{"霧の谷へ", []firedBy{{Keyword: "霧の谷"}}, "<mark>霧の谷</mark>へ"},
	}
	for _, c := range cases {
		if got := string(highlight(c.text, c.fired)); got != c.want {
			t.Errorf("highlight(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestEvents: the stream says the version at once and again after a reload.
func TestEvents(t *testing.T) {
	s := eldoria(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	s.setAddr(strings.TrimPrefix(ts.URL, "http://"))
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- d
			}
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
		return ""
	}
	if v := next(); v != "1" {
		t.Errorf("first event %q, want 1", v)
	}
	s.Reload()
	if v := next(); v != "2" {
		t.Errorf("after a reload %q, want 2", v)
	}
}

func TestBrokenFilesShowTheirError(t *testing.T) {
	s := New(Config{Load: func() *Snapshot { return &Snapshot{Name: "x", Err: "book/lorebook.yaml:3:1: error: bad"} }})
	s.setAddr("127.0.0.1:4242")
	w := do(s, "GET", "/", "127.0.0.1:4242", nil, "")
	if !strings.Contains(w.Body.String(), "book/lorebook.yaml:3:1: error: bad") || !strings.Contains(w.Body.String(), `<section id="prompt" class="hidden">`) {
		t.Errorf("the page does not show the error in place of the prompt:\n%s", w.Body.String())
	}
	w = do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT}, `{"messages":[{"role":"user","content":"hi"}]}`)
	if !strings.Contains(w.Body.String(), `"error":"book/lorebook.yaml:3:1: error: bad"`) || !strings.Contains(w.Body.String(), "hi") {
		t.Errorf("the render does not carry the error and keep the message: %s", w.Body.String())
	}
}

// TestSearchAndLimit: the table of entries left out keeps those the search
// names (by id, name or keyword) and at most LeftOutLimit of them.
func TestSearchAndLimit(t *testing.T) {
	s := eldoria(t)
	for search, want := range map[string][]string{
		"":             {"act2-ambush", "rich-traveller"},
		"ambush":       {"act2-ambush"},
		"COIN":         {"rich-traveller"}, // a keyword
		"rich TRAVEL":  {"rich-traveller"},
		"rich ambush":  nil,
		"   ":          {"act2-ambush", "rich-traveller"},
		"Act 2 ambush": {"act2-ambush"}, // the name
	} {
		v := s.snap.Render("lore", nil, search)
		trace := string(v.Parts["trace"])
		_, out, _ := strings.Cut(trace, "Not in the prompt")
		for _, id := range []string{"act2-ambush", "rich-traveller"} {
			wanted := strings.Contains(strings.Join(want, " "), id)
			if got := strings.Contains(out, `<b>`+id+`</b>`); got != wanted {
				t.Errorf("search %q: %s shown %v, want %v", search, id, got, wanted)
			}
		}
	}
	big := bigSnapshot(t, 2*LeftOutLimit)()
	trace := string(big.Render("lore", nil, "").Parts["trace"])
	if n := strings.Count(trace, `<td class="nowrap">`); n != LeftOutLimit {
		t.Errorf("%d rows of entries left out, want %d", n, LeftOutLimit)
	}
	if !strings.Contains(trace, "more not shown: search for an entry") {
		t.Errorf("the table does not say that it is cut")
	}
	trace = string(big.Render("lore", nil, "entry-599").Parts["trace"])
	if !strings.Contains(trace, "<b>entry-599</b>") || strings.Count(trace, `<td class="nowrap">`) != 1 {
		t.Errorf("a search for entry-599 does not show it alone")
	}
}

// TestConcurrentRenders: two tabs asking at once, on every engine.
func TestConcurrentRenders(t *testing.T) {
	s := New(Config{Load: loadDir(t, filepath.Join("..", "fixtures", "eldoria"))})
	s.setAddr("127.0.0.1:4242")
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := []string{"lore", "yumina", "sillytavern"}[i%3]
			w := do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT},
				`{"engine":"`+e+`","messages":[{"role":"user","content":"the tavern and the knights"}]}`)
			if w.Code != 200 || strings.Contains(w.Body.String(), `"error"`) {
				t.Errorf("%s: %d %.200s", e, w.Code, w.Body.String())
			}
		}()
	}
	wg.Wait()
}

// FuzzRenderRequest: whatever a page sends, the server answers 200 or 400
// and never panics.
func FuzzRenderRequest(f *testing.F) {
	s := eldoria(f)
	f.Add(`{"engine":"lore","messages":[{"role":"user","content":"the tavern"}],"search":"maren"}`)
	f.Add(`{"engine":"sillytavern","messages":[{"role":"assistant","content":"\u0000<script>"}]}`)
	f.Add(`{"messages":[{"role":"system"}]}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, body string) {
		w := do(s, "POST", "/api/render", "127.0.0.1:4242", map[string]string{"Content-Type": jsonCT}, body)
		if w.Code != 200 && w.Code != 400 {
			t.Errorf("status %d for %q", w.Code, body)
		}
	})
}

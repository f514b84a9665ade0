// Package serve is `lore serve`: a local web page with the HTML report's
// content (the prompt by step, the trace, the token chart) and the lint
// findings, an engine switch, a search over the entries and a chat box whose
// messages are appended, in memory only, to the transcript on disk. The page
// follows the files: when one changes, the server reads them again (once,
// not once per message) and tells the page over server-sent events.
//
// It is safe by default (docs/serve.md): it answers only requests whose
// Host is the address it serves (a DNS rebinding page cannot reach it), its
// API refuses requests from other origins, and it serves no file: the page's
// script is embedded, the lorebook is only ever shown rendered.
package serve

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/watch"
)

// Config is what a Server serves.
type Config struct {
	// Load reads the files and makes a Snapshot of them; it is called once
	// at the start and once per change on disk.
	Load func() *Snapshot
	// Watch are the files and folders whose changes reload the page; Exts
	// the extensions that count inside a folder (watch.New).
	Watch []string
	Exts  []string
	// Hosts are names the server may be asked for besides its address (the
	// host name --addr gave).
	Hosts []string
	// Log receives one line per reload and per refused request.
	Log io.Writer
}

// Server is the live preview.
type Server struct {
	cfg Config

	mu      sync.RWMutex
	snap    *Snapshot
	version int
	subs    map[chan int]struct{}

	addr  string          // host:port it serves, once listening
	hosts map[string]bool // acceptable Host headers
	anyIP bool            // bound to every address: any IP literal Host with the port
	port  string          // the listening port
	done  chan struct{}   // closed when Serve ends
}

// New makes a server and loads the files once.
func New(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	s := &Server{cfg: cfg, subs: map[chan int]struct{}{}, done: make(chan struct{})}
	s.snap = cfg.Load()
	s.version = 1
	return s
}

// Reload reads the files again and tells every open page.
func (s *Server) Reload() {
	snap := s.cfg.Load()
	s.mu.Lock()
	s.snap = snap
	s.version++
	v := s.version
	for ch := range s.subs {
		select {
		case ch <- v:
		default: // that page has a change pending already
		}
	}
	s.mu.Unlock()
	state := "ok"
	if snap.Err != "" {
		state = "with errors"
	}
	fmt.Fprintf(s.cfg.Log, "reloaded (%s)\n", state)
}

func (s *Server) current() (*Snapshot, int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap, s.version
}

// Listen binds addr ("" is 127.0.0.1 on a free port) and returns the
// listener with the URL the page is at.
func Listen(addr string) (net.Listener, string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	network := "tcp"
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
			network = "tcp4" // 0.0.0.0 is every IPv4 address, not [::]
		}
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, "", err
	}
	return ln, "http://" + ln.Addr().String() + "/", nil
}

// IsLoopback says whether addr (host:port) names only this machine.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve answers on ln and follows the files until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.setAddr(ln.Addr().String())
	w, err := watch.New(s.cfg.Watch, s.cfg.Exts)
	if err != nil {
		return fmt.Errorf("watching the files: %w", err)
	}
	defer w.Close()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.Changes():
				s.Reload()
			case err := <-w.Errors():
				fmt.Fprintf(s.cfg.Log, "watching the files: %v\n", err)
			}
		}
	}()
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-errc:
		close(s.done)
		return err
	}
	close(s.done) // ends the event streams, which Shutdown would wait for
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// setAddr records the address served, and the Host headers that name it.
func (s *Server) setAddr(addr string) {
	s.addr = addr
	host, port, _ := net.SplitHostPort(addr)
	s.port = port
	s.hosts = map[string]bool{strings.ToLower(addr): true}
	ip := net.ParseIP(host)
	if ip != nil && ip.IsLoopback() {
		s.hosts["localhost:"+port] = true
	}
	if ip != nil && ip.IsUnspecified() {
		s.anyIP = true
		s.hosts["localhost:"+port] = true
	}
	for _, h := range s.cfg.Hosts {
		s.hosts[strings.ToLower(net.JoinHostPort(h, port))] = true
	}
}

// hostAllowed says whether a request's Host names the server. A name it does
// not know is how a DNS rebinding attack reaches a local server: a page at
// evil.example whose name now points at 127.0.0.1 sends Host: evil.example.
func (s *Server) hostAllowed(host string) bool {
	host = strings.ToLower(host)
	if s.hosts[host] {
		return true
	}
	if s.anyIP {
		h, p, err := net.SplitHostPort(host)
		return err == nil && p == s.port && net.ParseIP(strings.Trim(h, "[]")) != nil
	}
	return false
}

// sameOrigin says whether an API request comes from the page itself: a
// browser names the page that sends a request in Origin (for POST and for
// event streams opened by a page elsewhere) and, in Sec-Fetch-Site, whether
// it is of the same origin. Requests without either (curl, a test) are let
// through: they are not made by a web page.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return false
	}
	return true
}

// Handler is the server's routes behind the Host check.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /app.js", s.script)
	mux.HandleFunc("POST /api/render", s.api(s.render))
	mux.HandleFunc("GET /api/events", s.api(s.events))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.hostAllowed(r.Host) {
			fmt.Fprintf(s.cfg.Log, "refused a request for host %q (this server is %s)\n", r.Host, s.addr)
			http.Error(w, "lore serve: this server answers only to "+s.addr, http.StatusMisdirectedRequest)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// api refuses cross-origin requests to the API.
func (s *Server) api(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !sameOrigin(r) {
			fmt.Fprintf(s.cfg.Log, "refused a cross-origin request from %q\n", r.Header.Get("Origin"))
			http.Error(w, "lore serve: cross-origin requests are refused", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

//go:embed page.tmpl
var pageSource string

//go:embed app.js
var appJS []byte

var pageTemplate = template.Must(template.New("page").Parse(pageSource))

// pageData is the page as first served: the default engine's render of the
// transcript on disk, so it reads before the script runs.
type pageData struct {
	Name    string
	Style   template.CSS
	Version int
	Engines []Engine
	View    *View
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	snap, v := s.current()
	view := snap.Render(snap.Default, nil, "")
	name := snap.Name
	if name == "" {
		name = "lorebook"
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pageTemplate.Execute(w, pageData{Name: name, Style: output.HTMLStyle(), Version: v, Engines: snap.Engines, View: view}); err != nil {
		fmt.Fprintf(s.cfg.Log, "writing the page: %v\n", err)
	}
}

func (s *Server) script(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Write(appJS)
}

// MaxRequest bounds a render request's body: the typed messages.
const MaxRequest = 4 << 20

// renderRequest is what the page sends for each change: the engine and every
// message typed since the last reset.
type renderRequest struct {
	Engine   string    `json:"engine"`
	Messages []Message `json:"messages"`
	// Search narrows the table of entries left out (Snapshot.Render).
	Search string `json:"search"`
}

type renderResponse struct {
	Version int `json:"version"`
	*View
}

func (s *Server) render(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		http.Error(w, "lore serve: send JSON (Content-Type: application/json)", http.StatusUnsupportedMediaType)
		return
	}
	var req renderRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxRequest))
	if err := dec.Decode(&req); err != nil {
		http.Error(w, "lore serve: a bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			http.Error(w, "lore serve: message "+strconv.Itoa(i)+": role must be user or assistant", http.StatusBadRequest)
			return
		}
	}
	snap, v := s.current()
	resp := renderResponse{Version: v, View: snap.Render(req.Engine, req.Messages, req.Search)}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // the parts are HTML: spelling every < as \u003c only doubles them
	if err := enc.Encode(resp); err != nil {
		fmt.Fprintf(s.cfg.Log, "writing a render: %v\n", err)
	}
}

// events streams the version of the files: now, and after every reload.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "lore serve: no streaming", http.StatusInternalServerError)
		return
	}
	ch := make(chan int, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	v := s.version
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v int) bool {
		_, err := fmt.Fprintf(w, "event: version\ndata: %d\n\n", v)
		fl.Flush()
		return err == nil
	}
	if !send(v) {
		return
	}
	ping := time.NewTicker(25 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case v := <-ch:
			if !send(v) {
				return
			}
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

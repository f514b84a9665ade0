package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
	"github.com/lorekit/lore/schema"
)

// bigSnapshot is a Snapshot of bookgen's n-entry YAML book, loaded as lore
// serve loads it on a change, with an empty transcript.
func bigSnapshot(tb testing.TB, n int) func() *Snapshot {
	tb.Helper()
	p, err := bookgen.Write(tb.TempDir(), bookgen.YAML, n)
	if err != nil {
		tb.Fatal(err)
	}
	return func() *Snapshot {
		book, _, err := schema.Load(p)
		if err != nil {
			tb.Fatal(err)
		}
		return snapshotOf(tb, book, &schema.Transcript{})
	}
}

const bigMessage = `{"engine":"lore","messages":[{"role":"user","content":"We ride for place17 and then on to alias4242 before nightfall."}]}`

// BenchmarkMessage is one message typed on the page of a 10,000-entry
// book, as the server answers it: the request decoded, the transcript with
// the message rendered, the page's parts and the JSON answer written. The
// book was parsed and indexed when it was loaded (once per change on disk),
// not here.
func BenchmarkMessage(b *testing.B) {
	s := New(Config{Load: bigSnapshot(b, 10000)})
	s.setAddr("127.0.0.1:4242")
	h := s.Handler()
	post := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/render", strings.NewReader(bigMessage))
		r.Host = "127.0.0.1:4242"
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	post() // the first render builds the keyword index
	var w *httptest.ResponseRecorder
	cpu0 := cpuTime()
	for b.Loop() {
		w = post()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	// place17 holds place1, alias4242 alias4, alias42 and alias424: keywords
	// match inside words unless an entry asks for whole words.
	if body := w.Body.String(); w.Code != 200 || !strings.Contains(body, `"fired":["entry-1","entry-4242","entry-4","entry-424","entry-17"]`) {
		b.Fatalf("%d %s", w.Code, body[max(strings.Index(body, `"fired"`), 0):])
	}
	b.ReportMetric(float64(w.Body.Len()), "response-bytes")
}

// cpuTime is the process's CPU time (user and system, every thread):
// steadier than wall time on a shared machine.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestMessageScales: a message reads no file and costs allocations linear
// in the book's entries (the page lists every entry), counted, not timed.
func TestMessageScales(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of entries")
	}
	// From 4,000 entries: on smaller books the doubling of the answer's
	// buffers, not the work, decides the growth of the bytes.
	scaling.Linear(t, 4000, func(n int) func() {
		loads := 0
		load := bigSnapshot(t, n)
		s := New(Config{Load: func() *Snapshot { loads++; return load() }})
		s.setAddr("127.0.0.1:4242")
		h := s.Handler()
		post := func() {
			r := httptest.NewRequest("POST", "/api/render", strings.NewReader(bigMessage))
			r.Host = "127.0.0.1:4242"
			r.Header.Set("Content-Type", "application/json")
			w := &countingWriter{header: http.Header{}}
			h.ServeHTTP(w, r)
			if w.code != 0 || w.n < 10000 {
				t.Fatalf("status %d, %d bytes", w.code, w.n)
			}
		}
		post()
		t.Cleanup(func() {
			if loads != 1 {
				t.Errorf("%d entries: the files were read %d times for the messages, want once", n, loads)
			}
		})
		return post
	})
}

// countingWriter is a ResponseWriter that counts the body and keeps none of
// it, so that a recorder's growing buffer is not counted as the server's.
type countingWriter struct {
	header http.Header
	code   int
	n      int64
}

func (w *countingWriter) Header() http.Header { return w.header }
func (w *countingWriter) WriteHeader(code int) {
	if code != 200 {
		w.code = code
	}
}
func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

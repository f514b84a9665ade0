package cmd

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long work runs before its bar shows: a command that
// is done sooner never draws one.
var progressDelay = time.Second

// progress is a bar on stderr for long work (--runs, lore test's cases, an
// import's entries). It is drawn only when stderr is a terminal and only
// once the work has lasted progressDelay, so pipes, CI logs and quick runs
// never see it, and it is cleared when the work is done, so what the command
// prints after it stands alone. A nil *progress does nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

// startProgress starts a bar over total steps of work described by what. It
// is nil where no bar may be drawn.
func startProgress(iox *IO, total int, what string) *progress {
	if !iox.StderrTerminal || total <= 0 {
		return nil
	}
	w := &afterWriter{w: iox.Stderr, from: time.Now().Add(progressDelay)}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(false),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
	}
	return &progress{bar: progressbar.NewOptions(total, opts...)}
}

// add counts n more steps done; safe from several goroutines.
func (p *progress) add(n int) {
	if p != nil {
		_ = p.bar.Add(n)
	}
}

// done clears the bar.
func (p *progress) done() {
	if p != nil {
		_ = p.bar.Finish()
		_ = p.bar.Exit()
	}
}

// afterWriter drops what is written to it before from: the bar's first
// drawings, while the work may still end before anyone needs a bar.
type afterWriter struct {
	mu   sync.Mutex
	w    io.Writer
	from time.Time
	seen bool
}

func (a *afterWriter) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.seen {
		if time.Now().Before(a.from) {
			return len(b), nil
		}
		a.seen = true
	}
	return a.w.Write(b)
}

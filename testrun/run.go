package testrun

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/reply"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// Options are `lore test`'s flags.
type Options struct {
	// Engine, when set, renders every case with that engine (--engine).
	Engine string
	// Update writes missing and changed snapshots instead of failing (-u).
	Update bool
	// Run keeps only the cases whose name it matches (--run).
	Run *regexp.Regexp
	// Jobs is how many cases run at once; 0 means GOMAXPROCS.
	Jobs int
	// Settings resolves each lorebook's settings: its .lore.yaml (found
	// upward from it, or --config's) and the command line's; nil: the
	// .lore.yaml found upward, read without checking rule ids.
	Settings *settings.Resolver
	// Progress, when set, is told how many cases will run (Start) and of
	// each one done (Done, from the goroutine that ran it).
	Progress Progress
}

// Progress follows a run's cases: `lore test` draws a bar with it.
type Progress interface {
	Start(cases int)
	Done()
}

// Target is a test file to run. When Only is set (a lorebook named on the
// command line stands for the tests beside it), the file runs only if its
// lorebook is Only.
type Target struct {
	Path string
	Only string
}

// Run loads the test files and runs their cases in parallel.
func Run(targets []Target, o Options) *Report {
	return run(targets, o, engine.Get)
}

func run(targets []Target, o Options, getEngine func(string) (render.Engine, error)) *Report {
	res := o.Settings
	if res == nil {
		res = settings.New(nil, nil)
	}
	r := &runner{opts: o, load: &loader{getEngine: getEngine, settings: res}, rep: &Report{}}
	files := r.loadFiles(targets)
	r.checkSnapshotNames(files)

	// A test file that cannot be used is one result that could not run, in
	// its place among the files, so every format shows it.
	var cases []*Case
	for _, f := range files {
		if f.broken != "" {
			p := Pos{File: f.Path}
			r.rep.Cases = append(r.rep.Cases, &CaseResult{File: f.Path, Pos: p, Status: Error, Error: f.broken, ErrorPos: p})
			continue
		}
		for _, c := range f.Cases {
			if o.Run == nil || o.Run.MatchString(c.Name) {
				cases = append(cases, c)
				r.rep.Cases = append(r.rep.Cases, nil)
			}
		}
	}
	todo := make([]int, 0, len(cases)) // the results' places, in case order
	for i, c := range r.rep.Cases {
		if c == nil {
			todo = append(todo, i)
		}
	}
	if o.Progress != nil {
		o.Progress.Start(len(cases))
	}
	r.parallel(len(cases), func(i int) {
		r.rep.Cases[todo[i]] = r.runCase(cases[i])
		if o.Progress != nil {
			o.Progress.Done()
		}
	})
	r.obsoleteSnapshots(files)

	r.rep.Problems = diag.Sort(r.rep.Problems)
	slices.SortFunc(r.rep.Snapshots, func(a, b SnapshotChange) int { return cmp.Compare(a.Path, b.Path) })
	return r.rep
}

type runner struct {
	opts Options
	load *loader
	mu   sync.Mutex // guards rep.Problems, rep.Unusable, rep.Snapshots
	rep  *Report
	// formats are each lorebook's output formats, for reply expectations.
	formats memo[[]*reply.Format]
}

// parallel calls do(0..n-1) on at most Jobs goroutines.
func (r *runner) parallel(n int, do func(i int)) {
	jobs := r.opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for i := range next {
				do(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (r *runner) problem(ds []diag.Diagnostic, unusable bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rep.Problems = append(r.rep.Problems, ds...)
	r.rep.Unusable = r.rep.Unusable || unusable
}

// loadFiles loads each test file once, sorted by path, keeping those a
// target wants.
func (r *runner) loadFiles(targets []Target) []*File {
	byPath := map[string][]Target{}
	var paths []string
	for _, t := range targets {
		p := filepath.Clean(t.Path)
		if _, ok := byPath[p]; !ok {
			paths = append(paths, p)
		}
		byPath[p] = append(byPath[p], t)
	}
	slices.Sort(paths)
	loaded := make([]*File, len(paths))
	r.parallel(len(paths), func(i int) {
		f, ds, err := Load(paths[i])
		if err != nil {
			ds = append(ds, schema.ErrorDiagnostics(paths[i], err)...)
		}
		if errs, _, _ := diag.Count(ds); errs > 0 || f == nil {
			r.problem(ds, true)
			what := "cannot be read"
			if err == nil {
				what = fmt.Sprintf("has %d %s", errs, plural(errs, "error", "errors"))
			}
			f = &File{Path: paths[i], broken: "the test file " + what}
		}
		loaded[i] = f
	})

	matched := map[string]bool{}
	var out []*File
	for i, f := range loaded {
		if f.broken != "" {
			out = append(out, f)
			continue
		}
		keep := false
		for _, t := range byPath[paths[i]] {
			if t.Only == "" || samePath(t.Only, f.Lorebook.V) {
				keep = true
				matched[t.Only] = true
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	for _, t := range targets {
		if t.Only != "" && !matched[t.Only] && !r.rep.Unusable {
			matched[t.Only] = true
			r.problem([]diag.Diagnostic{diag.New(Pos{File: t.Only}, diag.Error, "test",
				"no test file names this lorebook (lorebook: in tests/*.yaml or lore.test.yaml beside it)")}, true)
		}
	}
	return out
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// checkSnapshotNames refuses two snapshot expectations that would share a
// file: each would overwrite the other's.
func (r *runner) checkSnapshotNames(files []*File) {
	first := map[string]Pos{}
	for _, f := range files {
		for _, c := range f.Cases {
			for _, t := range c.Turns {
				if t.Expect == nil || t.Expect.Snapshot == nil {
					continue
				}
				s := t.Expect.Snapshot
				key, _ := filepath.Abs(s.Path)
				if p, ok := first[key]; ok {
					r.problem([]diag.Diagnostic{diag.New(s.Pos, diag.Error, "test",
						"snapshot %q is also the snapshot at %s: give each its own name", s.Name, p)}, true)
					continue
				}
				first[key] = s.Pos
			}
		}
	}
}

// runCase renders a case (each run, each turn) and checks its expectations.
// An expectation that fails in several runs is reported once, for the first.
func (r *runner) runCase(c *Case) *CaseResult {
	res := &CaseResult{File: c.File.Path, Name: c.Name, Pos: c.Pos, Status: Pass}
	p, ie := r.load.prepare(c, r.opts.Engine)
	if ie != nil {
		res.Status, res.Error, res.ErrorPos = Error, ie.msg, ie.pos
		r.problem(ie.ds, ie.unreadable)
		return res
	}
	res.Engine = p.eng.Name()

	type key struct {
		pos  Pos
		kind string
		turn int
	}
	seen := map[key]bool{}
	add := func(f *Failure) {
		k := key{f.Pos, f.Kind, f.Turn}
		if !seen[k] {
			seen[k] = true
			res.Failures = append(res.Failures, f)
		}
	}
	freq := make([]*frequency, len(c.Turns))
	for i, t := range c.Turns {
		freq[i] = newFrequency(t.Expect, c.Runs)
	}
	for k := range c.Runs {
		in := *p.in
		in.Seed = c.Seed + int64(k)
		outs, err := render.RenderTurns(p.eng, &in, p.lengths)
		if err != nil {
			res.Status, res.Error, res.ErrorPos = Error, fmt.Sprintf("the %s engine could not render it: %v", p.eng.Name(), err), c.Pos
			return res
		}
		for _, out := range outs {
			if len(out.Limits) > 0 {
				// The prompt is not what the engine would send: judging
				// it would pass or fail the case on a stopped keyword.
				res.Status, res.Error, res.ErrorPos = Error, "the render ran into a limit: "+strings.Join(out.Limits, "; "), c.Pos
				return res
			}
		}
		for ti, out := range outs {
			e := c.Turns[ti].Expect
			var fs []*Failure
			fs = append(fs, checkPrompt(e, out)...)
			if k == 0 && e.Snapshot != nil {
				if f := r.snapshot(e.Snapshot, out); f != nil {
					fs = append(fs, f)
				}
			}
			if k == 0 && e.Replies != nil {
				rf, ie := r.checkReplies(e.Replies, p.in.Book, c.File.Lorebook.V)
				if ie != nil {
					res.Status, res.Error, res.ErrorPos = Error, ie.msg, ie.pos
					r.problem(ie.ds, ie.unreadable)
					return res
				}
				fs = append(fs, rf...)
			}
			for _, f := range fs {
				if len(c.Turns) > 1 {
					f.Turn = ti + 1
				}
				if c.Runs > 1 {
					f.Run, f.Seed = k+1, in.Seed
				}
				add(f)
			}
			freq[ti].count(out)
		}
	}
	for ti, fr := range freq {
		for _, f := range fr.check() {
			if len(c.Turns) > 1 {
				f.Turn = ti + 1
			}
			add(f)
		}
	}
	slices.SortStableFunc(res.Failures, func(a, b *Failure) int {
		return cmp.Or(cmp.Compare(a.Turn, b.Turn), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	if len(res.Failures) > 0 {
		res.Status = Fail
	}
	return res
}

// Command bench measures how lore's commands scale with the number of entries,
// in every input shape, and prints a table of wall time and peak memory with
// the growth factor per doubling of the entries. Run it from the repository:
//
//	go run ./scripts/bench                      # validate, lint, render; 1k–20k
//	go run ./scripts/bench -sizes 20000,100000 -shapes shared-kw -commands lint,render
//	go run ./scripts/bench -hostile             # the hostile inputs of the README
//	go run ./scripts/bench -peers /tmp/peers    # also jq, ajv and character-foundry
//	go run ./scripts/bench -shapes cjk -cpu -chats 20,2000,20000 -engines lore,sillytavern
//
// Inputs come from internal/bookgen, so the allocation guards in the tests and
// this table measure the same files. -peers names a folder where
// `npm install ajv@8 @character-foundry/character-foundry` was run; jq is used
// when it is on PATH. Peak memory is the child's maximum resident set (Linux
// and macOS getrusage); a watchdog kills a run that passes -maxrss.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lorekit/lore/internal/bookgen"
)

type options struct {
	sizes    []int
	shapes   []bookgen.Shape
	commands []string
	runs     int
	lore     string
	peers    string
	timeout  time.Duration
	maxRSS   int64
	hostile  bool
	keep     string
	okExit   int      // the highest exit code that is not a failure
	cpu      bool     // time is the child's CPU time (user + system), not wall time
	chats    []int    // render also against bookgen.HardChat of these lengths
	engines  []string // the engines of those renders
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-write" {
		// The child that writes inputs (see write).
		if err := writeChild(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	o, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags() (*options, error) {
	o := &options{okExit: 1}
	sizes := flag.String("sizes", "1000,2000,5000,10000,20000", "entry counts, comma-separated")
	shapes := flag.String("shapes", joinShapes(bookgen.Shapes), "input shapes: "+joinShapes(bookgen.Shapes))
	commands := flag.String("commands", "validate,lint,render", "lore commands to time")
	flag.IntVar(&o.runs, "runs", 3, "runs per cell; the table shows the median time and the largest peak memory")
	flag.StringVar(&o.lore, "lore", "", "lore binary to measure (default: build this checkout)")
	flag.StringVar(&o.peers, "peers", "", "folder with node_modules/ajv and node_modules/@character-foundry: also time them")
	flag.DurationVar(&o.timeout, "timeout", time.Minute, "give up on one run after this long")
	maxRSS := flag.Int64("maxrss", 4096, "kill a run whose resident memory passes this many MB")
	flag.BoolVar(&o.hostile, "hostile", false, "time the hostile inputs instead (alias bomb, FIFO in a folder, findings on a minified book)")
	flag.StringVar(&o.keep, "keep", "", "write the inputs into this folder and keep them (default: a temporary folder)")
	flag.BoolVar(&o.cpu, "cpu", false, "time is CPU time (user + system), the figure a shared machine disturbs least")
	chats := flag.String("chats", "", "also render against chats of these many messages (bookgen.HardChat, 80 words each), comma-separated")
	engines := flag.String("engines", "lore", "the engines of the -chats renders, comma-separated")
	flag.Parse()
	for _, c := range strings.Split(*chats, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		m, err := strconv.Atoi(c)
		if err != nil || m < 1 {
			return nil, fmt.Errorf("-chats: %q is not a number of messages", c)
		}
		o.chats = append(o.chats, m)
	}
	o.engines = strings.Split(*engines, ",")
	o.maxRSS = *maxRSS << 20
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 2 {
			return nil, fmt.Errorf("-sizes: %q is not a number of entries", s)
		}
		o.sizes = append(o.sizes, n)
	}
	slices.Sort(o.sizes)
	for _, s := range strings.Split(*shapes, ",") {
		sh := bookgen.Shape(strings.TrimSpace(s))
		if !slices.Contains(append(bookgen.Shapes, bookgen.AliasBomb), sh) {
			return nil, fmt.Errorf("-shapes: unknown shape %q (want %s)", s, joinShapes(bookgen.Shapes))
		}
		o.shapes = append(o.shapes, sh)
	}
	o.commands = strings.Split(*commands, ",")
	if o.runs < 1 {
		return nil, errors.New("-runs must be at least 1")
	}
	return o, nil
}

func joinShapes(ss []bookgen.Shape) string {
	var out []string
	for _, s := range ss {
		out = append(out, string(s))
	}
	return strings.Join(out, ",")
}

func run(o *options) error {
	dir := o.keep
	if dir == "" {
		d, err := os.MkdirTemp("", "lore-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if o.lore == "" {
		o.lore = filepath.Join(dir, "lore")
		build := exec.Command("go", "build", "-o", o.lore, ".")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building lore: %w", err)
		}
	}
	chat := filepath.Join(dir, "chat.yaml")
	if err := os.WriteFile(chat, []byte("messages:\n  - {role: user, content: Take me to place1 and the tavern.}\n"+
		"  - {role: assistant, content: The road to place2 passes the tavern.}\n"), 0o644); err != nil {
		return err
	}
	if o.hostile {
		return runHostile(o, dir, chat)
	}
	what := "wall time"
	if o.cpu {
		what = "CPU time (user + system)"
	}
	fmt.Printf("%d run(s) per cell; time is the median %s, memory the largest peak RSS\n\n", o.runs, what)
	header := "| shape | command |"
	rule := "|---|---|"
	for _, n := range o.sizes {
		header += fmt.Sprintf(" %s |", count(n))
		rule += "---|"
	}
	fmt.Println(header + " growth per doubling (time / memory) |")
	fmt.Println(rule + "---|")
	for _, sh := range o.shapes {
		paths := map[int]string{}
		for _, n := range o.sizes {
			p, err := write(dir, sh, n)
			if err != nil {
				return err
			}
			paths[n] = p
		}
		for _, c := range o.commands {
			args := func(p string) []string { return commandArgs(c, p, chat) }
			printRow(o, string(sh), "lore "+c, paths, func(p string) (string, []string) { return o.lore, args(p) })
		}
		for _, m := range o.chats {
			chats := map[string]string{}
			for _, n := range o.sizes {
				c, err := writeChat(dir, n, m)
				if err != nil {
					return err
				}
				chats[paths[n]] = c
			}
			for _, e := range o.engines {
				name := fmt.Sprintf("lore render, %d messages, %s", m, e)
				printRow(o, string(sh), name, paths, func(p string) (string, []string) {
					return o.lore, []string{"render", p, "--transcript", chats[p], "--engine", e}
				})
			}
		}
		for _, peer := range peersFor(o, sh) {
			printRow(o, string(sh), peer.name, paths, peer.argv)
		}
	}
	return nil
}

func commandArgs(c, path, chat string) []string {
	if c == "render" {
		return []string{"render", path, "--transcript", chat}
	}
	return []string{c, path}
}

// write writes an input in a child process. Linux charges a child's peak
// memory with its parent's at the moment it was started (exec records the
// high-water mark of the memory it replaces), so the parent must never grow:
// generating a 100,000-entry book here would inflate every figure after it.
func write(dir string, s bookgen.Shape, n int) (string, error) {
	_, err := inChild("-write", dir, string(s), strconv.Itoa(n))
	return filepath.Join(dir, s.File(n)), err
}

// writeChat writes bookgen.HardChat(entries, messages) in a child (see write).
func writeChat(dir string, entries, messages int) (string, error) {
	_, err := inChild("-write", dir, "chat", strconv.Itoa(entries), strconv.Itoa(messages))
	return filepath.Join(dir, fmt.Sprintf("chat-%d-%d.yaml", entries, messages)), err
}

func inChild(args ...string) ([]byte, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	c := exec.Command(self, args...)
	c.Stderr = os.Stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

// writeChild is the child's side of write and of hostile inputs: DIR SHAPE N
// writes one book; DIR hostile writes the hostile inputs and lists them.
func writeChild(args []string) error {
	if len(args) == 2 && args[1] == "hostile" {
		ins, err := writeHostile(args[0])
		for _, in := range ins {
			fmt.Printf("%s\t%s\n", in.name, in.path)
		}
		return err
	}
	if len(args) == 4 && args[1] == "chat" {
		n, err1 := strconv.Atoi(args[2])
		m, err2 := strconv.Atoi(args[3])
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		_, err := bookgen.WriteHardChat(args[0], n, m)
		return err
	}
	if len(args) != 3 {
		return fmt.Errorf("-write DIR SHAPE N, not %q", args)
	}
	n, err := strconv.Atoi(args[2])
	if err != nil {
		return err
	}
	_, err = bookgen.Write(args[0], bookgen.Shape(args[1]), n)
	return err
}

type peer struct {
	name string
	argv func(path string) (string, []string)
}

// peersFor lists the other tools that read shape s: jq parses any JSON, ajv
// validates lore's JSON against lore's schema, character-foundry reads
// SillyTavern books and cards.
func peersFor(o *options, s bookgen.Shape) []peer {
	var out []peer
	script := func(name string) string { return filepath.Join("scripts", "bench", "peers", name) }
	if s == bookgen.JSON || s == bookgen.JSONMin || s == bookgen.SillyTavern || s == bookgen.NovelAI {
		if _, err := exec.LookPath("jq"); err == nil {
			out = append(out, peer{"jq .", func(p string) (string, []string) { return "jq", []string{".", p} }})
		}
	}
	if o.peers == "" {
		return out
	}
	if s == bookgen.JSON || s == bookgen.JSONMin {
		out = append(out, peer{"ajv (lore's schema)", func(p string) (string, []string) {
			return "node", []string{script("ajv.cjs"), o.peers, "schema", p}
		}})
	}
	if s == bookgen.SillyTavern || s == bookgen.PNGCard {
		out = append(out, peer{"character-foundry", func(p string) (string, []string) {
			return "node", []string{script("cf.cjs"), o.peers, p}
		}})
	}
	return out
}

func printRow(o *options, shape, name string, paths map[int]string, argv func(string) (string, []string)) {
	row := fmt.Sprintf("| %s | %s |", shape, name)
	var prev *result
	prevN := 0
	worstT, worstM := 0.0, 0.0
	for _, n := range o.sizes {
		bin, args := argv(paths[n])
		r := measure(o, bin, args)
		row += " " + r.String() + " |"
		if prev != nil && prev.ok() && r.ok() {
			worstT = math.Max(worstT, perDoubling(prev.wall.Seconds(), r.wall.Seconds(), prevN, n))
			worstM = math.Max(worstM, perDoubling(float64(prev.rss), float64(r.rss), prevN, n))
		}
		prev, prevN = &r, n
	}
	if worstT > 0 {
		row += fmt.Sprintf(" %.2f× / %.2f× |", worstT, worstM)
	} else {
		row += " – |"
	}
	fmt.Println(row)
}

// perDoubling turns the growth from n1 to n2 entries into the growth per
// doubling, so steps of 2.5× and 5× compare with the 2.2× bound.
func perDoubling(a, b float64, n1, n2 int) float64 {
	if a <= 0 {
		return 0
	}
	return math.Pow(b/a, math.Ln2/math.Log(float64(n2)/float64(n1)))
}

type result struct {
	wall, spread time.Duration
	rss          int64 // bytes
	failed       string
	stdout       int64
	exit         int
}

func (r result) ok() bool { return r.failed == "" }

func (r result) String() string {
	if !r.ok() {
		return r.failed
	}
	s := fmt.Sprintf("%s / %s", seconds(r.wall), megabytes(r.rss))
	if r.spread > r.wall/10 && r.spread > 20*time.Millisecond {
		s += fmt.Sprintf(" (±%s)", seconds(r.spread/2))
	}
	return s
}

func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}

func megabytes(b int64) string { return fmt.Sprintf("%d MB", (b+(1<<19))>>20) }

func count(n int) string {
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

// measure runs bin o.runs times and keeps the median wall time, the spread
// (max − min) and the largest peak resident memory.
func measure(o *options, bin string, args []string) result {
	var walls []time.Duration
	var out result
	for i := 0; i < o.runs; i++ {
		r := once(o, bin, args)
		if !r.ok() {
			return r
		}
		walls = append(walls, r.wall)
		out.rss = max(out.rss, r.rss)
		out.stdout = max(out.stdout, r.stdout)
		out.exit = r.exit
	}
	slices.Sort(walls)
	out.wall = walls[len(walls)/2]
	out.spread = walls[len(walls)-1] - walls[0]
	return out
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

func once(o *options, bin string, args []string) result {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	out := &countWriter{}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{failed: "cannot start: " + err.Error()}
	}
	killed := make(chan bool, 1)
	done := make(chan struct{})
	go watchRSS(cmd.Process.Pid, o.maxRSS, done, killed, cmd)
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	if o.cpu && cmd.ProcessState != nil {
		wall = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	r := result{wall: wall, stdout: out.n}
	r.rss = peakRSS(cmd.ProcessState)
	select {
	case <-killed:
		r.failed = fmt.Sprintf("killed over %s", megabytes(o.maxRSS))
		return r
	default:
	}
	if ctx.Err() != nil {
		r.failed = fmt.Sprintf("over %s", o.timeout)
		return r
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
		// 1 is "findings", a normal outcome; 2 is a refusal, the right
		// outcome for a hostile input.
		if r.exit > o.okExit {
			r.failed = "exit " + strconv.Itoa(r.exit) + ": " + firstLine(stderr.String())
		}
	case err != nil:
		r.failed = err.Error()
	}
	return r
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// watchRSS kills the process once its resident memory passes limit (where
// /proc exists), so a run that explodes does not take the machine with it.
func watchRSS(pid int, limit int64, done <-chan struct{}, killed chan<- bool, cmd *exec.Cmd) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
			if err != nil {
				return
			}
			f := strings.Fields(string(b))
			if len(f) < 2 {
				return
			}
			pages, _ := strconv.ParseInt(f[1], 10, 64)
			if pages*int64(os.Getpagesize()) > limit {
				killed <- true
				cmd.Process.Kill()
				return
			}
		}
	}
}

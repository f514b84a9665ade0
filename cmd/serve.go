package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/serve"
)

type serveOptions struct {
	chatFlags
	addr string
	open bool
}

// bookExts are the files a lorebook folder is read from (schema.Load).
var bookExts = []string{".yaml", ".yml", ".json"}

// untilInterrupted is the context serve and --watch run in: until Ctrl-C or
// SIGTERM. Tests replace it to stop them.
var untilInterrupted = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func newServeCmd(iox *IO) *cobra.Command {
	opts := &serveOptions{}
	c := &cobra.Command{
		Use:   "serve LOREBOOK [--transcript T] [--vars V] [--engine E] [--addr HOST:PORT]",
		Short: "Preview the prompt in a browser, with a chat box, live as the files change",
		Long: `serve starts a local web page (docs/serve.md) showing what lore render --format html
shows (the prompt by step, the trace of every entry, the token chart) and the
lint findings, with an engine switch and a search over the entries.

Its chat box appends what you type to the transcript, in memory only, and shows
which entries your message fired and the new prompt, the words that fired them
marked. Reset returns to the transcript on disk. When a file of the lorebook,
the transcript or the variables changes, the page follows within a second,
keeping your messages; a broken file shows its error instead of a prompt.

serve reads and never writes. It listens on 127.0.0.1 on a free port unless
--addr says otherwise (another address is warned about: anyone who can reach it
can read the lorebook) and prints "serving http://127.0.0.1:PORT/" as its first
line on stderr. It answers only requests for the address it serves (so a web
page cannot reach it by DNS rebinding), its API refuses requests from other
pages, and it serves no file. Ctrl-C stops it.

Exit codes: 0 stopped; 2 bad usage, an address that cannot be listened on, or
standard input as a file (serve reads its files again when they change).`,
		Example: `  lore serve fixtures/eldoria/book --transcript fixtures/eldoria/transcript.yaml --vars fixtures/eldoria/vars.yaml --open
  lore serve book/ --engine sillytavern --addr 127.0.0.1:8080`,
		Args: oneLorebook,
		RunE: func(c *cobra.Command, args []string) error { return runServe(iox, c.Flags(), opts, args[0]) },
	}
	f := c.Flags()
	opts.chatFlags.register(f)
	f.StringVar(&opts.addr, "addr", "", "address to listen on, HOST:PORT (default 127.0.0.1 on a free port)")
	f.BoolVar(&opts.open, "open", false, "open the page in the web browser")
	return c
}

// refuseStdin is the usage error for - where a command must read a file
// again when it changes.
func refuseStdin(what string, paths ...string) error {
	for _, p := range paths {
		if p == stdinArg {
			return usageErr("%s reads the files again when they change, and - is standard input: name the files", what)
		}
	}
	return nil
}

func runServe(iox *IO, flags *pflag.FlagSet, opts *serveOptions, path string) error {
	if err := refuseStdin("serve", path, opts.transcript, opts.vars); err != nil {
		return err
	}
	res := newResolver(flags)
	if err := res.Check(); err != nil {
		return usageErr("%v", err)
	}
	ln, url, err := serve.Listen(opts.addr)
	if err != nil {
		return usageErr("--addr: %v", err)
	}
	defer ln.Close()
	fmt.Fprintf(iox.Stderr, "serving %s\n", url)
	if !serve.IsLoopback(ln.Addr().String()) {
		fmt.Fprintf(iox.Stderr, "lore: warning: %s is not a loopback address: anyone who can reach it can read the lorebook\n", ln.Addr())
	}
	var hosts []string
	if h, _, err := splitHost(opts.addr); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	cfgPath := ""
	if _, p, _, _ := res.FileFor(path); p != "" {
		cfgPath = p
	}
	stPath, _ := res.EngineSettingsPath()
	lastNotes := ""
	srv := serve.New(serve.Config{
		Load: func() *serve.Snapshot {
			snap, notes := loadSnapshot(iox, flags, opts, path)
			if notes != lastNotes { // what render would say on stderr, once
				io.WriteString(iox.Stderr, notes)
				lastNotes = notes
			}
			return snap
		},
		Watch: []string{path, opts.transcript, opts.vars, cfgPath, stPath},
		Exts:  bookExts,
		Hosts: hosts,
		Log:   iox.Stderr,
	})
	if opts.open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(iox.Stderr, "lore: --open: %v; open %s yourself\n", err, url)
		}
	}
	ctx, stop := untilInterrupted()
	defer stop()
	if err := srv.Serve(ctx, ln); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

func splitHost(addr string) (string, string, error) {
	i := strings.LastIndex(addr, ":")
	if i < 0 {
		return "", "", errors.New("no port")
	}
	return strings.Trim(addr[:i], "[]"), addr[i+1:], nil
}

// loadSnapshot reads the files as lore render does, once per change: the
// lorebook parsed, each engine with its settings decoded (and its keyword
// index built on its first render), the lint findings made when first shown.
// What render would print for files it cannot use is the snapshot's error;
// what it would print of files it can (the engine a book's format chose) is
// returned as notes.
func loadSnapshot(iox *IO, flags *pflag.FlagSet, opts *serveOptions, path string) (*serve.Snapshot, string) {
	var msgs bytes.Buffer
	sub := *iox
	sub.Stderr = &msgs
	ch, err := loadChat(&sub, flags, &opts.chatFlags, path, looks{})
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.err != nil {
			fmt.Fprintf(&msgs, "lore: %v\n", ee.err)
		} else if !errors.As(err, &ee) {
			fmt.Fprintf(&msgs, "lore: %v\n", err)
		}
		text := strings.TrimRight(msgs.String(), "\n")
		if text == "" {
			text = "lore: the files cannot be read"
		}
		snap := &serve.Snapshot{Name: path, Err: text}
		for _, p := range engine.Profiles() { // the switch stays whole until the files mend
			snap.Engines = append(snap.Engines, serve.Engine{Name: p.Name, Title: p.Title})
		}
		return snap, ""
	}
	book := ch.in.Book
	snap := &serve.Snapshot{Name: book.Manifest.Name, Default: ch.eng.Name()}
	if snap.Name == "" {
		snap.Name = path
	}
	for _, p := range engine.Profiles() {
		eng := p.New()
		if p.Name == ch.eng.Name() {
			eng = ch.eng
		}
		in := *ch.in
		in.EngineSettings = ch.in.Settings.Engines[p.Name]
		in.EngineConfig = nil
		render.DecodeEngineSettings(eng, &in)
		snap.Engines = append(snap.Engines, serve.Engine{Name: p.Name, Title: p.Title, Engine: eng, Input: &in})
	}
	snap.Lint = func(name string) []diag.Diagnostic {
		return lintForServe(iox, flags, opts, path, book, ch.loaded, name)
	}
	return snap, msgs.String()
}

// lintForServe lints book as `lore lint --engine name` would, with the
// variables file and .lore.yaml; problems reading them were the render's.
func lintForServe(iox *IO, flags *pflag.FlagSet, opts *serveOptions, path string, book *schema.Lorebook, loaded []diag.Diagnostic, name string) []diag.Diagnostic {
	res := newResolver(flags)
	var vars *schema.Vars
	if opts.vars != "" {
		if v, _, err := loadVarsFile(iox, opts.vars); err == nil {
			vars = v
		}
	}
	file, _, _, _ := res.FileFor(iox.inputName(path))
	cfg := &lint.Config{}
	if file != nil {
		cfg = lint.NewConfig(file)
	}
	est, _, _ := res.EngineSettings()
	r, err := res.Resolve(book, file, est)
	if err != nil {
		return nil
	}
	return diag.Sort(lint.RunWith(book, vars, cfg.WithSettings(r).WithEngines(engine.JudgeBy(name, book)), loaded))
}

// openBrowser opens url in the desktop's web browser.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait() // reap it; the browser lives on
	return nil
}

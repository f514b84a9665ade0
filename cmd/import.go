package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

type importOptions struct {
	out    string
	format string
	force  bool
	color  string
	engine string
	loss   lossOptions
}

func newImportCmd(iox *IO) *cobra.Command {
	var opts importOptions
	c := &cobra.Command{
		Use:   "import FILE",
		Short: "Convert a SillyTavern, Character Card, NovelAI, AI Dungeon, Agnai or RisuAI lorebook to lore's YAML",
		Long: `import converts a lorebook from another tool into lore's format. The format is
detected from the content: SillyTavern world info, Character Card V2/V3 (JSON or
PNG), lorebook_v3, NovelAI .lorebook, AI Dungeon world info and story cards,
Agnai memory books, RisuAI lorebooks.

Without -o the lorebook is printed as one file. -o DIR (an existing folder, a
path ending in /, or a path without extension) writes a folder lorebook:
lorebook.yaml and entries/<NN>-<id>.yaml, numbered in the book's order (a
folder is read in the order of its file names); -o FILE.yaml or FILE.json
writes one file.
Files are written atomically; an existing file, or a non-empty folder, is
replaced only with --force.
What the source has and lore cannot express is kept under extensions: the loss
report on stderr names, entry by entry, every field the book's engine will not act
on and every value it reads differently, with why and what to do (--report
json prints it as data; --strict makes any loss exit 1 and write nothing).
docs/formats.md has the field-by-field mapping.

A book from a tool whose engine lore simulates keeps rendering as that tool
would: a SillyTavern book or card gets settings.engine: sillytavern, and the
SillyTavern fields kept under extensions (probability, groups, timed effects…)
are no loss, since that engine acts on them. --engine lore imports it for lore's
own engine instead, and the report lists them.`,
		Example: `  lore import Eldoria.json
  lore import default_Seraphina.png -o seraphina/
  lore import world.lorebook -o world.json`,
		Args: args(1, 1, "FILE", "a FILE to import (a SillyTavern world, a character card, a NovelAI lorebook…)"),
		RunE: func(c *cobra.Command, args []string) error { return runImport(iox, &opts, args[0], c.Flags()) },
	}
	f := c.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "write to this folder or file instead of stdout")
	f.StringVar(&opts.format, "format", "", "yaml or json (default: from -o's extension, else yaml)")
	f.BoolVar(&opts.force, "force", false, "replace an existing output file or non-empty folder")
	f.StringVar(&opts.loss.format, "report", "text", "loss report: text or json (on stderr)")
	f.StringVar(&opts.engine, "engine", "", "the engine the imported book renders with: "+strings.Join(engine.Names(), ", ")+" (default: the source tool's, when lore simulates it, else lore)")
	f.BoolVar(&opts.loss.strict, "strict", false, "exit 1 and write nothing when anything is lost or read differently")
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

// loadForConvert opens a lorebook of any format and prints what loading
// said to stderr, except the import notes: the loss report says all they
// say, entry by entry. It returns an exit error when the book is unreadable
// (2) or has error-level findings (1): nothing is converted then.
func loadForConvert(iox *IO, path, colorMode string) (*schema.Lorebook, error) {
	on, err := useColor(iox, colorMode)
	if err != nil {
		return nil, err
	}
	lb, all, err := openBook(iox, path, noFlags...)
	if err != nil {
		all = append(all, schema.ErrorDiagnostics(path, err)...)
	}
	var ds []diag.Diagnostic
	for _, d := range all {
		if d.Rule != "import" || d.Severity != diag.Info {
			ds = append(ds, d)
		}
	}
	p, _ := diag.NewPrinter("text", diag.Options{Color: on.color})
	if len(ds) > 0 {
		if perr := p.Print(iox.Stderr, diag.Sort(ds)); perr != nil {
			return nil, perr
		}
	}
	if err != nil || lb == nil {
		return nil, exitCode(ExitUsage)
	}
	if errs, _, _ := diag.Count(ds); errs > 0 {
		return nil, exitCode(ExitFindings)
	}
	return lb, nil
}

func runImport(iox *IO, opts *importOptions, path string, flags *pflag.FlagSet) error {
	switch opts.format {
	case "", canon.YAML, canon.JSON:
	default:
		return usageErr("--format must be yaml or json, not %q%s", opts.format, didYouMean(opts.format, []string{canon.YAML, canon.JSON}))
	}
	folder := false
	if opts.out != "" {
		ext := strings.ToLower(filepath.Ext(opts.out))
		st, err := os.Stat(opts.out)
		switch {
		case strings.HasSuffix(opts.out, "/") || strings.HasSuffix(opts.out, string(os.PathSeparator)) || (err == nil && st.IsDir()) || ext == "":
			folder = true
		case ext == ".yaml" || ext == ".yml":
			if opts.format == "" {
				opts.format = canon.YAML
			}
		case ext == ".json":
			if opts.format == "" {
				opts.format = canon.JSON
			}
		default:
			return usageErr("-o %s: want a folder, or a file ending in .yaml, .yml or .json", opts.out)
		}
		if same(path, opts.out) {
			return usageErr("-o %s is the input file: import never changes its input", opts.out)
		}
		if !folder {
			if err := refuseExisting(opts.out, opts.force); err != nil {
				return err
			}
		}
	}
	if opts.format == "" {
		opts.format = canon.YAML
	}
	if err := opts.loss.check(); err != nil {
		return err
	}
	// --engine, or LORE_ENGINE as for every command that takes --engine.
	asked, askedFrom := newResolver(flags).Engine()
	if asked != "" {
		if _, err := engine.Get(asked); err != nil {
			return usageErr("%s: %v%s", askedFrom, err, didYouMean(asked, engine.Names()))
		}
	}
	lb, err := loadForConvert(iox, path, opts.color)
	if err != nil {
		return err
	}
	// A book made for an engine lore simulates keeps rendering as that engine
	// would, as it did when read directly (unless --engine says otherwise);
	// the loss report is about the engine the book will render with.
	name, _ := engine.Choose(asked, lb)
	if err := opts.loss.print(iox.Stderr, formats.ImportReportFor(lb, name), false); err != nil {
		return err
	}
	if name != engine.Default && lb.Manifest.Settings.Engine == "" {
		lb.Manifest.Settings.Engine = name
		fmt.Fprintf(iox.Stderr, "lore: settings.engine: %s, so the book renders as %s would (import --engine lore for lore's own engine)\n",
			name, engine.Title(name))
	}
	if folder {
		extra, err := keepCardImage(iox, path, lb)
		if err != nil {
			return err
		}
		bar := startProgress(iox, len(lb.Entries), "writing entries")
		err = canon.WriteFolderEach(opts.out, lb, opts.format, opts.force, func() { bar.add(1) }, extra...)
		bar.done()
		if err != nil {
			return usageErr("%v", err)
		}
		return wrote(iox, lb, opts.out, extra...)
	}
	data, err := canon.EncodeLorebook(lb, opts.format)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := writeOut(iox.Stdout, opts.out, data); err != nil || opts.out == "" {
		return err
	}
	return wrote(iox, lb, opts.out)
}

// wrote confirms a written import on stderr (stdout stays for the data).
func wrote(iox *IO, lb *schema.Lorebook, out string, extra ...canon.File) error {
	and := ""
	for _, f := range extra {
		and += " and the card's image (" + f.Name + ")"
	}
	_, err := fmt.Fprintf(iox.Stderr, "lore: wrote %s (from %s)%s to %s\n", plural(len(lb.Entries), "entry", "entries"), lb.Format, and, out)
	return err
}

// keepCardImage is the picture of a PNG card imported to a folder: written
// beside the manifest as card.png, without the card's chunks (export writes
// the card into it again), and named in the manifest (pngImage under
// extensions.<card format>), so that export to a PNG card uses it.
func keepCardImage(iox *IO, path string, lb *schema.Lorebook) ([]canon.File, error) {
	if lb.Format != formats.FormatCardV2 && lb.Format != formats.FormatCardV3 {
		return nil, nil
	}
	_, data, err := iox.readInput(path, "the LOREBOOK")
	if err != nil || !formats.IsPNG(data) {
		return nil, nil // a card read from JSON has no picture
	}
	img, err := formats.PlainImage(data)
	if err != nil {
		return nil, usageErr("%s: %v", path, err)
	}
	if lb.Manifest.Extensions == nil {
		lb.Manifest.Extensions = map[string]any{}
	}
	kept, _ := lb.Manifest.Extensions[lb.Format].(map[string]any)
	if kept == nil {
		kept = map[string]any{}
		lb.Manifest.Extensions[lb.Format] = kept
	}
	kept[formats.PNGImageKey] = formats.CardImageName
	return []canon.File{{Name: formats.CardImageName, Data: img}}, nil
}

// writeOut prints data, or writes it atomically to out when set.
func writeOut(w io.Writer, out string, data []byte) error {
	if out == "" {
		_, err := w.Write(data)
		return err
	}
	if err := canon.WriteFile(out, data); err != nil {
		return usageErr("%v", err) // "cannot write OUT: why", never a temporary name
	}
	return nil
}

// refuseExisting stops a write over an existing file unless --force: a
// converted lorebook must never silently replace someone's work.
func refuseExisting(out string, force bool) error {
	if force {
		return nil
	}
	if _, err := os.Lstat(out); err == nil {
		return usageErr("-o %s already exists; nothing was written (use --force to replace it)", out)
	}
	return nil
}

// same reports whether a and b name the same existing file.
func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// lossOptions are the loss-report flags import and export share.
type lossOptions struct {
	format string // text or json
	strict bool
}

func (o *lossOptions) check() error {
	if o.format != "text" && o.format != "json" {
		return usageErr("the loss report is text or json, not %q%s", o.format, didYouMean(o.format, []string{"text", "json"}))
	}
	return nil
}

// print writes the report (text only when something is lost, unless always;
// json always) and, with --strict, stops the conversion when anything is.
func (o *lossOptions) print(w io.Writer, r *formats.LossReport, always bool) error {
	var out []byte
	switch {
	case o.format == "json":
		out = r.JSON()
	case len(r.Losses) > 0 || r.ActedOn > 0 || always:
		out = r.Text()
	}
	if _, err := w.Write(out); err != nil {
		return err
	}
	if o.strict && len(r.Losses) > 0 {
		if o.format == "text" {
			if _, err := fmt.Fprintf(w, "lore: --strict: %s, nothing written\n", plural(len(r.Losses), "loss", "losses")); err != nil {
				return err
			}
		}
		return exitCode(ExitFindings)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

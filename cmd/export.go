package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

type exportOptions struct {
	to     string
	out    string
	force  bool
	dryRun bool
	assets []string
	image  string
	color  string
	loss   lossOptions
}

func newExportCmd(iox *IO) *cobra.Command {
	var opts exportOptions
	targets := strings.Join(formats.Targets, "|")
	c := &cobra.Command{
		Use:   "export LOREBOOK --to " + targets,
		Short: "Write a lorebook as SillyTavern world info, a Character Card V2/V3, a .charx or a NovelAI lorebook",
		Long: `export writes LOREBOOK (lore's own, or any format import reads) as a file
another tool loads: --to sillytavern writes SillyTavern world-info JSON, card-v2
and card-v3 a Character Card JSON with the entries in character_book (and the V1
fields mirrored at the top), charx a .charx archive (card.json and the assets:
those of a .charx LOREBOOK, and each --asset), novelai a NovelAI .lorebook.
A lorebook imported from one of them exports with every field it had.

-o FILE.png writes a card-v2 or card-v3 as a PNG card, as cards are shared:
the card's JSON in the image's "chara" tEXt chunk (V2), or in "ccv3" with a
V2 copy in "chara" for older readers (V3). The image is --image FILE, else
the card's own when LOREBOOK was read from a PNG card (directly, or a folder
imported from one, which keeps it as card.png), else a plain default; its
pixels and every other chunk are kept byte for byte.

The loss report on stderr names, entry by entry, every field the target cannot
hold and every value it will read differently, with why and what to do.
--format json prints it as data, --dry-run prints only the report (on stdout)
and writes nothing, --strict makes any loss exit 1 and write nothing.
Without -o the file is printed; with -o it is written atomically.`,
		Example: `  lore export book/ --to sillytavern -o Eldoria.json
  lore export seraphina/ --to card-v3 -o seraphina.card.json
  lore export seraphina/ --to card-v3 -o seraphina.png --image portrait.png
  lore export seraphina/ --to charx --asset icon=portrait.png -o seraphina.charx
  lore export Eldoria.json --to novelai --dry-run`,
		Args: args(1, 1, "LOREBOOK", "a LOREBOOK (a folder or a file, in any format lore reads) to export"),
		RunE: func(c *cobra.Command, args []string) error { return runExport(iox, &opts, args[0]) },
	}
	f := c.Flags()
	f.StringVar(&opts.to, "to", "", strings.Join(formats.Targets, ", ")+" (required)")
	f.StringVarP(&opts.out, "output", "o", "", "write to this file instead of stdout")
	f.BoolVar(&opts.force, "force", false, "replace an existing output file")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the loss report only (on stdout); write nothing")
	f.StringArrayVar(&opts.assets, "asset", nil, "a file to put in a .charx, as [TYPE=]FILE (TYPE: icon, background, emotion…; default other)")
	f.StringVar(&opts.image, "image", "", "the picture of a PNG card (-o FILE.png): a PNG, kept pixel for pixel")
	f.StringVar(&opts.loss.format, "format", "text", "loss report: text or json")
	f.BoolVar(&opts.loss.strict, "strict", false, "exit 1 and write nothing when anything is lost or read differently")
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

func runExport(iox *IO, opts *exportOptions, path string) error {
	if opts.to == "" {
		return usageErr("--to is required: %s", strings.Join(formats.Targets, ", "))
	}
	known := false
	for _, t := range formats.Targets {
		known = known || t == opts.to
	}
	if !known {
		return usageErr("--to must be %s, not %q%s", strings.Join(formats.Targets, ", "), opts.to, didYouMean(opts.to, formats.Targets))
	}
	if len(opts.assets) > 0 && opts.to != formats.FormatCharX {
		return usageErr("--asset goes with --to charx: only a .charx holds files")
	}
	png := strings.EqualFold(filepath.Ext(opts.out), ".png")
	switch {
	case png && opts.to != formats.FormatCardV2 && opts.to != formats.FormatCardV3:
		return usageErr("-o %s is a PNG, which holds a character card: use --to card-v2 or card-v3 (--to %s writes no PNG)", opts.out, opts.to)
	case opts.image != "" && !png:
		return usageErr("--image is the picture of a PNG card: give -o FILE.png (and --to card-v2 or card-v3)")
	}
	if err := opts.loss.check(); err != nil {
		return err
	}
	if opts.out != "" && !opts.dryRun {
		if same(path, opts.out) {
			return usageErr("-o %s is the input: export never changes its input", opts.out)
		}
		if err := refuseExisting(opts.out, opts.force); err != nil {
			return err
		}
	}
	lb, err := loadForConvert(iox, path, opts.color)
	if err != nil {
		return err
	}
	assets, err := exportAssets(iox, path, lb, opts)
	if err != nil {
		return err
	}
	var data []byte
	var report *formats.LossReport
	if png {
		img, err := cardImage(iox, path, lb, opts.image, !opts.dryRun)
		if err != nil {
			return err
		}
		if data, report, err = formats.ExportPNG(lb, opts.to, img); err != nil {
			if opts.image != "" {
				return usageErr("--image %s: %v", opts.image, err)
			}
			return usageErr("%v", err)
		}
	} else if data, report, err = formats.Export(lb, opts.to, assets); err != nil {
		return usageErr("%v", err)
	}
	if opts.dryRun {
		return opts.loss.print(iox.Stdout, report, true)
	}
	if err := opts.loss.print(iox.Stderr, report, false); err != nil {
		return err
	}
	if err := writeOut(iox.Stdout, opts.out, data); err != nil || opts.out == "" {
		return err
	}
	// As import does: stdout stays for the data, stderr says what was written.
	_, err = fmt.Fprintf(iox.Stderr, "lore: wrote %s (as %s) to %s\n",
		plural(formats.Exported(lb, opts.to), "entry", "entries"), opts.to, opts.out)
	return err
}

// exportAssets are the files a .charx export carries: those of LOREBOOK
// when it is a .charx, then each --asset TYPE=FILE.
func exportAssets(iox *IO, path string, lb *schema.Lorebook, opts *exportOptions) ([]formats.Asset, error) {
	if opts.to != formats.FormatCharX {
		return nil, nil
	}
	var out []formats.Asset
	if lb.Format == formats.FormatCharX {
		_, data, err := iox.readInput(path, "the LOREBOOK")
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if out, err = formats.CharXAssets(data); err != nil {
			return nil, usageErr("%s: %v", path, err)
		}
	}
	total := 0
	for _, a := range out {
		total += len(a.Data)
	}
	for _, a := range opts.assets {
		typ, file, ok := strings.Cut(a, "=")
		if !ok {
			typ, file = "other", a
		}
		if typ == "" || strings.ContainsAny(typ, "/\\.: ") {
			return nil, usageErr("--asset %s: the type must be one word (icon, background, emotion…)", a)
		}
		// An asset is checked as a lorebook is: a regular file (never
		// /dev/zero or a pipe), at most schema.MaxFileSize, and all of them
		// together at most what a .charx may hold.
		data, err := schema.ReadBytes(file)
		if err != nil {
			return nil, usageErr("--asset %s: %v", a, err)
		}
		if total += len(data); total > formats.MaxCharXTotal {
			return nil, usageErr("--asset %s: the assets add up to over %d MiB, the most a .charx holds", a, formats.MaxCharXTotal>>20)
		}
		out = append(out, formats.Asset{Path: formats.AssetPath(typ, filepath.Base(file)), Data: data})
	}
	return out, nil
}

// cardImage is the picture a PNG card export writes the card into: --image,
// else the card's own (LOREBOOK read from a PNG card, or a lorebook that
// names its image, as a folder imported from one does), else lore's plain
// default, which say says on stderr.
func cardImage(iox *IO, path string, lb *schema.Lorebook, flag string, say bool) ([]byte, error) {
	if flag != "" {
		data, err := schema.ReadBytes(flag)
		if err != nil {
			return nil, usageErr("--image %s: %v", flag, err)
		}
		return data, nil
	}
	if lb.Format == formats.FormatCardV2 || lb.Format == formats.FormatCardV3 {
		if st, err := os.Stat(path); err == nil && !st.IsDir() || path == stdinArg {
			if _, data, err := iox.readInput(path, "the LOREBOOK"); err == nil && formats.IsPNG(data) {
				return data, nil
			}
		}
	}
	if ref := formats.ImageRef(lb); ref != "" {
		dir := lb.Path
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			dir = filepath.Dir(dir)
		}
		if !filepath.IsLocal(ref) {
			return nil, usageErr("%s: %s %q is not a file in the lorebook's folder", lb.Path, formats.PNGImageKey, ref)
		}
		data, err := schema.ReadBytes(filepath.Join(dir, ref))
		if err != nil {
			return nil, usageErr("%s: the card's image (%s): %v", lb.Path, formats.PNGImageKey, err)
		}
		return data, nil
	}
	if say {
		fmt.Fprintf(iox.Stderr, "lore: %s has no image of its own: the card is written into lore's plain default picture (--image FILE for yours)\n", lb.Path)
	}
	return formats.DefaultCardImage, nil
}

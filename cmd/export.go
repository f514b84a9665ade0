package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
)

type exportOptions struct {
	to    string
	out   string
	force bool
	color string
}

func newExportCmd(iox *IO) *cobra.Command {
	var opts exportOptions
	c := &cobra.Command{
		Use:   "export LOREBOOK --to sillytavern|card-v3",
		Short: "Write a lorebook as SillyTavern world info or a Character Card V3",
		Long: `export writes LOREBOOK (lore's own, or any format import reads) as a file
another tool loads: --to sillytavern writes SillyTavern world-info JSON, --to
card-v3 a Character Card V3 JSON with the entries in character_book. A lorebook
imported from SillyTavern exports with every entry's keys, secondary keys,
content, enabled state, order, position, depth and kept extensions unchanged.
Without -o the file is printed; with -o it is written atomically.`,
		Example: `  lore export book/ --to sillytavern -o Eldoria.json
  lore export seraphina/ --to card-v3 -o seraphina.card.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runExport(iox, &opts, args[0]) },
	}
	f := c.Flags()
	f.StringVar(&opts.to, "to", "", "sillytavern or card-v3 (required)")
	f.StringVarP(&opts.out, "output", "o", "", "write to this file instead of stdout")
	f.BoolVar(&opts.force, "force", false, "replace an existing output file")
	addColorFlag(c, &opts.color)
	return c
}

func runExport(iox *IO, opts *exportOptions, path string) error {
	switch opts.to {
	case formats.FormatSillyTavern, formats.FormatCardV3:
	case "":
		return usageErr("--to is required: sillytavern or card-v3")
	default:
		return usageErr("--to must be sillytavern or card-v3, not %q", opts.to)
	}
	if opts.out != "" && same(path, opts.out) {
		return usageErr("-o %s is the input: export never changes its input", opts.out)
	}
	if opts.out != "" {
		if err := refuseExisting(opts.out, opts.force); err != nil {
			return err
		}
	}
	lb, err := loadForConvert(iox, path, opts.color)
	if err != nil {
		return err
	}
	var data []byte
	var ds []diag.Diagnostic
	if opts.to == formats.FormatSillyTavern {
		data, ds = formats.ExportSillyTavern(lb)
	} else {
		data, ds = formats.ExportCardV3(lb)
	}
	if len(ds) > 0 {
		on, _ := useColor(iox, opts.color)
		p, _ := diag.NewPrinter("text", diag.Options{Color: on})
		if err := p.Print(iox.Stderr, diag.Sort(ds)); err != nil {
			return err
		}
	}
	return writeOut(iox.Stdout, opts.out, data)
}

package cmd

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/lorekit/lore/canon"
	"github.com/spf13/cobra"
)

// initFiles is the starter project `lore init` writes: a folder lorebook with an
// entry of every section, a transcript and a variables file beside it (not inside:
// every YAML file below a lorebook folder is read as entries).
//
//go:embed initdata
var initFiles embed.FS

type initOptions struct {
	force bool
}

func newInitCmd(iox *IO) *cobra.Command {
	opts := &initOptions{}
	c := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a small working lorebook, transcript and variables file",
		Long: `init writes a starter project into DIR (default: the current folder):

  DIR/book/lorebook.yaml      the manifest: settings, variables, persona, presets
  DIR/book/entries/*.yaml     entries of every section
  DIR/transcript.yaml         a short chat to render against
  DIR/vars.yaml               variable values for the chat
  DIR/tests/story.yaml        tests of the lorebook, run by 'lore test DIR'

If any of these files exists, nothing is written. With --force the existing
ones are replaced (your edits to them are lost) and listed as replaced; a
read-only file is never replaced.`,
		Example: `  lore init my-world
  lore lint my-world/book
  lore render my-world/book --transcript my-world/transcript.yaml --vars my-world/vars.yaml`,
		Args: args(0, 1, "DIR", ""),
		RunE: func(c *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runInit(iox, dir, opts)
		},
	}
	c.Flags().BoolVar(&opts.force, "force", false, "replace starter files that already exist (listed as replaced)")
	return c
}

func runInit(iox *IO, dir string, opts *initOptions) error {
	type file struct {
		rel  string
		data []byte
	}
	var files []file
	err := fs.WalkDir(initFiles, "initdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := initFiles.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("initdata", filepath.FromSlash(p))
		files = append(files, file{rel: rel, data: data})
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the starter files: %w", err)
	}
	// Check every target first so that a clash (or, with --force, a file that
	// cannot be replaced) leaves the folder untouched.
	replaced := map[string]bool{}
	for _, f := range files {
		target := filepath.Join(dir, f.rel)
		_, err := os.Stat(target)
		switch {
		case err == nil && !opts.force:
			return usageErr("%s already exists; nothing was written (--force replaces the starter files that exist)", target)
		case err == nil:
			if err := canon.Writable(target); err != nil {
				return usageErr("%v; nothing was written", err)
			}
			replaced[f.rel] = true
		case !errors.Is(err, fs.ErrNotExist):
			return usageErr("%v", err)
		}
	}
	for _, f := range files {
		target := filepath.Join(dir, f.rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return usageErr("%v", err)
		}
		if err := canon.WriteFile(target, f.data); err != nil {
			return usageErr("%v", err)
		}
	}
	fmt.Fprintf(iox.Stdout, "Created a lorebook in %s:\n", path.Clean(filepath.ToSlash(dir)))
	for _, f := range files {
		note := ""
		if replaced[f.rel] {
			note = "  (replaced the existing file: --force)"
		}
		fmt.Fprintf(iox.Stdout, "  %s%s\n", filepath.ToSlash(filepath.Join(dir, f.rel)), note)
	}
	book := filepath.ToSlash(filepath.Join(dir, "book"))
	fmt.Fprintf(iox.Stdout, "\nNext:\n  lore lint %s\n  lore render %s --transcript %s --vars %s\n  lore test %s\n",
		book, book, filepath.ToSlash(filepath.Join(dir, "transcript.yaml")), filepath.ToSlash(filepath.Join(dir, "vars.yaml")),
		path.Clean(filepath.ToSlash(dir)))
	return nil
}

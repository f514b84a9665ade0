package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// What a file named on the command line is, when that is clear from its content.
const (
	kindLorebook   = "lorebook"
	kindTranscript = "transcript"
	kindVars       = "vars"
	kindTest       = "test"
)

// kindNames say a kind in a sentence; kindFlags, where a file of that kind goes.
var (
	kindNames = map[string]string{kindLorebook: "a lorebook", kindTranscript: "a transcript", kindVars: "a variables file", kindTest: "a test file", "config": "a " + settings.FileName}
	kindFlags = map[string]string{kindLorebook: "as the LOREBOOK argument", kindTranscript: "with --transcript", kindVars: "with --vars"}
)

// namedFileKind says what the file at p is when its content leaves no doubt:
// a lorebook (lore's own, with entries or an id and a section, or a foreign
// one), a transcript (messages, or a list of chat messages), a variables file
// (a mapping of plain values under keys no lorebook has), or "" for anything
// else (a .lore.yaml, a folder, a file that does not read or parse), which
// its loader then judges.
func namedFileKind(p string) string {
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return ""
	}
	if strings.EqualFold(filepath.Ext(p), ".jsonl") {
		return kindTranscript
	}
	src, err := formats.ReadSource(p)
	if err != nil {
		return "" // unreadable: its loader says
	}
	return sourceKind(src)
}

// sourceKind is namedFileKind for a file already read.
func sourceKind(src *formats.Source) string {
	p := src.Path
	if strings.EqualFold(filepath.Ext(p), ".jsonl") {
		return kindTranscript
	}
	if !src.Parsed() {
		return "" // binary (a PNG card) or not parsed: its loader says
	}
	if src.Foreign() {
		return kindLorebook
	}
	root := src.Doc().Root
	if k, ok := schema.IsLoreData(p, root); ok && k == schema.KindLorebook || root.Kind == yaml.MappingNode && hasManifestName(p) {
		return kindLorebook
	}
	switch schema.DetectKind(p, root) {
	case schema.KindTest:
		return kindTest
	case schema.KindTranscript:
		if root.Kind == yaml.SequenceNode || mappingHas(root, "messages") {
			return kindTranscript
		}
	case schema.KindVars:
		// Variable values are plain values or lists of them; a mapping of
		// mappings is more likely a broken lorebook or configuration.
		for i := 1; i < len(root.Content); i += 2 {
			if v := root.Content[i]; v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode && !scalars(v) {
				return ""
			}
		}
		return kindVars
	}
	return ""
}

func hasManifestName(p string) bool {
	switch strings.ToLower(filepath.Base(p)) {
	case "lorebook.yaml", "lorebook.yml", "lorebook.json":
		return true
	}
	return false
}

func scalars(seq *yaml.Node) bool {
	for _, c := range seq.Content {
		if c.Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

func mappingHas(m *yaml.Node, key string) bool {
	for i := 0; m.Kind == yaml.MappingNode && i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// wrongKind is a load error for a file given where another kind is wanted
// (flag is the flag it was given to, or "" for the LOREBOOK argument), or nil
// when the file is, or may be, of the kind wanted.
func wrongKind(p, flag, want string) error { return kindError(p, flag, want, namedFileKind(p)) }

// kindError is wrongKind for a file whose kind is known. takes are the
// flags of the command that a transcript or a variables file may go to;
// none named means render's and tokens' (--transcript and --vars).
func kindError(p, flag, want, got string, takes ...string) error {
	if got == "" || got == want || want == "config" && got == kindVars {
		return nil
	}
	msg := fmt.Sprintf("this is %s, not %s", kindNames[got], kindNames[want])
	if flag != "" {
		msg = fmt.Sprintf("given to %s, but %s", flag, msg)
	}
	if takes == nil {
		takes = []string{"--transcript", "--vars"}
	}
	where := kindFlags[got]
	switch {
	case got == kindTest:
		msg += ": run it with lore test " + p
	case where == "":
	case got == kindLorebook || slices.Contains(takes, strings.TrimPrefix(where, "with ")):
		msg += ": pass it " + where
	case got == kindTranscript:
		msg += ": lore render and lore tokens take it " + where
	case got == kindVars:
		msg += ": lore render, tokens and lint take it " + where
	}
	return &schema.ParseError{Pos: diag.Pos{File: p}, Msg: msg}
}

// holdsBooks is the error for a folder without a manifest that holds
// lorebooks (a 'lore init' project, a repository): the book the user meant
// is below it, so the error names it rather than suggest a manifest, which
// would turn the project's transcript and tests into entries. nil for
// anything else (schema.Load says what is wrong with it).
func holdsBooks(path string) error {
	if st, err := os.Stat(path); err != nil || !st.IsDir() || hasManifest(path) {
		return nil
	}
	found, _, err := walkTree(path, map[string]bool{treeLorebook: true})
	if err != nil || len(found) == 0 {
		return nil
	}
	var msg string
	if len(found) == 1 {
		msg = fmt.Sprintf("this folder is not a lorebook (it has no lorebook.yaml) but holds one: did you mean %s?", found[0])
	} else {
		names := found[:min(len(found), 3)]
		msg = fmt.Sprintf("this folder is not a lorebook (it has no lorebook.yaml) but holds %d: %s", len(found), strings.Join(names, ", "))
		if len(found) > 3 {
			msg += fmt.Sprintf(" and %d more", len(found)-3)
		}
		msg += "; name one of them"
	}
	return &schema.ParseError{Pos: diag.Pos{File: path}, Msg: msg}
}

// noFlags is the flags of a command that takes neither a transcript nor a
// variables file (import, export), for openBook.
var noFlags = []string{}

// openBook loads the LOREBOOK argument of a command that takes the flags
// takes (see kindError), refusing a transcript, variables or test file with
// where it goes. A file is read and parsed once for both.
func openBook(iox *IO, path string, takes ...string) (*schema.Lorebook, []diag.Diagnostic, error) {
	if path == stdinArg {
		src, err := iox.stdinSource("the LOREBOOK")
		if err != nil {
			return nil, nil, err
		}
		if err := kindError(src.Path, "", kindLorebook, sourceKind(src), takes...); err != nil {
			return nil, nil, err
		}
		return src.Open()
	}
	if err := holdsBooks(path); err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() || strings.EqualFold(filepath.Ext(path), ".jsonl") {
		if err := kindError(path, "", kindLorebook, namedFileKind(path), takes...); err != nil {
			return nil, nil, err
		}
		return formats.Open(path)
	}
	src, err := formats.ReadSource(path)
	if err != nil {
		return nil, nil, err
	}
	if err := kindError(path, "", kindLorebook, sourceKind(src), takes...); err != nil {
		return nil, nil, err
	}
	return src.Open()
}

// loadVarsFile loads the file of --vars (- for standard input).
func loadVarsFile(iox *IO, p string) (*schema.Vars, []diag.Diagnostic, error) {
	if p == stdinArg {
		src, err := iox.stdinSource("--vars")
		if err != nil {
			return nil, nil, err
		}
		if err := kindError(src.Path, "--vars", kindVars, sourceKind(src)); err != nil {
			return nil, nil, err
		}
		if src.DocErr != nil || src.Doc() == nil {
			return nil, nil, stdinDocErr(src)
		}
		v, ds := schema.LoadVarsDoc(src.Doc())
		return v, ds, nil
	}
	if err := wrongKind(p, "--vars", kindVars); err != nil {
		return nil, nil, err
	}
	return schema.LoadVars(p)
}

// loadTranscriptFile loads the file of --transcript (- for standard input).
func loadTranscriptFile(iox *IO, p string) (*schema.Transcript, []diag.Diagnostic, error) {
	if p == stdinArg {
		name, data, err := iox.readStdin("--transcript")
		if err != nil {
			return nil, nil, err
		}
		if err := kindError(name, "--transcript", kindTranscript, sourceKind(formats.SourceFrom(name, data))); err != nil {
			return nil, nil, err
		}
		return schema.LoadTranscriptBytes(name, data)
	}
	// A chat of 20,000 messages is 11 MB of YAML: read and parse it once,
	// for the kind check and the load (a .jsonl chat, a folder or a file
	// that does not parse goes to LoadTranscript, which says what it is).
	if st, err := os.Stat(p); err == nil && !st.IsDir() && !strings.EqualFold(filepath.Ext(p), ".jsonl") {
		if src, err := formats.ReadSource(p); err == nil && src.Doc() != nil {
			if err := kindError(p, "--transcript", kindTranscript, sourceKind(src)); err != nil {
				return nil, nil, err
			}
			t, ds := schema.LoadTranscriptDoc(src.Doc())
			return t, ds, nil
		}
	}
	if err := wrongKind(p, "--transcript", kindTranscript); err != nil {
		return nil, nil, err
	}
	return schema.LoadTranscript(p)
}

// stdinDocErr is why standard input is not a document: its parse error, or
// binary data where text was wanted.
func stdinDocErr(src *formats.Source) error {
	if src.DocErr != nil {
		return src.DocErr
	}
	return &schema.ParseError{Pos: diag.Pos{File: src.Path}, Msg: "binary data, not a YAML or JSON file"}
}

// loadConfigFile loads a .lore.yaml (given to --config, or found upward): a
// missing file or a folder is said as for every other file.
func loadConfigFile(p string) (*settings.File, []diag.Diagnostic, error) {
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		_, err := schema.ReadFile(p) // "no such file or folder", "is a folder, not a file"
		return nil, nil, err
	}
	if err := wrongKind(p, "--config", "config"); err != nil {
		return nil, nil, err
	}
	return settings.LoadFile(p, lint.KnownRule)
}

// oneLorebook is the argument check of render and tokens. A second path is
// most often a transcript or variables file given without its flag: the
// error says which flag it wants.
func oneLorebook(c *cobra.Command, args []string) error {
	if err := oneStdin(c, args); err != nil {
		return err
	}
	name, path := c.Name(), c.CommandPath()
	switch len(args) {
	case 1:
		return nil
	case 0:
		return usageErr("%s needs a LOREBOOK (a folder or a file); see '%s --help'", name, path)
	}
	for _, a := range args[1:] {
		if k := namedFileKind(a); k == kindTranscript || k == kindVars {
			return usageErr("%s takes one LOREBOOK; %s is %s: pass it %s (%s %s %s %s); see '%s --help'",
				name, a, kindNames[k], kindFlags[k], path, args[0], strings.TrimPrefix(kindFlags[k], "with "), a, path)
		}
	}
	return usageErr("%s takes one LOREBOOK, not %d paths: a transcript goes after --transcript, a variables file after --vars; see '%s --help'",
		name, len(args), path)
}

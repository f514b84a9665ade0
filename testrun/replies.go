package testrun

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/reply"
	"github.com/lorekit/lore/schema"
)

// RepliesExpect checks replies a model wrote against the lorebook's output
// formats, as `lore check-reply` does: the files of Match must have no
// finding at error level, each file of NotMatch at least one.
type RepliesExpect struct {
	// Format names the one format to check (required in each reply); nil:
	// every format of the lorebook.
	Format   *At[string]
	Match    []At[string] // paths, resolved against the test file
	NotMatch []At[string]
	Pos      Pos
}

func (d *decoder) replies(n *yaml.Node) *RepliesExpect {
	r := &RepliesExpect{Pos: d.pos(n)}
	for _, p := range d.fields(n) {
		switch p.Key {
		case "format":
			r.Format = &At[string]{str(p.Value), d.pos(p.Value)}
		case "match", "notMatch":
			var paths []At[string]
			for _, c := range schema.Resolve(p.Value).Content {
				paths = append(paths, At[string]{d.rel(str(c)), d.pos(c)})
			}
			if p.Key == "match" {
				r.Match = paths
			} else {
				r.NotMatch = paths
			}
		}
	}
	if len(r.Match) == 0 && len(r.NotMatch) == 0 {
		d.errorf(n, "replies: names no reply files: give it match: or notMatch: (a list of files or folders)")
	}
	return r
}

// checkReplies checks a case's reply expectation against the lorebook's
// formats (compiled once per lorebook). A reply file that cannot be read
// makes the case unable to run, as a transcript that cannot be read does.
func (r *runner) checkReplies(e *RepliesExpect, book *schema.Lorebook, bookPath string) ([]*Failure, *inputError) {
	all, _, _ := r.formats.get(bookPath, func() ([]*reply.Format, []diag.Diagnostic, error) {
		fs, _ := reply.Compile(book)
		return fs, nil, nil
	})
	formats, named, what := all, false, "the lorebook's output formats"
	if e.Format != nil {
		f := reply.Lookup(all, e.Format.V)
		switch {
		case f == nil:
			return []*Failure{{Pos: e.Format.Pos, Kind: "replies.format", Expected: "an output format " + e.Format.V,
				Got: "no such format", Message: reply.Unknown(all, e.Format.V, output.Suggest)}}, nil
		case f.Unchecked != "":
			return []*Failure{{Pos: e.Format.Pos, Kind: "replies.format", Expected: "a format replies can be checked against",
				Got: f.Unchecked, Message: fmt.Sprintf("replies cannot be checked against %s: %s", f.ID, f.Unchecked)}}, nil
		}
		formats, named, what = []*reply.Format{f}, true, f.ID
	}
	var out []*Failure
	for _, want := range []struct {
		match bool
		files []At[string]
	}{{true, e.Match}, {false, e.NotMatch}} {
		for _, at := range want.files {
			files, err := reply.Expand(at.V)
			if err == nil && len(files) == 0 {
				out = append(out, &Failure{Pos: at.Pos, Kind: replyKind(want.match), Expected: "reply files", Got: "none",
					Message: fmt.Sprintf("the folder %s holds no reply files (.txt, .md, .jsonl)", at.V)})
				continue
			}
			for _, file := range files {
				rs, ds, err := reply.ReadPath(file)
				if err != nil {
					return nil, &inputError{pos: at.Pos, msg: fmt.Sprintf("reply file %s cannot be read", file),
						ds: append(ds, schema.ErrorDiagnostics(file, err)...), unreadable: true}
				}
				var found []diag.Diagnostic
				for _, x := range rs {
					found = append(found, reply.Check(x, formats, named)...)
				}
				found = diag.Sort(append(ds, found...))
				errs, _, _ := diag.Count(found)
				switch {
				case want.match && errs > 0:
					out = append(out, &Failure{Pos: at.Pos, Kind: "replies.match", Expected: "no findings",
						Got: fmt.Sprintf("%d %s", errs, plural(errs, "error", "errors")), Findings: found,
						Message: fmt.Sprintf("expected %s to match %s; it has %d %s", file, what, errs, plural(errs, "error", "errors"))})
				case !want.match && errs == 0:
					out = append(out, &Failure{Pos: at.Pos, Kind: "replies.notMatch", Expected: "a finding", Got: "none",
						Message: fmt.Sprintf("expected %s not to match %s; it matches", file, what)})
				}
			}
		}
	}
	return out, nil
}

func replyKind(match bool) string {
	if match {
		return "replies.match"
	}
	return "replies.notMatch"
}

// findingsText is a failure's reply findings as text output prints them.
func (f *Failure) findingsText() string {
	if len(f.Findings) == 0 {
		return ""
	}
	var b strings.Builder
	pr, _ := diag.NewPrinter("text", diag.Options{})
	_ = pr.Print(&b, f.Findings)
	return b.String()
}

package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/reply"
	"github.com/lorekit/lore/schema"
)

type checkReplyOptions struct {
	templates []string
	format    string
	strict    bool
	color     string
}

func newCheckReplyCmd(iox *IO) *cobra.Command {
	opts := &checkReplyOptions{}
	c := &cobra.Command{
		Use:   "check-reply BOOK REPLY...",
		Short: "Check a model's replies against the book's output formats",
		Long: `check-reply checks what a model wrote against the output formats (format:
blocks, SPEC §5) of the lorebook BOOK: each REPLY is a text file, - for
standard input, a SillyTavern chat .jsonl (every character message is a reply),
or a folder (every .txt, .md and .jsonl file below it).

For each format it finds the format's block in the reply (by the tag the
format is wrapped in, or by its first line of literal text) and reports, at
the reply's line:col with the template's file:line:col:

  - a block the format's rule asks for in every reply that is missing, or a
    block written twice (reply-missing, reply-twice);
  - literal text missing or changed, lines missing, extra or out of order
    (reply-literal, reply-extra, reply-order); spaces and full-width forms
    (：and :) do not count;
  - a ${…} left unfilled, copied or empty, a $(…) printed (reply-unfilled,
    reply-instruction);
  - a line that matches none of a ${part}'s alternatives (reply-part);
  - tags never closed, nested wrongly or left over (reply-tag);
  - a limit the template states broken: 最多20字, "at most 20 characters",
    {{random::4::5::6}} options (reply-limit);
  - JSON that does not parse or does not fit the format's TypeScript or zod
    type: (reply-json).

Which formats: every format of the book's enabled entries, each where a reply
has it and required where its rule says every reply must have it (必须, must,
always, …, without if/when/如果). --template ID checks only the formats named
(each required): ID is the entry's id and the format's key, as in
status#状态栏, or the entry's id when it has one format. docs/formats-replies.md
lists what lore reads in a template.

Formats: text (default; on a terminal with colour and the reply's line), json,
sarif, github. Exit codes: 0 clean, 1 errors (or warnings with --strict), 2
bad usage or a book or reply that cannot be read.`,
		Example: `  lore check-reply book/ replies/reply-1.txt
  lore check-reply book/ chat.jsonl --template status#状态栏
  pbpaste | lore check-reply book/ -
  lore check-reply book/ replies/ --format sarif > replies.sarif`,
		Args: args(2, -1, "REPLY", "a LOREBOOK and at least one REPLY file (- for standard input)"),
		RunE: func(c *cobra.Command, args []string) error { return runCheckReply(iox, opts, args) },
	}
	c.Flags().StringArrayVar(&opts.templates, "template", nil, "check only this format (entry id#key, e.g. status#状态栏); repeatable")
	c.Flags().StringVar(&opts.format, "format", "text", "output format: "+strings.Join(diag.Formats(), ", "))
	c.Flags().BoolVar(&opts.strict, "strict", false, "exit 1 on warnings too")
	addColorFlag(c, &opts.color)
	return c
}

func runCheckReply(iox *IO, opts *checkReplyOptions, args []string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	var pr diag.Printer
	if opts.format == "sarif" {
		pr = &diag.SARIFPrinter{Rules: reply.RuleInfos(), Version: Version}
	} else if pr, err = diagPrinter(opts.format, on); err != nil {
		return err
	}

	bookPath := args[0]
	book, ds, err := openLorebook(iox, bookPath)
	if err != nil || book == nil {
		if err := printErrors(iox.Stderr, append(ds, schema.ErrorDiagnostics(bookPath, err)...), on); err != nil {
			return err
		}
		return exitCode(ExitUsage)
	}
	if errs, _, _ := diag.Count(ds); errs > 0 {
		// A format read from a half-loaded book would mislead more than help.
		if err := printErrors(iox.Stderr, ds, on); err != nil {
			return err
		}
		return exitCode(ExitFindings)
	}
	formats, notes := reply.Compile(book)
	named := false
	if len(opts.templates) > 0 {
		var picked []*reply.Format
		for _, id := range opts.templates {
			f := reply.Lookup(formats, id)
			if f == nil {
				return usageErr("--template %s: %s", id, reply.Unknown(formats, id, output.Suggest))
			}
			if f.Unchecked != "" {
				return usageErr("--template %s: replies cannot be checked against it: %s", id, f.Unchecked)
			}
			picked = append(picked, f)
		}
		formats, named = picked, true
	}

	all := notes
	unreadable, replies := false, 0
	for _, arg := range args[1:] {
		var rs []*reply.Reply
		var rds []diag.Diagnostic
		var err error
		if arg == "-" {
			rs, rds, err = readStdinReplies(iox.Stdin)
		} else {
			rs, rds, err = readReplies(arg)
		}
		all = append(all, rds...)
		if err != nil {
			unreadable = true
			all = append(all, schema.ErrorDiagnostics(arg, err)...)
		}
		for _, r := range rs {
			replies++
			all = append(all, reply.Check(r, formats, named)...)
		}
	}
	all = diag.Sort(all)
	if err := pr.Print(iox.Stdout, all); err != nil {
		return err
	}
	if opts.format == "text" {
		fmt.Fprintln(iox.Stderr, replySummary(all, replies))
	}
	return findingsExit(all, unreadable, opts.strict)
}

// readReplies reads a reply file, or every reply file of a folder.
func readReplies(path string) ([]*reply.Reply, []diag.Diagnostic, error) {
	files, err := reply.Expand(path)
	if err != nil {
		return nil, nil, err
	}
	var out []*reply.Reply
	var all []diag.Diagnostic
	for _, f := range files {
		rs, ds, err := reply.ReadPath(f)
		all = append(all, ds...)
		if err != nil {
			return out, all, err
		}
		out = append(out, rs...)
	}
	return out, all, nil
}

// readStdinReplies reads standard input as one reply file named "stdin".
func readStdinReplies(r io.Reader) ([]*reply.Reply, []diag.Diagnostic, error) {
	data, err := io.ReadAll(io.LimitReader(r, schema.MaxFileSize+1))
	if err != nil {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: reply.StdinName}, Msg: fmt.Sprintf("cannot read standard input: %v", err)}
	}
	if len(data) > schema.MaxFileSize {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: reply.StdinName}, Msg: "standard input is over 64 MiB: a reply is text"}
	}
	return reply.ReadFile(reply.StdinName, data)
}

// replySummary is the closing line of text output: "2 errors in 3 replies".
func replySummary(ds []diag.Diagnostic, replies int) string {
	s := diag.Summary(ds, replies)
	return strings.TrimSuffix(strings.TrimSuffix(s, " files"), " file") + map[bool]string{true: " reply", false: " replies"}[replies == 1]
}

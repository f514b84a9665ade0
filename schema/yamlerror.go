package schema

import (
	"bytes"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// yaml.v3's syntax errors name a line, not always the right one, and never a
// column: this file turns them into positions a person can go to.

var (
	yamlErrLine       = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlUnknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

// yamlParserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner). For them yaml.v3 prints a 0-based line, the start of the enclosing
// collection more often than the offending token: one or more lines too early.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// yamlSyntaxError turns a yaml.v3 error into a positioned ParseError, moving
// parser errors to the line that really holds the problem.
func yamlSyntaxError(path string, data []byte, err error) *ParseError {
	li := newLineIndex(path, data)
	msg := err.Error()
	m := yamlErrLine.FindStringSubmatch(msg)
	if m == nil {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if a := yamlUnknownAnchor.FindStringSubmatch(msg); a != nil {
			// yaml.v3 gives no line for this one: find the alias in the text.
			p := Pos{File: path}
			if i := bytes.Index(data, []byte("*"+a[1])); i >= 0 {
				p = li.pos(i)
			}
			return errAt(p, "invalid YAML: alias *%s names no anchor (&%s) defined before it", a[1], a[1])
		}
		if strings.HasPrefix(msg, "exceeded max depth") {
			return errAt(Pos{File: path, Line: 1, Col: 1}, "nesting is deeper than %d levels", MaxDepth)
		}
		return errAt(Pos{File: path}, "invalid YAML: %s", msg)
	}
	line, block, problem, _ := YAMLErrorLine(data, err)
	if strings.HasPrefix(problem, "exceeded max depth") {
		return errAt(li.lineStart(line), "nesting is deeper than %d levels", MaxDepth)
	}
	if block > 0 {
		return errAt(li.lineStart(line), "invalid YAML: %s (in the block that starts at line %d)", problem, block)
	}
	if problem == "found unexpected end of stream" {
		if off := unclosedQuote(data, li, line); off >= 0 {
			return errAt(li.pos(off), "invalid YAML: %s (a quote opened here is never closed)", problem)
		}
		problem += " (a quote or bracket opened here is never closed?)"
	}
	if off := li.offset(line, 1); off >= 0 && off < len(data) && data[off] == '\t' {
		return errAt(li.pos(off), "invalid YAML: a tab indents this line; YAML indentation must use spaces")
	}
	return errAt(li.lineStart(line), "invalid YAML: %s", problem)
}

// unclosedQuote finds, on a 1-based line, the quote that opens a scalar and
// is never closed before the end of the file: yaml.v3 names the line of a
// quoted scalar that runs into the end of the stream, not its column. A quote
// opens a scalar where a value starts (after "key: ", "- ", "[", "{" or ",");
// an apostrophe inside plain text does not. -1 when there is none.
func unclosedQuote(data []byte, li *lineIndex, line int) int {
	start := li.offset(line, 1)
	if start < 0 {
		return -1
	}
	end := li.lineEndOffset(line)
	for i := start; i < end; i++ {
		q := data[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := i - 1
		for j >= start && (data[j] == ' ' || data[j] == '\t') {
			j--
		}
		valueStart := j < start || data[j] == '[' || data[j] == '{' || data[j] == ',' ||
			((data[j] == ':' || data[j] == '-' || data[j] == '?') && j < i-1)
		if !valueStart {
			continue
		}
		close := closingQuote(data, i)
		if close < 0 {
			return i
		}
		i = close
	}
	return -1
}

// closingQuote is the offset of the quote closing the scalar opened at
// data[open], or -1: a double-quoted scalar ends at an unescaped '"', a
// single-quoted one at a "'" not doubled.
func closingQuote(data []byte, open int) int {
	q := data[open]
	for i := open + 1; i < len(data); i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case data[i] == q && q == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case data[i] == q:
			return i
		}
	}
	return -1
}

// findProblemLine finds the first line L >= from such that the file cut after
// line L fails with the same error: the parser stops at the first bad token,
// so that is the line holding it. Cuts before it parse cleanly or fail
// differently. Binary search keeps it at O(log lines) parses; big files skip it.
func findProblemLine(data []byte, li *lineIndex, from int, want string) int {
	if len(data) > 1<<20 {
		return 0
	}
	same := func(l int) bool {
		var n yaml.Node
		err := yaml.Unmarshal(data[:li.lineEndOffset(l)], &n)
		return err != nil && err.Error() == want
	}
	lo, hi := from, li.lines()
	if !same(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if same(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

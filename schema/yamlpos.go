package schema

import "strconv"

// YAMLErrorLine reads where a yaml.v3 error about data is: the 1-based line
// that holds the problem, the line of the enclosing block yaml.v3 named when
// that is another one (0 when it is the same), and the problem without its
// "yaml: line N:" prefix. ok is false for errors that name no line.
//
// yaml.v3 prints its parser's marks 0-based, and often at the start of the
// enclosing collection rather than at the offending token; this is the one
// place that corrects both, for the loader and for every rule that parses YAML
// inside content (lint's format-template).
func YAMLErrorLine(data []byte, err error) (line, block int, problem string, ok bool) {
	m := yamlErrLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, 0, "", false
	}
	line, _ = strconv.Atoi(m[1])
	problem = m[2]
	li := newLineIndex("", data)
	if yamlParserProblems[problem] {
		line++ // yaml.v3 forgets to make parser marks 1-based
		switch real := findProblemLine(data, li, line, m[0]); {
		case real > line:
			return real, line, problem, true
		case real == line:
			return line, 0, problem, true
		}
	}
	return min(line, li.lines()), 0, problem, true
}

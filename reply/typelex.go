package reply

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The `type:` of a JSON format is a small program: TypeScript interfaces and
// type aliases, or zod schemas assigned to constants. This is the lexer and
// the token reader both parsers share.

type tok struct {
	kind byte   // 'i' identifier, 's' string, 'n' number, 'p' punctuation, 0 the end
	text string // the identifier, the string's value, the number, the punctuation
	at   int    // byte offset in the source
}

// typeError is a declaration the checker does not read, and where.
type typeError struct {
	at  int
	msg string
}

func (e *typeError) Error() string { return e.msg }

const maxTypeTokens = 100000

func lexTypes(src string) ([]tok, *typeError) {
	var out []tok
	i := 0
	for i < len(src) {
		if len(out) > maxTypeTokens {
			return nil, &typeError{i, "the declaration is too long"}
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case strings.HasPrefix(src[i:], "//"):
			if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
				i += nl
			} else {
				i = len(src)
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, &typeError{i, "a /* comment is never closed"}
			}
			i += 2 + end + 2
		case r == '\'' || r == '"' || r == '`':
			s, n, err := lexString(src[i:])
			if err != "" {
				return nil, &typeError{i, err}
			}
			out = append(out, tok{kind: 's', text: s, at: i})
			i += n
		case r == '_' || r == '$' || unicode.IsLetter(r):
			j := i
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if r2 != '_' && r2 != '$' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += s2
			}
			out = append(out, tok{kind: 'i', text: src[i:j], at: i})
			i = j
		case r >= '0' && r <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == '_' || src[j] == 'e' || src[j] == 'E') {
				j++
			}
			out = append(out, tok{kind: 'n', text: strings.ReplaceAll(src[i:j], "_", ""), at: i})
			i = j
		case strings.ContainsRune("{}[]()<>:;,|&?.=!-+*/", r):
			out = append(out, tok{kind: 'p', text: string(r), at: i})
			i += size
		default:
			return nil, &typeError{i, fmt.Sprintf("unexpected %q", r)}
		}
	}
	return append(out, tok{at: len(src)}), nil
}

// lexString reads a quoted string at the start of s: its value, its length
// in s, or what is wrong.
func lexString(s string) (string, int, string) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, ""
		case c == '\n' && q != '`':
			return "", 0, "a string is not closed on its line"
		case c == '$' && q == '`' && i+1 < len(s) && s[i+1] == '{':
			return "", 0, "a template string with ${…} in it has no fixed value"
		case c == '\\' && i+1 < len(s):
			e := s[i+1]
			i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if i+4 <= len(s) {
					if n, err := strconv.ParseUint(s[i:i+4], 16, 32); err == nil {
						b.WriteRune(rune(n))
						i += 4
						continue
					}
				}
				b.WriteByte('u')
			default:
				b.WriteByte(e)
			}
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	return "", 0, "a string is never closed"
}

// tokens reads a token list.
type tokens struct {
	t   []tok
	i   int
	err *typeError
}

func (p *tokens) peek() tok { return p.t[p.i] }

func (p *tokens) peekAt(k int) tok {
	if p.i+k < len(p.t) {
		return p.t[p.i+k]
	}
	return p.t[len(p.t)-1]
}

func (p *tokens) next() tok {
	t := p.t[p.i]
	if p.i < len(p.t)-1 {
		p.i++
	}
	return t
}

func (p *tokens) is(kind byte, text string) bool {
	t := p.peek()
	return t.kind == kind && t.text == text
}

func (p *tokens) accept(kind byte, text string) bool {
	if p.is(kind, text) {
		p.next()
		return true
	}
	return false
}

// fail records the first error; it returns nil so that parsers can return it.
func (p *tokens) fail(at int, format string, args ...any) *typ {
	if p.err == nil {
		p.err = &typeError{at, fmt.Sprintf(format, args...)}
	}
	return nil
}

func (p *tokens) expect(kind byte, text string) bool {
	if p.accept(kind, text) {
		return true
	}
	t := p.peek()
	what := strconv.Quote(t.text)
	if t.kind == 0 {
		what = "the end"
	}
	p.fail(t.at, "expected %q, found %s", text, what)
	return false
}

// skipBalanced skips tokens up to the closing bracket that matches the one
// just read (open), leaving the closing bracket next.
func (p *tokens) skipBalanced(open string) {
	closeOf := map[string]string{"(": ")", "[": "]", "{": "}", "<": ">"}
	stack := []string{closeOf[open]}
	for p.peek().kind != 0 {
		t := p.peek()
		if t.kind == 'p' {
			if c, ok := closeOf[t.text]; ok && t.text != "<" {
				stack = append(stack, c)
			} else if t.text == stack[len(stack)-1] {
				if len(stack) == 1 {
					return
				}
				stack = stack[:len(stack)-1]
			}
		}
		p.next()
	}
}

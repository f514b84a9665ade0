package render

import "strings"

// Speakers of example turns.
const (
	SpeakerUser      = "user"
	SpeakerAssistant = "assistant"
)

// ExampleBlock is one `<START>` block of an examples entry (SPEC §3 step 4).
type ExampleBlock struct {
	// Offset is the byte offset in the content of the block's `<START>` line,
	// or of its first line when the content has text before any `<START>`.
	Offset int
	// Started says the block was opened by a `<START>` line.
	Started bool
	// Preamble holds the non-blank lines that come before the block's first
	// speaker line. Assembly sends them as one system message after the
	// block's [Example Chat] marker; lint reports them (examples-format).
	Preamble []ExampleLine
	// Turns are the speaker turns in order.
	Turns []ExampleTurn
}

// ExampleLine is one line of an examples entry.
type ExampleLine struct {
	Offset int // byte offset in the content
	Text   string
}

// ExampleTurn is one user or assistant turn of an example chat.
type ExampleTurn struct {
	Speaker string // SpeakerUser or SpeakerAssistant
	// Text is the turn without its "Name:" prefix; continuation lines are
	// joined with "\n". Macros are not expanded.
	Text   string
	Offset int // byte offset of the speaker line in the content
}

// PreambleText is the block's preamble lines joined by newlines.
func (b ExampleBlock) PreambleText() string {
	lines := make([]string, len(b.Preamble))
	for i, l := range b.Preamble {
		lines[i] = l.Text
	}
	return strings.Join(lines, "\n")
}

// ParseExamples splits examples content into `<START>` blocks of user and
// assistant turns. A line starting `{{user}}:` or one of userNames followed by
// a colon is a user turn; `{{char}}:` or one of charNames, an assistant turn
// (names compare case-insensitively). A line with no speaker continues the turn
// before it. Lines before a block's first speaker are its Preamble: they are
// nobody's words, so assembly sends them as a system note rather than putting
// them in the user's mouth. Text before the first `<START>` forms a block of its
// own (creators often omit the first marker). Blocks that are empty — a
// `<START>` followed by nothing — are returned too, so lint can report them;
// assembly skips them.
//
// The parser works on the raw content, before macros are expanded, so
// `{{user}}:` is recognised whatever the persona's name is.
func ParseExamples(content string, userNames, charNames []string) []ExampleBlock {
	users := append([]string{"{{user}}"}, userNames...)
	chars := append([]string{"{{char}}"}, charNames...)
	var blocks []ExampleBlock
	var cur *ExampleBlock
	// pendingBlank counts blank lines inside a turn; they are kept only when
	// more text of the same turn follows, so a turn never ends in blank lines.
	pendingBlank := 0
	offset := 0
	for _, raw := range strings.SplitAfter(content, "\n") {
		lineOff := offset
		offset += len(raw)
		line := strings.TrimRight(raw, "\r\n")
		trimmed := strings.TrimSpace(line)
		if strings.EqualFold(trimmed, "<START>") {
			blocks = append(blocks, ExampleBlock{Offset: lineOff, Started: true})
			cur = &blocks[len(blocks)-1]
			pendingBlank = 0
			continue
		}
		if trimmed == "" {
			if cur != nil && len(cur.Turns) > 0 {
				pendingBlank++
			}
			continue
		}
		if cur == nil {
			blocks = append(blocks, ExampleBlock{Offset: lineOff})
			cur = &blocks[len(blocks)-1]
		}
		if speaker, text, ok := speakerLine(trimmed, users, chars); ok {
			cur.Turns = append(cur.Turns, ExampleTurn{Speaker: speaker, Text: text, Offset: lineOff})
			pendingBlank = 0
			continue
		}
		if n := len(cur.Turns); n > 0 {
			t := &cur.Turns[n-1]
			t.Text += strings.Repeat("\n", pendingBlank+1) + strings.TrimRight(line, " \t")
			pendingBlank = 0
			continue
		}
		cur.Preamble = append(cur.Preamble, ExampleLine{Offset: lineOff, Text: trimmed})
	}
	return blocks
}

// speakerLine recognises "Name: text".
func speakerLine(line string, users, chars []string) (speaker, text string, ok bool) {
	if rest, ok := cutName(line, users); ok {
		return SpeakerUser, rest, true
	}
	if rest, ok := cutName(line, chars); ok {
		return SpeakerAssistant, rest, true
	}
	return "", "", false
}

func cutName(line string, names []string) (string, bool) {
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" || len(line) <= len(name) || line[len(name)] != ':' {
			continue
		}
		if strings.EqualFold(line[:len(name)], name) {
			return strings.TrimSpace(line[len(name)+1:]), true
		}
	}
	return "", false
}

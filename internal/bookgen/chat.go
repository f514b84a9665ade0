package bookgen

import (
	"fmt"
	"strings"
)

// Turn is one message of a generated chat.
type Turn struct{ Role, Content string }

var chatWords = strings.Fields(`the gate of the old town stands in mist while the river sings to travellers
who pass along the road toward the mill and the tavern where a fire burns low and the innkeeper
counts silver behind the bar as rain drums on the roof`)

// Chat is a chat of n messages, user and character in turn, each of 20 to
// 50 words (about 25 to 60 tokens) drawn deterministically from a small
// vocabulary that names no generated entry's keyword; every fourth
// character message ends with a <status_block>.
func Chat(n int) []Turn {
	out := make([]Turn, n)
	x := uint32(2463534242)
	for i := range out {
		var b strings.Builder
		fmt.Fprintf(&b, "(%d)", i)
		for range 20 + i%31 {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b.WriteString(" " + chatWords[int(x%uint32(len(chatWords)))])
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
			if i%8 == 7 {
				fmt.Fprintf(&b, "\n<status_block>mood %d</status_block>", i)
			}
		}
		out[i] = Turn{Role: role, Content: b.String()}
	}
	return out
}

// ChatYAML is Chat(n) as a lore transcript file.
func ChatYAML(n int) []byte {
	var b strings.Builder
	b.WriteString("messages:\n")
	for _, t := range Chat(n) {
		fmt.Fprintf(&b, "  - role: %s\n    content: %q\n", t.Role, t.Content)
	}
	return []byte(b.String())
}

package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseExamples(t *testing.T) {
	type turn struct{ Speaker, Text string }
	type block struct {
		Started  bool
		Preamble string
		Turns    []turn
	}
	tests := []struct {
		name    string
		content string
		want    []block
	}{
		{"two blocks", "<START>\n{{user}}: Hi\n{{char}}: Hello\n<START>\n{{user}}: Bye",
			[]block{{true, "", []turn{{"user", "Hi"}, {"assistant", "Hello"}}}, {true, "", []turn{{"user", "Bye"}}}}},
		{"continuation lines join the turn", "<START>\n{{char}}: \"Hush.\"\n*She smiles.*\n\n  *Wind.*\n\n",
			[]block{{true, "", []turn{{"assistant", "\"Hush.\"\n*She smiles.*\n\n  *Wind.*"}}}}},
		{"names count as speakers, any case", "<START>\nari: Hi\nSeraphina: Hello\n{{USER}}: x\nSeraphina : not a speaker",
			[]block{{true, "", []turn{{"user", "Hi"}, {"assistant", "Hello"}, {"user", "x\nSeraphina : not a speaker"}}}}},
		{"a name that only starts like one is not a speaker", "<START>\nAriel: hi",
			[]block{{true, "Ariel: hi", nil}}},
		{"text before the first <START> is a block", "{{user}}: a\n<START>\n{{char}}: b",
			[]block{{false, "", []turn{{"user", "a"}}}, {true, "", []turn{{"assistant", "b"}}}}},
		{"no <START> at all", "{{user}}: a\n{{char}}: b",
			[]block{{false, "", []turn{{"user", "a"}, {"assistant", "b"}}}}},
		{"lines before the first speaker are the preamble", "<START>\nA quiet evening.\n\nIn the glade.\n{{user}}: hi",
			[]block{{true, "A quiet evening.\nIn the glade.", []turn{{"user", "hi"}}}}},
		{"no speaker lines", "Seraphina speaks softly.",
			[]block{{false, "Seraphina speaks softly.", nil}}},
		{"empty blocks are kept", "<START>\n<start>\n  <START>  \n{{user}}: a",
			[]block{{true, "", nil}, {true, "", nil}, {true, "", []turn{{"user", "a"}}}}},
		{"CRLF", "<START>\r\n{{user}}: a\r\nmore\r\n",
			[]block{{true, "", []turn{{"user", "a\nmore"}}}}},
		{"empty content", "", nil},
		{"empty turn text", "<START>\n{{char}}:",
			[]block{{true, "", []turn{{"assistant", ""}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []block
			for _, b := range ParseExamples(tt.content, []string{"Ari"}, []string{"Seraphina"}) {
				g := block{Started: b.Started, Preamble: b.PreambleText()}
				for _, x := range b.Turns {
					g.Turns = append(g.Turns, turn{x.Speaker, x.Text})
				}
				got = append(got, g)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseExamplesOffsets(t *testing.T) {
	content := "intro\n<START>\n{{user}}: a\n{{char}}: b\n"
	bs := ParseExamples(content, nil, nil)
	if len(bs) != 2 {
		t.Fatalf("got %d blocks", len(bs))
	}
	check := func(what string, off int, want string) {
		t.Helper()
		if !strings.HasPrefix(content[off:], want) {
			t.Errorf("%s: offset %d points at %q, want %q", what, off, content[off:], want)
		}
	}
	check("block 0", bs[0].Offset, "intro")
	check("preamble", bs[0].Preamble[0].Offset, "intro")
	check("block 1", bs[1].Offset, "<START>")
	check("turn 0", bs[1].Turns[0].Offset, "{{user}}: a")
	check("turn 1", bs[1].Turns[1].Offset, "{{char}}: b")
}

func FuzzParseExamples(f *testing.F) {
	f.Add("<START>\n{{user}}: a\n{{char}}: b\nmore")
	f.Add("x\r\n<start>\r\nAri: é\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range ParseExamples(s, []string{"Ari", ""}, []string{"Sera"}) {
			if b.Offset < 0 || b.Offset > len(s) {
				t.Fatalf("offset %d out of range", b.Offset)
			}
			for _, x := range b.Turns {
				if x.Offset < b.Offset || x.Offset >= len(s) {
					t.Fatalf("turn offset %d out of range", x.Offset)
				}
			}
		}
	})
}

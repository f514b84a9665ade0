package render

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

func TestApplyTransforms(t *testing.T) {
	msgs := []schema.Message{ // depths 3, 2, 1, 0
		{Role: "user", Content: "u3 <s>x</s>"},
		{Role: "assistant", Content: "a2 <s>x</s>"},
		{Role: "user", Content: "u1 <s>x</s>"},
		{Role: "assistant", Content: "a0 <s>x</s>"},
	}
	tests := []struct {
		name string
		tr   schema.Transform
		want string // contents joined with |
	}{
		{"all messages", schema.Transform{Pattern: `<s>.*?</s>`, Replace: ""},
			"u3 |a2 |u1 |a0 "},
		{"minDepth", schema.Transform{Pattern: `<s>.*?</s>`, MinDepth: intPtr(2)},
			"u3 |a2 |u1 <s>x</s>|a0 <s>x</s>"},
		{"maxDepth", schema.Transform{Pattern: `<s>.*?</s>`, MaxDepth: intPtr(0)},
			"u3 <s>x</s>|a2 <s>x</s>|u1 <s>x</s>|a0 "},
		{"both bounds", schema.Transform{Pattern: `<s>.*?</s>`, MinDepth: intPtr(1), MaxDepth: intPtr(2)},
			"u3 <s>x</s>|a2 |u1 |a0 <s>x</s>"},
		{"roles", schema.Transform{Pattern: `<s>.*?</s>`, Roles: []string{"assistant"}},
			"u3 <s>x</s>|a2 |u1 <s>x</s>|a0 "},
		{"groups", schema.Transform{Pattern: `<s>(.*?)</s>`, Replace: "[$1]", MinDepth: intPtr(3)},
			"u3 [x]|a2 <s>x</s>|u1 <s>x</s>|a0 <s>x</s>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book := &schema.Lorebook{}
			book.Manifest.Transforms = []schema.Transform{tt.tr}
			out, err := ApplyTransforms(book, msgs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range out {
				got = append(got, m.Content)
			}
			if strings.Join(got, "|") != tt.want {
				t.Errorf("got  %q\nwant %q", strings.Join(got, "|"), tt.want)
			}
			if msgs[0].Content != "u3 <s>x</s>" {
				t.Fatal("input changed")
			}
		})
	}
}

func TestApplyTransformsBadPattern(t *testing.T) {
	book := &schema.Lorebook{}
	book.Manifest.Transforms = []schema.Transform{
		{Pattern: `(`, Pos: schema.Pos{File: "lorebook.yaml", Line: 4, Col: 5}},
		{Pattern: `x`, Replace: "y"},
	}
	out, err := ApplyTransforms(book, []schema.Message{{Content: "x"}})
	if err == nil || !strings.Contains(err.Error(), "lorebook.yaml:4:5: transform 1") {
		t.Errorf("error = %v", err)
	}
	if out[0].Content != "y" {
		t.Errorf("valid transforms should still apply: %q", out[0].Content)
	}
	if out, err := ApplyTransforms(nil, nil); err != nil || len(out) != 0 {
		t.Error("nil book")
	}
}

func intPtr(n int) *int { return &n }

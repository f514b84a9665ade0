package outformat

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestBlocks(t *testing.T) {
	content := "intro\n---\na: 1\n...\nprose\n---\nb: 2\n---\nc: 3"
	s := NewSource(content)
	var got []string
	for _, b := range s.Blocks() {
		got = append(got, content[b.Start:b.End])
	}
	want := []string{"a: 1\n", "b: 2\n", "c: 3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Blocks = %q, want %q", got, want)
	}
}

func TestParse(t *testing.T) {
	s := NewSource("---\nstatus:\n  rule: r\n   format: x\n---\njust: [prose\n---\n- a list\n")
	bs := s.Blocks()
	if root, err := s.Parse(bs[0]); root != nil || err == nil || s.Content[err.Offset:err.Offset+9] != "   format" {
		t.Errorf("a broken template: root %v, error %+v", root, err)
	}
	if root, err := s.Parse(bs[1]); root != nil || err != nil {
		t.Errorf("broken YAML without format:/rule: is prose: root %v, error %+v", root, err)
	}
	if root, err := s.Parse(bs[2]); root != nil || err != nil {
		t.Errorf("a list is not a template: root %v, error %+v", root, err)
	}
}

func TestWalk(t *testing.T) {
	s := NewSource("---\n状态栏:\n  rule: r\n  type: t\n  format:\n    basic: ${x}\n    inner: {format: not a site}\nlist:\n  - {condition: c, format: y}\n")
	root, _ := s.Parse(s.Blocks()[0])
	var got []string
	Walk(root, func(st *Site) {
		got = append(got, st.Name+"|"+st.FormatKey.Value+"|"+
			strings.Repeat("R", btoi(st.Rule != nil))+strings.Repeat("C", btoi(st.Condition != nil))+strings.Repeat("T", btoi(st.Type != nil)))
	})
	want := []string{"状态栏|format|RT", "|format|C"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Walk = %q, want %q", got, want)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestScanText(t *testing.T) {
	s := "a ${b {c} d} $(e (f)) ${g"
	tx := ScanText(s)
	var inner []string
	for _, m := range tx.Markers {
		inner = append(inner, m.Open+"|"+m.Inner(s))
	}
	if want := []string{"${|b {c} d", "$(|e (f)"}; !reflect.DeepEqual(inner, want) {
		t.Errorf("markers = %q, want %q", inner, want)
	}
	if tx.Unclosed == nil || tx.Unclosed.At != strings.LastIndex(s, "${") || tx.Unclosed.Inner(s) != "g" {
		t.Errorf("unclosed = %+v", tx.Unclosed)
	}
	if len(tx.Outside) != len(s) || strings.TrimSpace(tx.Outside) != "a" {
		t.Errorf("outside = %q", tx.Outside)
	}
}

func TestPairTags(t *testing.T) {
	text := "<a><b></a></c><user><br/><d>"
	var got []string
	for _, p := range PairTags(Tags(text)) {
		s := p.Tag.Name
		switch {
		case p.Unopened:
			s = "/" + s + " unopened"
		case p.Before != nil:
			s += " open at /" + p.Before.Name
		default:
			s += " open at the end"
		}
		got = append(got, s)
	}
	want := []string{"b open at /a", "/c unopened", "d open at the end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PairTags = %q, want %q", got, want)
	}
}

func TestValueOffset(t *testing.T) {
	content := "---\nk:\n  format: |-\n    one\n      two ${x}\n  q: \"a ${y}\"\n"
	s := NewSource(content)
	b := s.Blocks()[0]
	root, _ := s.Parse(b)
	var lit, q *yaml.Node
	Walk(root, func(st *Site) { lit = st.Format })
	q = root.Content[1].Content[3]
	for _, tc := range []struct {
		n    *yaml.Node
		at   int
		want string
	}{
		{lit, 0, "one"},
		{lit, strings.Index(lit.Value, "${"), "${x}"},
		{lit, strings.Index(lit.Value, "two"), "two"},
		{lit, strings.Index(lit.Value, "two") - 1, " two"},
		{q, strings.Index(q.Value, "${"), "${y}"},
	} {
		off := s.ValueOffset(b, tc.n, tc.at)
		if !strings.HasPrefix(content[off:], tc.want) {
			t.Errorf("ValueOffset(%q, %d) points at %q, want %q", tc.n.Value, tc.at, content[off:min(off+8, len(content))], tc.want)
		}
	}
}

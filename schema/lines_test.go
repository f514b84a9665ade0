package schema

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// naivePos and naiveOffset are the definitions lineIndex must agree with:
// scan from the start of the data.
func naivePos(data string, off int) (line, col int) {
	line, col = 1, 1
	for i, r := range data {
		if i >= off {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func naiveOffset(data string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		off += strings.IndexByte(data[off:], '\n') + 1
	}
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ {
		_, size := utf8.DecodeRuneInString(data[off:])
		off += size
	}
	return off
}

// TestLineIndex compares the checkpointed conversions with the naive ones on
// short lines and on lines many checkpoints long, with multi-byte runes.
func TestLineIndex(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc", "é", "霧", "😀", " ", "\n", "\"x\""}
	var b strings.Builder
	for b.Len() < 20*markEvery {
		p := pieces[r.Intn(len(pieces))]
		if p == "\n" && r.Intn(400) != 0 {
			continue // few newlines: some lines span many checkpoints
		}
		b.WriteString(p)
	}
	b.WriteString("\nlast")
	data := b.String()
	li := newLineIndex("f", []byte(data))
	for off := 0; off <= len(data); off++ {
		if off < len(data) && !utf8.RuneStart(data[off]) {
			continue
		}
		wl, wc := naivePos(data, off)
		if p := li.pos(off); p.Line != wl || p.Col != wc {
			t.Fatalf("pos(%d) = %d:%d, want %d:%d", off, p.Line, p.Col, wl, wc)
		}
		if got := li.offset(wl, wc); got != off {
			t.Fatalf("offset(%d, %d) = %d, want %d", wl, wc, got, off)
		}
	}
	if got, want := li.offset(1, 1<<30), naiveOffset(data, 1, 1<<30); got != want {
		t.Errorf("offset past the end of line 1 = %d, want its end %d", got, want)
	}
	if li.offset(0, 1) != -1 || li.offset(li.lines()+1, 1) != -1 {
		t.Error("offset of a line the data does not have must be -1")
	}
	if len(li.marks) < 2 {
		t.Fatalf("only %d lines got checkpoints: the test data has too many newlines", len(li.marks))
	}
	for l, m := range li.marks {
		for i := 1; i < len(m.offs); i++ {
			if d := m.offs[i] - m.offs[i-1]; d < markEvery || d > markEvery+utf8.UTFMax {
				t.Fatalf("line %d: checkpoints %d bytes apart, want about %d", l+1, d, markEvery)
			}
		}
	}
}

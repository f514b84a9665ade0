package schema

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// lineIndex converts between byte offsets and 1-based line and rune column.
// A minified JSON file is one line of megabytes, so nothing here may scan a
// line from its start per call: long lines get rune-column checkpoints (built
// once per line, on first use), and each conversion scans at most markEvery
// bytes from the nearest one.
type lineIndex struct {
	file   string
	data   []byte
	starts []int // byte offset of each line's start
	marks  map[int]*lineMarks
}

// markEvery is the distance in bytes between checkpoints of a long line.
const markEvery = 1024

// lineMarks are checkpoints on one line: the rune column (1-based) of the
// byte at each offset, in increasing order.
type lineMarks struct {
	offs, cols []int
}

func newLineIndex(file string, data []byte) *lineIndex {
	starts := make([]int, 1, 64)
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &lineIndex{file: file, data: data, starts: starts}
}

func (li *lineIndex) lines() int {
	n := len(li.starts)
	// A final newline does not start a line of its own.
	if n > 1 && li.starts[n-1] == len(li.data) {
		n--
	}
	return n
}

// lineEnd is the offset of the newline ending the 0-based line l (or the end).
func (li *lineIndex) lineEnd(l int) int {
	if l+1 < len(li.starts) {
		return li.starts[l+1] - 1
	}
	return len(li.data)
}

// lineMarks returns the checkpoints of the 0-based line l, nil for a short line.
func (li *lineIndex) lineMarks(l int) *lineMarks {
	start, end := li.starts[l], li.lineEnd(l)
	if end-start <= markEvery {
		return nil
	}
	if m, ok := li.marks[l]; ok {
		return m
	}
	m := &lineMarks{}
	col, next := 1, start+markEvery
	for off := start; off < end; off++ {
		b := li.data[off]
		if b&0xC0 == 0x80 { // a UTF-8 continuation byte: not a rune start
			continue
		}
		if off >= next {
			m.offs = append(m.offs, off)
			m.cols = append(m.cols, col)
			next = off + markEvery
		}
		col++
	}
	if li.marks == nil {
		li.marks = map[int]*lineMarks{}
	}
	li.marks[l] = m
	return m
}

func (li *lineIndex) pos(off int) Pos {
	off = max(0, min(off, len(li.data)))
	// The line holding off: the last start at or before it.
	l := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	from, col := li.starts[l], 1
	if m := li.lineMarks(l); m != nil {
		if i := sort.SearchInts(m.offs, off+1) - 1; i >= 0 {
			from, col = m.offs[i], m.cols[i]
		}
	}
	return Pos{File: li.file, Line: l + 1, Col: col + utf8.RuneCount(li.data[from:off])}
}

// lineStart is the first non-blank character of a 1-based line.
func (li *lineIndex) lineStart(line int) Pos {
	if line < 1 {
		line = 1
	}
	if line > len(li.starts) {
		line = len(li.starts)
	}
	off := li.starts[line-1]
	for off < len(li.data) && (li.data[off] == ' ' || li.data[off] == '\t') {
		off++
	}
	if off < len(li.data) && (li.data[off] == '\n' || li.data[off] == '\r') {
		off = li.starts[line-1]
	}
	return li.pos(off)
}

// lineEndOffset is the offset just after the newline that ends a 1-based line.
func (li *lineIndex) lineEndOffset(line int) int {
	if line >= len(li.starts) {
		return len(li.data)
	}
	return li.starts[line]
}

// offset is the byte offset of a 1-based line and rune column, or -1 for a
// line the data does not have. A column past the line's end gives its end.
func (li *lineIndex) offset(line, col int) int {
	if line < 1 || line > len(li.starts) {
		return -1
	}
	off, c := li.starts[line-1], 1
	if m := li.lineMarks(line - 1); m != nil {
		if i := sort.SearchInts(m.cols, col+1) - 1; i >= 0 {
			off, c = m.offs[i], m.cols[i]
		}
	}
	for ; c < col && off < len(li.data) && li.data[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(li.data[off:])
		off += size
	}
	return off
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorekit/lore/internal/bookgen"
)

// hostileInput is a file or folder that once made lore hang, crawl or
// explode, with what it is.
type hostileInput struct {
	name string
	path string
}

// runHostile times every command on every hostile input: each must finish
// under 5 s and 1 GB. The output size column shows that findings on a
// one-line file do not echo the whole line.
func runHostile(o *options, dir, chat string) error {
	o.okExit = 2
	out, err := inChild("-write", dir, "hostile")
	if err != nil {
		return err
	}
	var ins []hostileInput
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, path, _ := strings.Cut(line, "\t")
		ins = append(ins, hostileInput{name, path})
	}
	cmds := []string{"validate", "lint", "render", "tokens", "fmt"}
	fmt.Printf("%d run(s) per cell; median wall time / largest peak RSS / bytes printed (lint on a terminal: --color always)\n\n", o.runs)
	fmt.Println("| input | " + strings.Join(cmds, " | ") + " |")
	fmt.Println("|---|" + strings.Repeat("---|", len(cmds)))
	for _, in := range ins {
		row := "| " + in.name + " |"
		for _, c := range cmds {
			args := commandArgs(c, in.path, chat)
			switch c {
			case "fmt":
				args = []string{"fmt", "--check", in.path}
			case "lint":
				args = append(args, "--color", "always")
			}
			r := measure(o, o.lore, args)
			cell := r.String()
			if r.ok() {
				cell += " / " + byteCount(r.stdout)
				if r.exit == 2 {
					cell += ", refused"
				}
			}
			row += " " + cell + " |"
		}
		fmt.Println(row)
	}
	return nil
}

func byteCount(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB out", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB out", n>>10)
	}
	return fmt.Sprintf("%d B out", n)
}

func writeHostile(dir string) ([]hostileInput, error) {
	var ins []hostileInput
	add := func(name, file string, data []byte) error {
		p := filepath.Join(dir, file)
		ins = append(ins, hostileInput{name, p})
		return os.WriteFile(p, data, 0o644)
	}
	bomb, err := bookgen.Write(dir, bookgen.AliasBomb, 5000)
	if err != nil {
		return nil, err
	}
	ins = append(ins, hostileInput{"1 MB string reused by 5,000 entries through an alias", bomb})
	var laughs bytes.Buffer
	laughs.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&laughs, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", 'a'+i, 'a'+i, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1, 'a'+i-1)
	}
	steps := []struct {
		name, file string
		data       []byte
	}{
		{"billion laughs (YAML aliases, 10^10 values)", "laughs.yaml", laughs.Bytes()},
		{"nesting 100,000 deep (JSON)", "deep.json", []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))},
		{"nesting 100,000 deep (YAML flow)", "deep.yaml", []byte("a: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n")},
		{"empty file", "empty.yaml", nil},
		{"binary data", "binary.yaml", []byte("name: x\x00\x01\x02")},
		{"invalid UTF-8", "latin1.yaml", []byte("name: caf\xe9\n")},
		{"unclosed quote in a 10 MB file", "unclosed.yaml", []byte("name: \"" + strings.Repeat("lore ", 2<<20))},
	}
	for _, s := range steps {
		if err := add(s.name, s.file, s.data); err != nil {
			return nil, err
		}
	}
	big := filepath.Join(dir, "huge.json")
	f, err := os.Create(big)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(65<<20 + 1); err != nil { // sparse: costs no disk
		f.Close()
		return nil, err
	}
	f.Close()
	ins = append(ins, hostileInput{"file over 64 MiB", big})

	// A lorebook folder with a named pipe among its entry files, and a pipe
	// named directly: reading either would wait for a writer forever.
	book := filepath.Join(dir, "fifo-book")
	if err := os.MkdirAll(filepath.Join(book, "entries"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(book, "lorebook.yaml"), []byte("name: Pipe\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(book, "entries", "a.yaml"), []byte("id: a\nsection: chat-history\nkeywords: [tavern]\ncontent: The tavern.\n"), 0o644); err != nil {
		return nil, err
	}
	if err := mkfifo(filepath.Join(book, "entries", "pipe.yaml")); err == nil {
		ins = append(ins, hostileInput{"lorebook folder with a FIFO entry file", book})
		tree := filepath.Join(dir, "fifo-tree")
		if err := os.MkdirAll(tree, 0o755); err != nil {
			return nil, err
		}
		if err := mkfifo(filepath.Join(tree, "pipe.json")); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tree, "book.yaml"), []byte("- {id: a, section: chat-history, content: x}\n"), 0o644); err != nil {
			return nil, err
		}
		ins = append(ins, hostileInput{"folder (no manifest) holding a FIFO", tree})
		pipe := filepath.Join(dir, "pipe.yaml")
		if err := mkfifo(pipe); err != nil {
			return nil, err
		}
		ins = append(ins, hostileInput{"a FIFO named directly", pipe})
	}
	st, err := bookgen.Write(dir, bookgen.SillyTavernFindings, 500)
	if err != nil {
		return nil, err
	}
	ins = append(ins, hostileInput{"minified SillyTavern book (500 entries, 270 KB) with findings", st})
	kw, err := bookgen.Write(dir, bookgen.SharedKeyword, 100000)
	if err != nil {
		return nil, err
	}
	ins = append(ins, hostileInput{"100,000 entries sharing one keyword", kw})
	return ins, nil
}

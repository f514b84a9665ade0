package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// fixText writes text as name, lints it, fixes what --fix fixes and returns
// the fixed text (or the error).
func fixText(t *testing.T, name, text string) (string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	book, ds, err := schema.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	reqs := NewFixRequests(book, runWith(book, nil, nil, ds))
	if len(reqs[p]) == 0 {
		return text, nil
	}
	res, err := FixFile(p, []byte(text), book.Entries, reqs[p])
	if err != nil {
		return "", err
	}
	return string(res.Out), nil
}

// Each fix edits only the value it fixes, in the list's own form, and keeps
// comments, quoting and layout everywhere else.
func TestFixFile(t *testing.T) {
	for _, tc := range []struct{ name, file, in, want string }{
		{"flow list: split, trim, drop duplicates; comments stay", "book.yaml",
			"name: F  # the book\nentries:\n  - id: a\n    section: chat-history\n    keywords: [\"曹操，荀彧\", \" wei\", Wei, 'x']  # keys\n    content: A.\n",
			"name: F  # the book\nentries:\n  - id: a\n    section: chat-history\n    keywords: [曹操, 荀彧, wei, 'x']  # keys\n    content: A.\n"},
		{"block list: a split adds lines, a removed key's comment stays", "book.yaml",
			"name: F\nentries:\n  - id: a\n    section: chat-history\n    keywords:\n      - sword, blade, knife  # typed as one\n      - \"  \"   # blank\n      - axe\n      - AXE\n    content: A.\n",
			"name: F\nentries:\n  - id: a\n    section: chat-history\n    keywords:\n      - sword  # typed as one\n      - blade\n      - knife\n      # blank\n      - axe\n    content: A.\n"},
		{"id renamed, the old id kept as the name", "book.yaml",
			"name: F\nentries:\n  - id: Tavern_Keeper  # Maren\n    section: chat-history\n    keywords: [maren]\n    content: A.\n  - {id: Old_Inn, section: chat-history, keywords: [inn], content: B.}\n",
			"name: F\nentries:\n  - id: tavern-keeper  # Maren\n    name: Tavern_Keeper\n    section: chat-history\n    keywords: [maren]\n    content: A.\n  - {id: old-inn, name: Old_Inn, section: chat-history, keywords: [inn], content: B.}\n"},
		{"an id that has a name keeps it", "book.yaml",
			"- id: TavernKeeper\n  name: Maren\n  section: chat-history\n  keywords: [maren]\n  content: A.\n",
			"- id: tavern-keeper\n  name: Maren\n  section: chat-history\n  keywords: [maren]\n  content: A.\n"},
		{"JSON, one item a line", "book.json",
			"{\n  \"name\": \"J\",\n  \"entries\": [\n    {\n      \"id\": \"Old_Maren\",\n      \"section\": \"chat-history\",\n      \"keywords\": [\n        \"曹操，荀彧\",\n        \"maren\",\n        \"Maren\"\n      ],\n      \"content\": \"x\"\n    }\n  ]\n}\n",
			"{\n  \"name\": \"J\",\n  \"entries\": [\n    {\n      \"id\": \"old-maren\", \"name\": \"Old_Maren\",\n      \"section\": \"chat-history\",\n      \"keywords\": [\n        \"曹操\", \"荀彧\",\n        \"maren\"\n      ],\n      \"content\": \"x\"\n    }\n  ]\n}\n"},
		{"CRLF line ends stay", "book.yaml",
			"name: F\r\nentries:\r\n  - id: a\r\n    section: chat-history\r\n    keywords:\r\n      - x；y\r\n    content: A.\r\n",
			"name: F\r\nentries:\r\n  - id: a\r\n    section: chat-history\r\n    keywords:\r\n      - x\r\n      - \"y\"\r\n    content: A.\r\n"},
		{"nothing to fix", "book.yaml",
			"name: F\nentries:\n  - {id: a, section: chat-history, keywords: [maren], content: A.}\n",
			"name: F\nentries:\n  - {id: a, section: chat-history, keywords: [maren], content: A.}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fixText(t, tc.file, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			again, err := fixText(t, tc.file, got)
			if err != nil || again != got {
				t.Errorf("a second --fix changes the text again (%v):\n%s", err, again)
			}
		})
	}
}

// A keyword in a form --fix does not edit is refused, and nothing is written.
func TestFixRefuses(t *testing.T) {
	in := "name: F\nentries:\n  - id: a\n    section: chat-history\n    keywords:\n      - |\n        x，y\n    content: A.\n"
	if _, err := fixText(t, "book.yaml", in); err == nil || !strings.Contains(err.Error(), "fix it by hand") {
		t.Errorf("want a refusal for a block-scalar keyword, got %v", err)
	}
}

// Only the rules that reported something are fixed: a rule switched off in
// .lore.yaml changes nothing.
func TestFixFollowsTheFindings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "book.yaml")
	text := "name: F\nentries:\n  - {id: a, section: chat-history, keywords: [\"x，y\", X, x], content: A.}\n"
	os.WriteFile(p, []byte(text), 0o644)
	book, ds, _ := schema.Load(p)
	cfg := &Config{Rules: map[string]diag.Severity{"joined-keywords": 0}}
	reqs := NewFixRequests(book, runWith(book, nil, cfg, ds))
	res, err := FixFile(p, []byte(text), book.Entries, reqs[p])
	if err != nil {
		t.Fatal(err)
	}
	if want := "name: F\nentries:\n  - {id: a, section: chat-history, keywords: [\"x，y\", X], content: A.}\n"; string(res.Out) != want {
		t.Errorf("got %q, want %q", res.Out, want)
	}
}

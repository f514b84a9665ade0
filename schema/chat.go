package schema

import "github.com/lorekit/lore/diag"

// IsChat says whether data, read from path, is a SillyTavern .jsonl chat as
// LoadTranscript tells them apart: by extension, or by content.
func IsChat(path string, data []byte) bool { return isJSONL(path, data) }

// EscapeLen reads the escape after a backslash in a JSON (or YAML
// double-quoted) string: how many source characters it takes and the rune
// it stands for, a surrogate pair being one rune. The reply checker maps a
// chat message's text to the file's columns with it.
func EscapeLen(b []byte) (int, rune) { return escapeLen(b) }

// ReadChat reads a SillyTavern .jsonl chat already in memory (the reply
// checker reads standard input too), as LoadTranscript reads one from a
// file; each message's TextPos is where its text is written.
func ReadChat(path string, data []byte) (*Transcript, []diag.Diagnostic, error) {
	t := &Transcript{Path: path}
	ds, err := loadJSONL(t, path, data)
	return t, diag.Sort(ds), err
}

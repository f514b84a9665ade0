package testrun

import (
	"path/filepath"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// Pos is where a value of a test file is written.
type Pos = diag.Pos

// At is a value of a test file with its position, so that a failure points at
// the expectation that failed.
type At[T any] struct {
	V   T
	Pos Pos
}

// SnapshotDir is the folder, under a project's tests/, that holds snapshots.
const SnapshotDir = "__snapshots__"

// File is a loaded test file.
type File struct {
	Path string
	// Project is the folder the tests belong to: the parent of a tests/
	// folder, else the file's own folder. Snapshots live in
	// Project/tests/__snapshots__.
	Project string
	// Lorebook is the lorebook under test, resolved against the file's folder.
	Lorebook At[string]
	Cases    []*Case
	// broken says why a file that could not be loaded is unusable.
	broken string
}

// Case is one test case: the inputs of a render and what its prompt (or
// each turn's prompt) must hold.
type Case struct {
	File *File
	Name string
	Pos  Pos // the case's name
	// Engine names the engine (the case's, else the file's); V is "" when
	// neither names one.
	Engine At[string]
	Seed   int64
	// Runs is how many seeds the case renders with (1 unless runs: says).
	Runs       int
	Transcript TranscriptSource
	// Vars and Settings are layered: the file's, then the case's, each
	// overriding the one before key by key.
	Vars     []VarsSource
	Settings []schema.Settings
	// Turns are the prompts to render, in order; a case without turns: has
	// one, the whole chat.
	Turns []*Turn
}

// TranscriptSource is a transcript file (Path) or one written in the test
// file (Inline); both zero for an empty chat.
type TranscriptSource struct {
	Path   string
	Pos    Pos
	Inline *schema.Transcript
}

// VarsSource is a variables file (Path) or values written in the test file.
type VarsSource struct {
	Path   string
	Pos    Pos
	Values map[string]any
}

// Turn is one prompt of a case: the chat after this turn's messages (or
// its first At messages), and the expectations on it.
type Turn struct {
	Pos      Pos
	Messages []schema.Message
	At       *At[int]
	Expect   *Expect
}

// Expect is what one prompt must hold. Every field is optional.
type Expect struct {
	Active, Inactive []At[string]
	ActiveExactly    *IDList
	Entries          []*EntryExpect
	Order            *IDList
	Tokens           *TokensExpect
	Contains         []At[string]
	NotContains      []At[string]
	Snapshot         *Snapshot
	Frequency        []*FrequencyExpect
	Replies          *RepliesExpect
}

// IDList is a list of entry ids (or budget keys) and where the list is.
type IDList struct {
	IDs []At[string]
	Pos Pos
}

// EntryExpect is where one entry must be and what must have brought it in.
type EntryExpect struct {
	ID        At[string]
	Step      *At[int]
	Depth     *At[*int] // V nil: not injected into history
	Position  *At[string]
	Recursion *At[int]
	Keyword   *At[string]
	In        *At[string]
}

// Range bounds a token count; either end may be absent.
type Range struct {
	Min, Max *At[int]
}

// TokensExpect bounds the prompt's tokens and says what the budget cut or
// left out.
type TokensExpect struct {
	Total    *Range
	Sections []SectionRange
	Cut      *IDList
	Dropped  *IDList
}

// SectionRange bounds one budget section's tokens.
type SectionRange struct {
	Name At[string]
	Range
}

// Snapshot compares the rendered prompt with a file.
type Snapshot struct {
	Name   string
	Format string // text | json
	Pos    Pos
	// Path is Project/tests/__snapshots__/Name.txt (or .json).
	Path string
}

// FrequencyExpect bounds the percentage of runs in which an entry is in the
// prompt.
type FrequencyExpect struct {
	ID       At[string]
	Min, Max *At[float64]
}

// IsTestFile says whether a path is named as a test file: lore.test.yaml
// (.yml, .json) anywhere, or any YAML or JSON file directly in a folder named
// tests.
func IsTestFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	switch base {
	case "lore.test.yaml", "lore.test.yml", "lore.test.json":
		return true
	}
	switch filepath.Ext(base) {
	case ".yaml", ".yml", ".json":
		return filepath.Base(filepath.Dir(path)) == "tests" && !strings.HasSuffix(base, ".schema.json")
	}
	return false
}

// projectOf is the folder a test file's tests belong to.
func projectOf(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) == "tests" {
		return filepath.Dir(dir)
	}
	return dir
}

// SnapshotPath is where a snapshot of a project is kept.
func SnapshotPath(project, name, format string) string {
	ext := ".txt"
	if format == "json" {
		ext = ".json"
	}
	return filepath.Join(project, "tests", SnapshotDir, name+ext)
}

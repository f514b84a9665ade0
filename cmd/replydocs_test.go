package cmd_test

import (
	"testing"

	"github.com/lorekit/lore/internal/consoledoc"
)

// TestReplyDocs re-runs every console block of docs/formats-replies.md: each
// example's book (a ```yaml block) and replies (```text blocks, each named
// by its first line) are written as the commands name them, and lore's
// output must be what the page shows.
func TestReplyDocs(t *testing.T) { consoledoc.Run(t, "../docs/formats-replies.md", "", 10) }

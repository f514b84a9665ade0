package lint_test

import (
	"testing"

	"github.com/lorekit/lore/internal/consoledoc"
)

// TestDocsConsole re-runs every console block of docs/rules.md (see
// consoledoc.Run).
func TestDocsConsole(t *testing.T) { consoledoc.Run(t, "../docs/rules.md", "", 1) }

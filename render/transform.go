package render

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/lorekit/lore/schema"
)

// ApplyTransforms rewrites chat history with the manifest's transforms (SPEC
// §5) and returns rewritten copies; msgs itself is never changed. A book
// without transforms gets msgs itself back, not a copy (a render calls this
// four times, and a chat may have 20,000 messages): callers must not write to
// the result. A message's
// depth is how many messages come after it (the newest has depth 0); a
// transform applies where minDepth ≤ depth ≤ maxDepth (either bound optional)
// and, when it lists roles, to messages of those roles only. Transforms run in
// manifest order, each on the result of the one before. replace uses RE2's
// expansion: $1, ${1}, ${name} (write ${1}x, not $1x, before a letter or digit).
//
// A transform whose pattern does not compile is skipped and reported in the
// error (naming its position in the manifest); the others still apply, so a
// caller that wants the best effort may use the messages anyway.
func ApplyTransforms(book *schema.Lorebook, msgs []schema.Message) ([]schema.Message, error) {
	if book == nil || len(book.Manifest.Transforms) == 0 {
		return msgs, nil
	}
	out := make([]schema.Message, len(msgs))
	copy(out, msgs)
	var errs []error
	n := len(out)
	for ti, t := range book.Manifest.Transforms {
		re, err := regexp.Compile(t.Pattern)
		if err != nil {
			pos := t.Pos
			if p, ok := t.Fields["pattern"]; ok {
				pos = p
			}
			where := ""
			if pos.Line > 0 {
				where = pos.String() + ": "
			}
			errs = append(errs, fmt.Errorf("%stransform %d: pattern %q: %w", where, ti+1, t.Pattern, err))
			continue
		}
		roles := map[string]bool{}
		for _, r := range t.Roles {
			roles[r] = true
		}
		for i := range out {
			depth := n - 1 - i
			if t.MinDepth != nil && depth < *t.MinDepth || t.MaxDepth != nil && depth > *t.MaxDepth {
				continue
			}
			if len(roles) > 0 && !roles[out[i].Role] {
				continue
			}
			out[i].Content = re.ReplaceAllString(out[i].Content, t.Replace)
		}
	}
	return out, errors.Join(errs...)
}

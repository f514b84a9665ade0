package lint

import "github.com/lorekit/lore/schema"

// checkDepthIgnored reports a depth the engine will not use: on an entry outside
// chat-history (only chat-history entries are injected into the history), or a
// negative one (depth counts messages back from the newest, from 0).
func checkDepthIgnored(c *Context) {
	for _, e := range c.Book.Entries {
		if e.Depth == nil || c.rejectedField(e, "section", "depth") {
			continue
		}
		p := e.FieldPos("depth")
		switch {
		case e.Section != schema.SectionChatHistory:
			c.Report(e, p, "depth is ignored on a %s entry: only chat-history entries are injected at a depth; remove depth or move the entry to chat-history", e.Section)
		case *e.Depth < 0:
			c.Report(e, p, "depth %d is negative and is read as 0 (just before the newest message); use 0 or more", *e.Depth)
		}
	}
}

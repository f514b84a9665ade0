package lint

// checkKeywordsIgnored reports keywords on an entry that is sent anyway: an
// always-sent entry of any section (a constant chat-history entry included) with no
// conditions. The creator probably expects the keywords to decide.
func checkKeywordsIgnored(c *Context) {
	for i, e := range c.Book.Entries {
		if c.rejectedField(e, "section", "alwaysSend") {
			continue // a rejected section gave AlwaysSend its default, not the creator's word
		}
		if f, ok := c.fate(i); ok {
			if f.Activation != "always" || len(e.Conditions) > 0 {
				continue // the engine lets the keywords decide
			}
		} else if !e.AlwaysSend || len(e.Conditions) > 0 {
			continue
		}
		field := "keywords"
		if len(e.Keywords) == 0 {
			if len(e.SecondaryKeywords) == 0 {
				continue
			}
			field = "secondaryKeywords"
		}
		c.Report(e, e.FieldPos(field), "%s of entry %s are ignored: it is always sent (alwaysSend: true); remove them, or set alwaysSend: false so that they decide", field, entryName(e))
	}
}

package reply

import "github.com/lorekit/lore/diag"

// docsURL is where each finding is explained, by its rule id as anchor.
const docsURL = "https://github.com/lorekit/lore/blob/main/docs/formats-replies.md#"

// RuleInfos describe the checker's findings for SARIF.
func RuleInfos() []diag.RuleInfo {
	rules := []struct{ id, desc string }{
		{RuleMissing, "a block the format's rule asks for in every reply is missing"},
		{RuleTwice, "a format's block is written twice"},
		{RuleLiteral, "a line of the template is missing, or its literal text is changed"},
		{RuleOrder, "a line of the template is written out of order"},
		{RuleExtra, "the block has a line the template does not have"},
		{RuleUnfilled, "a ${…} is left unfilled: empty, copied, or left as it is"},
		{RuleInstruction, "a $(…) instruction is printed in the reply"},
		{RulePart, "a line matches none of the alternatives of a ${part}"},
		{RuleTag, "a tag is never closed, nested wrongly or left over after the block"},
		{RuleLimit, "a filled text or a count breaks a limit the template states"},
		{RuleJSON, "the JSON does not parse, or does not fit the format's type"},
		{RuleType, "a type: block lore cannot read; the JSON is only checked to parse"},
	}
	out := make([]diag.RuleInfo, len(rules))
	for i, r := range rules {
		sev := diag.Error
		if r.id == RuleType {
			sev = diag.Info
		}
		out[i] = diag.RuleInfo{ID: r.id, Severity: sev, Description: r.desc, HelpURI: docsURL + r.id}
	}
	return out
}

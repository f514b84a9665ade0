package lint

import (
	"strconv"

	"github.com/lorekit/lore/diag"
)

// Rule ids produced by the engine rather than by a rule's Check.
const (
	UnusedIgnore  = "unused-ignore"
	LintDirective = "lint-directive"
)

// registry is every rule, in the order `lore rules` lists them (SPEC §6's table
// first, then lore's additions). The list is explicit so that adding a rule is one
// visible line here plus its rule_<id>.go file.
var registry = []Rule{
	{ID: "schema", Severity: diag.Error,
		Description: "a value the JSON Schema rejects (type, enum, pattern, unknown field)",
		Help:        "Fix the value as the message says; `lore schema` prints the JSON Schema. Reported by the loader.",
		Fix:         "ids that are not kebab-case are renamed to the kebab-case the message proposes"},
	{ID: "duplicate-id", Severity: diag.Error, Check: checkDuplicateID,
		Description: "two entries with one id",
		Help:        "Give every entry its own kebab-case id; activation traces and exports key entries by id."},
	{ID: "keyword-collision", Severity: diag.Warning, Check: checkKeywordCollision,
		Description: "one keyword (after case folding and NFKC) on several entries: it fires them all",
		Help:        "Keep the keyword on one entry, merge the entries, or add secondary keywords to tell them apart."},
	{ID: "keyword-overlap", Severity: diag.Warning, Check: checkKeywordOverlap,
		Description: "a keyword that fires inside a word of another entry's keyword, without matchWholeWords",
		Help:        "Set matchWholeWords: true on the entry, or use a longer keyword."},
	{ID: "keyword-in-words", Severity: diag.Warning, Check: checkKeywordInWords,
		Description: "a keyword that fires inside other words: of the lorebook's text, and common words of its language",
		Help:        "Set matchWholeWords: true on the entry, or use a longer keyword."},
	{ID: "joined-keywords", Severity: diag.Warning, Check: checkJoinedKeywords,
		Description: "one keyword that is a list (joined by commas, 、, semicolons or bars, fullwidth or not): it fires only on the whole text",
		Help:        "Make each part a keyword of its own.",
		Fix:         "the keyword is split into its parts"},
	{ID: "blank-keyword", Severity: diag.Warning, Check: checkBlankKeyword,
		Description: "a keyword that is empty or blank, or has spaces around it",
		Help:        "Remove the blank keyword; write the keyword without the spaces.",
		Fix:         "blank keywords are removed, the others trimmed"},
	{ID: "duplicate-keyword", Severity: diag.Info, Check: checkDuplicateKeyword,
		Description: "the same keyword twice on one entry",
		Help:        "Remove the second one.",
		Fix:         "the second keyword is removed"},
	{ID: "recursion-loop", Severity: diag.Warning, Check: checkRecursionLoop,
		Description: "entries whose contents activate each other in a cycle (one finding per group of them)",
		Help:        "Set preventRecursion on one entry of the cycle, excludeRecursion on another, or reword the content."},
	{ID: "unreachable-entry", Severity: diag.Error, Check: checkUnreachable,
		Description: "an entry that can never be sent (no way in, impossible secondary logic, contradictory conditions)",
		Help:        "Give the entry keywords or alwaysSend, fix its secondary keywords, or its conditions."},
	{ID: "undefined-variable", Severity: diag.Error, Check: checkUndefinedVariable,
		Description: "a condition or {{getvar}} on a variable that is neither declared nor in the variables file",
		Help:        "Declare the variable under the manifest's variables, or fix the id."},
	{ID: "condition-type", Severity: diag.Error, Check: checkConditionType,
		Description: "a comparison on a non-number, contains on a number, or a value of the wrong type for the variable",
		Help:        "Compare numbers with gt/lt/gte/lte, use contains on strings and lists, and match the declared type."},
	{ID: "depth-ignored", Severity: diag.Warning, Check: checkDepthIgnored,
		Description: "depth set outside chat-history, or negative",
		Help:        "Remove depth, or move the entry to chat-history; depth counts messages back from the newest, from 0."},
	{ID: "keywords-ignored", Severity: diag.Warning, Check: checkKeywordsIgnored,
		Description: "keywords on an entry that is always sent and has no conditions",
		Help:        "Remove the keywords, or set alwaysSend: false so that they decide."},
	{ID: "examples-format", Severity: diag.Warning, Check: checkExamplesFormat,
		Description: "examples content with no speaker lines, or lines before the first speaker",
		Help:        "Start every turn with `{{user}}:` or `{{char}}:` and separate example chats with <START>."},
	{ID: "whole-word-cjk", Severity: diag.Info, Check: checkWholeWordCJK,
		Description: "matchWholeWords on a keyword written without word boundaries (it matches as a substring)",
		Help:        "Nothing breaks; know that the keyword matches inside longer words of that script."},
	{ID: "invalid-regex", Severity: diag.Error, Check: checkInvalidRegex,
		Description: "a /regex/ keyword or transform pattern that does not compile",
		Help:        "Fix the pattern (RE2 syntax: no look-around, no backreferences; flags i, m, s)."},
	{ID: "slow-regex", Severity: diag.Warning, Check: checkSlowRegex,
		Description: "a /regex/ keyword that repeats a repetition, as (a+)+: JavaScript engines backtrack on it without end",
		Help:        "Repeat the inner part once (a+ rather than (a+)+); lore stops such a match after 250 ms."},
	{ID: "macro-budget", Severity: diag.Error, Check: checkMacroBudget,
		Description: "macros that expand past lore's budget for one render (4 × the book's and chat's text, 1–16 MiB)",
		Help:        "Use {{char}}, {{getvar}} and the like a few times, with short values; a render stops expanding past the budget."},
	{ID: "keyword-too-long", Severity: diag.Error, Check: checkKeywordTooLong,
		Description: "a keyword over 4096 bytes: it never matches",
		Help:        "Use a shorter keyword: a name or a phrase."},
	{ID: "format-template", Severity: diag.Warning, Check: checkFormatTemplate,
		Description: "a broken output-format block: invalid YAML, unbalanced ${ } or $( ), reference cycle, unbalanced <tag>, format without rule",
		Help:        "Fix the block as the message says; see docs/lorebook.md#output-format-templates for the template syntax."},
	{ID: "required-over-cap", Severity: diag.Warning, Check: checkRequiredOverCap,
		Description: "the always-sent (Required) pieces exceed the Required cap for the context size",
		Help:        "Shorten always-sent entries, make some keyword-activated, or raise contextTokens."},
	{ID: "entry-over-budget", Severity: diag.Warning, Check: checkEntryOverBudget,
		Description: "a card larger than the whole story-card share of the assumed context: it can never be included",
		Help:        "Shorten the entry or split it into several cards."},
	{ID: "empty-content", Severity: diag.Warning, Check: checkEmptyContent,
		Description: "an enabled entry with no content",
		Help:        "Write the content, or set enabled: false while it is a draft."},
	{ID: "engine-divergence", Severity: diag.Info, Check: checkEngineDivergence, Off: true,
		Description: "an entry the chosen engine (--engine, settings.engine) activates or places otherwise than lore's engine (off by default)",
		Help:        "Nothing may be wrong: this says where `lore render` without --engine would mislead you about your engine; docs/engines.md explains each difference."},
	{ID: UnusedIgnore, Severity: diag.Warning,
		Description: "a lint: ignore that suppresses nothing",
		Help:        "Remove the rule id from lint.ignore: the finding it was written for is gone."},
	{ID: LintDirective, Severity: diag.Warning,
		Description: "a lint: ignore with an unknown rule id or without a reason",
		Help:        "Name rules by their ids (`lore rules`) and say in `reason:` why the finding does not apply."},
}

// Rules returns the registry, in listing order.
func Rules() []Rule {
	out := make([]Rule, len(registry))
	copy(out, registry)
	return out
}

// byID returns the registered rule with that id, or nil.
func byID(id string) *Rule {
	for i := range registry {
		if registry[i].ID == id {
			return &registry[i]
		}
	}
	return nil
}

// DocsBase is where docs/rules.md is published; SARIF links each rule to its
// section there.
const DocsBase = "https://github.com/lorekit/lore/blob/main/docs/rules.md"

// HelpURI is the rule's section of the published docs/rules.md.
func (r *Rule) HelpURI() string { return DocsBase + "#" + r.ID }

// RuleInfos describes the registry for printers (SARIF's tool.driver.rules).
func RuleInfos() []diag.RuleInfo {
	out := make([]diag.RuleInfo, len(registry))
	for i := range registry {
		r := &registry[i]
		out[i] = diag.RuleInfo{ID: r.ID, Severity: r.Severity, Description: r.Description, Help: r.Help, HelpURI: r.HelpURI()}
	}
	return out
}

// ruleHint is " (did you mean "keyword-collision"?)" for a misspelt rule id
// (.lore.yaml's rules:, an entry's lint.ignore), "" when none is close.
func ruleHint(id string) string {
	ids := make([]string, len(registry))
	for i := range registry {
		ids[i] = registry[i].ID
	}
	if s := diag.Suggest(id, ids); s != "" {
		return " (did you mean " + strconv.Quote(s) + "?)"
	}
	return ""
}

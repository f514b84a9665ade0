package reason

import (
	"fmt"
	"strconv"
	"strings"
)

// What lore's own engine says (engine/lore).
const (
	LoreDisabled          Code = "lore.disabled"
	LoreConstant          Code = "lore.constant"
	LoreAlwaysSentDefault Code = "lore.always-sent-default" // params: section
	// LoreKeywordNeverMatches and LoreSecondaryNeverMatches: a /regex/
	// keyword that does not compile. Params: keyword, error.
	LoreKeywordNeverMatches   Code = "lore.keyword-never-matches"
	LoreSecondaryNeverMatches Code = "lore.secondary-never-matches"
	LoreNoKeywordsChatHistory Code = "lore.no-keywords-chat-history"
	LoreNoKeywords            Code = "lore.no-keywords"
	// LoreKeywordMatched: params keyword, message, excerpt.
	LoreKeywordMatched Code = "lore.keyword-matched"
	// LoreAlsoMatched: params messages (the others, at most 5), more, hits,
	// scanned (the messages with a hit).
	LoreAlsoMatched Code = "lore.also-matched"
	// LoreRecursionMatched: params keyword, entry, level, excerpt.
	LoreRecursionMatched Code = "lore.recursion-matched"
	// LoreRecursionAlso: params entries, more, others.
	LoreRecursionAlso Code = "lore.recursion-also"
	// LoreNothingScanned: params window, messages.
	LoreNothingScanned Code = "lore.nothing-scanned"
	// LoreSecondaryFails: a primary matched in the chat, the secondary logic
	// failed there. Params keyword, message, excerpt, then SecondaryLogic's.
	LoreSecondaryFails Code = "lore.secondary-fails"
	// LoreNoMatchTranscript (params messages, window) and LoreNoMatchWindow
	// (params window): no keyword in the scan window.
	LoreNoMatchTranscript Code = "lore.no-match-transcript"
	LoreNoMatchWindow     Code = "lore.no-match-window"
	// LoreJoinedKeyword: params keyword, parts, separator, first.
	LoreJoinedKeyword Code = "lore.joined-keyword"
	// LoreBeforeWindow: params keyword, message, excerpt.
	LoreBeforeWindow Code = "lore.before-window"
	// The content matches that did not activate an entry; params keyword,
	// entry (whose content), and what each needs.
	LoreRecursionSecondaryFails Code = "lore.recursion-secondary-fails"
	LoreRecursionPrevented      Code = "lore.recursion-prevented"
	LoreRecursionExcluded       Code = "lore.recursion-excluded"
	LoreRecursionOff            Code = "lore.recursion-off"
	LoreRecursionAboveLimit     Code = "lore.recursion-above-limit" // + level, limit
	LoreMoreRecursionMisses     Code = "lore.more-recursion-misses" // params count
	LoreGreetingNotSent         Code = "lore.greeting-not-sent"
	LoreEmptyAfterMacros        Code = "lore.empty-after-macros"
	// LoreBudgetShare and LoreBudgetRequired: left out by the budget.
	// Params section, budget, and note (the budget report's words) with
	// tokens when the report has a note on it.
	LoreBudgetShare    Code = "lore.budget-share"
	LoreBudgetRequired Code = "lore.budget-required"
	LoreCut            Code = "lore.cut" // params from, to, cap
	LoreCutUnsized     Code = "lore.cut-unsized"
	LoreExamplesCut    Code = "lore.examples-cut" // params dropped, of, cap

	// What can never bring an entry in (render.Fate's Never).
	LoreNeverNoKeywordsChat Code = "lore.never-no-keywords-chat-history"
	LoreNeverNoKeywords     Code = "lore.never-no-keywords" // params section
	LorePlaceGreeting       Code = "lore.place-greeting"
	LorePlaceSection        Code = "lore.place-section" // params section
)

var loreSentences = map[Code]sentence{
	LoreDisabled: {fixed("disabled (enabled: false): never sent"), nil},
	LoreConstant: {fixed("constant entry (chat-history with alwaysSend: true): sent without keywords"), nil},
	LoreAlwaysSentDefault: {func(a args) string {
		return "always sent (alwaysSend defaults to true in section " + a.str("section") + ")"
	}, Params{P("section", "system-presets")}},
	LoreKeywordNeverMatches: {func(a args) string {
		return fmt.Sprintf("keyword %s never matches: %s", Keyword(a.str("keyword")), a.str("error"))
	}, Params{P("keyword", "/(/"), P("error", "missing closing )")}},
	LoreSecondaryNeverMatches: {func(a args) string {
		return fmt.Sprintf("secondary keyword %s never matches: %s", Keyword(a.str("keyword")), a.str("error"))
	}, Params{P("keyword", "/(/"), P("error", "missing closing )")}},
	LoreNoKeywordsChatHistory: {fixed("left out: a chat-history entry without keywords is sent only with alwaysSend: true"), nil},
	LoreNoKeywords:            {fixed("left out: alwaysSend is false and it has no keywords, so nothing can activate it"), nil},
	LoreKeywordMatched: {func(a args) string {
		return fmt.Sprintf("keyword %s matched in message:%d: %s", Keyword(a.str("keyword")), a.int("message"), a.str("excerpt"))
	}, Params{P("keyword", "tavern"), P("message", 3), P("excerpt", "“…who runs this tavern?…”")}},
	LoreAlsoMatched: {func(a args) string {
		ms, _ := a.v("messages").([]int)
		others := make([]string, len(ms))
		for i, m := range ms {
			others[i] = "message:" + strconv.Itoa(m)
		}
		more := ""
		if n := a.int("more"); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		return fmt.Sprintf("also matched in %s%s (%s in %s of the scan window)",
			strings.Join(others, ", "), more, Plural(a.int("hits"), "keyword hit"), Plural(a.int("scanned"), "message"))
	}, Params{P("messages", []int{1}), P("more", 0), P("hits", 2), P("scanned", 2)}},
	LoreRecursionMatched: {func(a args) string {
		return fmt.Sprintf("keyword %s matched in the content of entry %s (recursion level %d): %s",
			Keyword(a.str("keyword")), a.str("entry"), a.int("level"), a.str("excerpt"))
	}, Params{P("keyword", "Maren"), P("entry", "sleeping-stag"), P("level", 1), P("excerpt", "“…Its keeper, Old Maren, trades…”")}},
	LoreRecursionAlso: {func(a args) string {
		more := ""
		switch {
		case a.int("more") > 0:
			more = fmt.Sprintf(" and %d more", a.int("more"))
		case a.bool("others"):
			more = " and others"
		}
		return "also activated at that level by the content of " + strings.Join(a.strs("entries"), ", ") + more
	}, Params{P("entries", []string{"old-maren"}), P("more", 0), P("others", false)}},
	LoreNothingScanned: {func(a args) string {
		return "no message was scanned for keywords (scan window " + strconv.Itoa(a.int("window")) + ", " +
			Plural(a.int("messages"), "message") + " in the transcript)"
	}, Params{P("window", 0), P("messages", 0)}},
	LoreSecondaryFails: {func(a args) string {
		return fmt.Sprintf("keyword %s matched in message:%d: %s, but %s", Keyword(a.str("keyword")), a.int("message"),
			a.str("excerpt"), secondaryLogic(a))
	}, Params{P("keyword", "tavern"), P("message", 3), P("excerpt", "“…who runs this tavern?…”"), P("logic", "AND_ANY"),
		P("holds", false), P("in", "scan-window"), P("matched", []string(nil)), P("missing", []string{"ale"})}},
	LoreNoMatchTranscript: {func(a args) string {
		return fmt.Sprintf("no keyword matched in the %s of the transcript (scan window %d)", Plural(a.int("messages"), "message"), a.int("window"))
	}, Params{P("messages", 6), P("window", 8)}},
	LoreNoMatchWindow: {func(a args) string {
		return fmt.Sprintf("no keyword matched in the last %s (scan window)", Plural(a.int("window"), "message"))
	}, Params{P("window", 4)}},
	LoreJoinedKeyword: {func(a args) string {
		return fmt.Sprintf("keyword %s is %d keywords joined by %q: it matches only where the whole text is written, never on %q alone (lint: joined-keywords; lore lint --fix splits it)",
			Keyword(a.str("keyword")), a.int("parts"), a.str("separator"), a.str("first"))
	}, Params{P("keyword", "inn, tavern"), P("parts", 2), P("separator", ", "), P("first", "inn")}},
	LoreBeforeWindow: {func(a args) string {
		return fmt.Sprintf("keyword %s matched in message:%d, before the scan window: %s", Keyword(a.str("keyword")), a.int("message"), a.str("excerpt"))
	}, Params{P("keyword", "tavern"), P("message", 0), P("excerpt", "“the tavern”")}},
	LoreRecursionSecondaryFails: {func(a args) string { return contentMatch(a) + ", but " + secondaryLogic(a) },
		Params{P("keyword", "Maren"), P("entry", "sleeping-stag"), P("logic", "AND_ANY"), P("holds", false), P("in", "content"),
			P("matched", []string(nil)), P("missing", []string{"eye"})}},
	LoreRecursionPrevented: {func(a args) string {
		return contentMatch(a) + ", but " + a.str("entry") + " has preventRecursion: its content activates nothing"
	}, Params{P("keyword", "Maren"), P("entry", "sleeping-stag")}},
	LoreRecursionExcluded: {func(a args) string {
		return contentMatch(a) + ", but this entry has excludeRecursion: only chat messages can activate it"
	}, Params{P("keyword", "Maren"), P("entry", "sleeping-stag")}},
	LoreRecursionOff: {func(a args) string { return contentMatch(a) + ", but recursion is off (recursionLimit 0)" },
		Params{P("keyword", "Maren"), P("entry", "sleeping-stag")}},
	LoreRecursionAboveLimit: {func(a args) string {
		return fmt.Sprintf("%s, but that would be recursion level %d, above recursionLimit %d", contentMatch(a), a.int("level"), a.int("limit"))
	}, Params{P("keyword", "Maren"), P("entry", "sleeping-stag"), P("level", 4), P("limit", 3)}},
	LoreMoreRecursionMisses: {func(a args) string {
		return fmt.Sprintf("and %d more such matches in entries' content", a.int("count"))
	},
		Params{P("count", 2)}},
	LoreGreetingNotSent:  {fixed("greeting entry: not sent, because the transcript already opens with an assistant message"), nil},
	LoreEmptyAfterMacros: {fixed("activated, but its content is empty after macros, so nothing is sent"), nil},
	LoreBudgetShare: {func(a args) string {
		return fmt.Sprintf("activated, then left out by the budget (%s share: %d tokens): %s", a.str("section"), a.int("budget"), budgetNote(a))
	}, Params{P("section", "cards"), P("budget", 1594), P("note", "the cards share was full"), P("tokens", 212)}},
	LoreBudgetRequired: {func(a args) string {
		return fmt.Sprintf("activated, then left out by the budget: Required was over its cap (%d tokens) and the %s section did not fit: %s",
			a.int("budget"), a.str("section"), budgetNote(a))
	}, Params{P("budget", 5000), P("section", "post-history")}},
	LoreCut: {func(a args) string {
		return fmt.Sprintf("in the prompt, but cut at its end from %d to %d tokens to fit the Required cap (%d tokens)", a.int("from"), a.int("to"), a.int("cap"))
	}, Params{P("from", 900), P("to", 400), P("cap", 5000)}},
	LoreCutUnsized: {fixed("in the prompt, but cut at its end to fit the Required cap"), nil},
	LoreExamplesCut: {func(a args) string {
		return fmt.Sprintf("%d of its %d messages were left out by the budget: Required was over its cap (%d tokens)", a.int("dropped"), a.int("of"), a.int("cap"))
	}, Params{P("dropped", 2), P("of", 6), P("cap", 5000)}},

	LoreNeverNoKeywordsChat: {fixed("a chat-history entry needs keywords, or alwaysSend: true to be constant"), nil},
	LoreNeverNoKeywords: {func(a args) string {
		return "alwaysSend: false on a " + a.str("section") + " entry without keywords; add keywords or remove alwaysSend: false"
	}, Params{P("section", "system-presets")}},
	LorePlaceGreeting: {fixed("the chat's opening assistant message (step 10), unless the transcript opens with one"), nil},
	LorePlaceSection:  {func(a args) string { return "section " + a.str("section") }, Params{P("section", "other")}},
}

// contentMatch: "keyword "Maren" matched in the content of entry
// sleeping-stag".
func contentMatch(a args) string {
	return "keyword " + Keyword(a.str("keyword")) + " matched in the content of entry " + a.str("entry")
}

// budgetNote is what the budget report says of the entry it left out.
func budgetNote(a args) string {
	if !a.has("note") {
		return "there was no room for it"
	}
	return fmt.Sprintf("%s (it has %d tokens)", a.str("note"), a.int("tokens"))
}

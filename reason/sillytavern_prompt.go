package reason

import "fmt"

// What the sillytavern engine says about its Chat Completion budget
// (engine/sillytavern/history.go): an activated entry that is not sent
// because the part of the prompt it went into had no room.
const (
	STHistoryLeftOut  Code = "sillytavern.history-left-out" // params depth
	STExamplesLeftOut Code = "sillytavern.examples-left-out"
)

var sillyTavernPromptSentences = map[Code]sentence{
	STHistoryLeftOut: {func(a args) string {
		return fmt.Sprintf("it was to go into the chat at depth %d, but that part of the chat was left out: no room in the context (SillyTavern fills the chat newest first)", a.int("depth"))
	}, Params{P("depth", 4)}},
	STExamplesLeftOut: {fixed("its example messages were left out: no room in the context after the chat (SillyTavern adds the example messages last)"), nil},
}

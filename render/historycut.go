package render

import "fmt"

// HistoryCut says which messages of the chat an engine left out of the
// prompt because the context had no room for them (SillyTavern fills the
// chat newest first and stops at the first message that does not fit, so
// they are the oldest ones): how many, the first and the last by the
// trace's names (message:N, or the greeting's id), and why.
type HistoryCut struct {
	Messages int    `json:"messages"`
	First    string `json:"first"`
	Last     string `json:"last"`
	Why      string `json:"why"`
}

// Text says it in one line: "messages message:0 … message:2931 left out:
// no room in the context".
func (h *HistoryCut) Text() string {
	if h == nil || h.Messages == 0 {
		return ""
	}
	if h.Messages == 1 {
		return fmt.Sprintf("1 message (%s) left out: %s", h.First, h.Why)
	}
	return fmt.Sprintf("%d messages (%s … %s) left out: %s", h.Messages, h.First, h.Last, h.Why)
}

package sillytavern

import (
	"math"
	"strconv"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// SillyTavern's Chat Completion prompt has a token budget: the context
// minus the response length (ChatCompletion.setTokenBudget, the same
// number World Info's budget is a share of). Three tokens are reserved for
// the reply's priming; the main prompt, the card's fields, the persona, the
// world info before and after and the post-history instructions are taken
// out of it first; then the chat — its messages with the depth entries and
// the Author's Note already injected — is filled newest first, each message
// if it still fits (canAfford), stopping at the first that does not; then
// the example dialogues, block by block, each with its [Example Chat]
// marker, stopping at the first block that does not fit
// (populateChatHistory, populateDialogueExamples in openai.js; examples
// come after the chat unless they are pinned, which is off by default).
//
// A message costs what SillyTavern's tokenizer endpoint counts for it: its
// role, its content and, for a named one, its name and one more token, plus
// three per message (the endpoint's 3 per message and 3 of padding, less
// the client's 3) — an empty message costs nothing.

// tailSlack is how many messages past the scan's reach a generation reads
// of the chat's newest end before the history asks for more (widen); tests
// raise it to read the whole chat.
var tailSlack = 64.0

// replyPriming is what populateChatCompletion reserves before anything else.
const replyPriming = 3

// cost is what one message takes of the budget.
func (p *prompt) cost(role, content, name string) int {
	if content == "" {
		return 0
	}
	c := p.sc.counter
	n := 3 + c.Count(role) + countText(c, content)
	if name != "" {
		n += c.Count(name) + 1
	}
	return n
}

func (p *prompt) costOf(m *render.Message) int { return p.cost(m.Role, m.Content, m.Name) }

// chatBudget is what the chat and the examples may take: the budget less
// the priming and every message of the prompt but the examples (from
// exStart to exEnd) and the history. rest are messages sent after the chat
// (the post-history instructions), counted now. Over the budget already,
// SillyTavern throws "Token budget exceeded" and sends nothing; lore keeps
// the chat and the examples out and warns.
func (p *prompt) chatBudget(exStart, exEnd int, rest []render.Message) int {
	left := int(p.b.maxContext) - replyPriming
	for i := range p.res.Messages {
		if i >= exStart && i < exEnd {
			continue
		}
		left -= p.costOf(&p.res.Messages[i])
	}
	for i := range rest {
		left -= p.costOf(&rest[i])
	}
	if left < 0 {
		p.res.Warnings = append(p.res.Warnings, "the prompt is over SillyTavern's budget (the context minus the response length) before the chat: SillyTavern refuses to send it (\"Token budget exceeded\"); lore shows it without the chat and the example messages")
		left = 0
		p.overBudget = true
	}
	return left
}

// fitChat fits the chat's items (splice makes them from the messages, the
// injections put in) to the budget. The generation read only the chat's
// newest end (chatTail); when every item of it fits and older messages
// remain, it reads twice as much and fits again, so a long chat costs what
// is sent, not its length.
func (p *prompt) fitChat(msgs []chatMessage, splice func([]chatMessage) []item) ([]item, int) {
	left := p.left
	for {
		items := splice(msgs)
		keep := p.fitHistory(items)
		if keep < len(items) || p.b.omitted == 0 {
			return items, keep
		}
		p.left, p.historyTokens = left, 0
		msgs = p.b.widen(2 * len(msgs))
	}
}

// widen reads the newest n messages of the chat (at least), as chatTail.
func (b *book) widen(n int) []chatMessage {
	msgs, _ := b.chatTail(b.prefix, float64(n))
	if len(b.scripts) > 0 {
		b.markPending(msgs)
	}
	return msgs
}

// fitHistory is how many of the chat's items, newest first, SillyTavern
// sends: it stops at the first that does not fit. Only those and the one
// that stopped it are counted.
func (p *prompt) fitHistory(items []item) int {
	if p.overBudget {
		return 0
	}
	for i, it := range items {
		var c int
		if it.msg != nil {
			p.b.settle(it.msg)
			c = p.cost(msgRole(it.msg), it.msg.text, "")
		} else {
			c = p.cost(roleNames[it.in.role], joinParts(it.in.parts), "")
		}
		if p.left-c < 0 {
			return i
		}
		p.left -= c
		p.historyTokens += c
	}
	return len(items)
}

// leaveOut records the items SillyTavern does not send (oldest last in
// items, newest first): the report's cut, and a reason for each entry that
// was to be injected among them.
func (p *prompt) leaveOut(items []item) {
	var first, last *chatMessage
	n := 0
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.msg == nil {
			for _, e := range injectedEntries(it.in, p.sl) {
				p.cut[e] = it.in.depth
			}
			continue
		}
		if first == nil {
			first = it.msg
		}
		last = it.msg
		n++
	}
	if n > 0 || p.b.omitted > 0 {
		cut := &render.HistoryCut{Messages: n + p.b.omitted, First: p.b.oldest}
		if n > 0 && p.b.omitted == 0 {
			cut.First = first.ref(p.b.greeting)
		}
		if cut.Last = p.b.newestOmitted; n > 0 {
			cut.Last = last.ref(p.b.greeting)
		}
		cut.Why = "no room in the context (SillyTavern fills the chat newest first)"
		p.historyCut = cut
	}
}

// injectedEntries are the entries an injection holds: the depth slot's,
// or the Author's Note's top and bottom ones.
func injectedEntries(in *injection, sl *slots) []*entry {
	var es []*entry
	if in.note {
		es = append(append(es, sl.anTop...), sl.anBottom...)
	}
	if in.slot != nil {
		es = append(es, in.slot.entries...)
	}
	return es
}

// fitExamples keeps the example blocks (Messages[exStart:exEnd], each from
// an [Example Chat] marker to the next) that fit in what the chat left,
// stopping at the first that does not, and takes the entries whose blocks
// all went out of `activated`. It returns how many messages it removed.
func (p *prompt) fitExamples(exStart, exEnd int) int {
	msgs := p.res.Messages
	keep := exStart
	for i := exStart; i < exEnd; {
		j := i + 1
		for j < exEnd && !(msgs[j].Content == render.MarkerExampleChat && msgs[j].Name == "") {
			j++
		}
		c := 0
		for k := i; k < j; k++ {
			c += p.costOf(&msgs[k])
		}
		if p.overBudget || p.left-c < 0 {
			break
		}
		p.left -= c
		p.exampleTokens += c
		keep, i = j, j
	}
	if keep == exEnd {
		return 0
	}
	sent := map[string]bool{}
	for _, m := range msgs[exStart:keep] {
		for _, s := range m.Sources {
			sent[s] = true
		}
	}
	// A left-out block's size, its marker included, goes to its source.
	dropped := map[string]bool{}
	p.exampleSizes = map[string]int{}
	src := ""
	for k := keep; k < exEnd; k++ {
		m := &msgs[k]
		if len(m.Sources) > 0 {
			src = m.Sources[0]
		} else { // a marker: the block's
			for j := k + 1; j < exEnd; j++ {
				if len(msgs[j].Sources) > 0 {
					src = msgs[j].Sources[0]
					break
				}
			}
		}
		if !sent[src] {
			dropped[src] = true
			p.exampleSizes[src] += p.costOf(m)
		}
	}
	p.examplesLeftOut = exEnd - keep
	p.res.Messages = append(msgs[:keep:keep], msgs[exEnd:]...)
	out := p.res.Activated[:0]
	for _, a := range p.res.Activated {
		if a.Step == render.StepExamples && dropped[a.ID] {
			p.droppedExamples = append(p.droppedExamples, a.ID)
			continue
		}
		out = append(out, a)
	}
	p.res.Activated = out
	for e := range p.placed {
		if dropped[e.src.ID] && p.placed[e].position != "" {
			delete(p.placed, e)
			p.cut[e] = -1
		}
	}
	return exEnd - keep
}

// budgetReasons add, to the explanations of the card's example messages,
// that they were left out for want of room (an entry's reason is the
// explanation's placement, cutReason).
func (p *prompt) budgetReasons(out map[string]*render.Explanation) {
	id := p.b.cardIDs["mes_example"]
	for _, d := range p.droppedExamples {
		if x := out[d]; x != nil && d == id {
			x.Reasons = append(x.Reasons, reason.Reason{Code: reason.STExamplesLeftOut})
		}
	}
}

func msgRole(m *chatMessage) string {
	if m.user {
		return "user"
	}
	return "assistant"
}

// promptTokens is the prompt's size as SillyTavern's budget counts it: the
// priming and every message sent.
func (p *prompt) promptTokens() int {
	total := replyPriming
	for i := range p.res.Messages {
		total += p.costOf(&p.res.Messages[i])
	}
	return total
}

// wasCut says an activated entry went out with the chat or the examples.
func (p *prompt) wasCut(e *entry) bool {
	_, ok := p.cut[e]
	return ok
}

func (p *prompt) cutReason(e *entry) reason.Reason {
	if d := p.cut[e]; d >= 0 {
		return e.about(reason.STHistoryLeftOut, "depth", reason.P("depth", d))
	}
	return e.about(reason.STExamplesLeftOut, "position")
}

// budgetReport adds the Chat Completion budget to the report: the context,
// the response length and what is left, and the prompt's messages in four
// parts that add up to the total — the fixed prompt (with the priming),
// the world info (the messages that hold activated entries: its budget is
// World Info's), the example dialogues and the chat — and what was left
// out of the last two.
func (p *prompt) budgetReport(r *render.Report) {
	mc := int(p.b.maxContext)
	r.ContextTokens, r.Available = mc, mc
	if p.b.s.MaxContext == 0 {
		r.ContextTokens, r.Reserve = p.b.in.Settings.ContextTokens, p.b.in.Settings.ResponseReserve
	}
	wiIDs := make(map[string]bool, len(p.sc.activated))
	for _, a := range p.sc.activated {
		wiIDs[a.e.src.ID] = true
	}
	fixed, wi, ex, chat := replyPriming, 0, 0, 0
	for i := range p.res.Messages {
		m := &p.res.Messages[i]
		c := p.costOf(m)
		switch {
		case m.Step == render.StepExamples:
			ex += c
		case m.Step == render.StepHistory && !holdsAny(m.Sources, wiIDs):
			chat += c
		case holdsAny(m.Sources, wiIDs):
			wi += c
		default:
			fixed += c
		}
	}
	sec := func(name, class string, tokens, budget int) render.SectionReport {
		return render.SectionReport{Name: name, Class: class, Tokens: tokens, Budget: budget, Dropped: []string{}}
	}
	w := &r.Sections[0] // world-info, as the scan counted it: now the messages that hold it
	w.Tokens = wi
	exs := sec("examples", "dynamic", ex, p.left+p.exampleTokens)
	for _, id := range p.droppedExamples {
		exs.Dropped = append(exs.Dropped, id)
		exs.Notes = append(exs.Notes, render.Note{Key: id, Tokens: p.exampleSizes[id], Why: "no room in the context after the chat (SillyTavern adds the example messages last)"})
	}
	r.Sections = append([]render.SectionReport{sec("prompt", "fixed", fixed, mc)}, r.Sections...)
	r.Sections = append(r.Sections, exs, sec("history", "dynamic", chat, p.left+p.exampleTokens+p.historyTokens))
	r.HistoryCut = p.historyCut
}

// holdsAny says whether a message's sources name one of ids.
func holdsAny(sources []string, ids map[string]bool) bool {
	for _, s := range sources {
		if ids[s] {
			return true
		}
	}
	return false
}

// chatTail is the chat as b.chat prepares it, but only its newest end: at
// least keep messages with content (the scan's reach and some; the history
// reads more when it needs them, widen). total is the whole chat's length (the
// greeting included), which delays, timed effects and min activations
// count; omitted the messages before the tail, oldest the trace's name of
// the chat's oldest message.
func (b *book) chatTail(prefix []schema.Message, keep float64) (msgs []chatMessage, total int) {
	b.omitted, b.oldest, b.newestOmitted = 0, "", ""
	start, n := 0, 0
	for i := len(prefix) - 1; i >= 0 && float64(n) < keep; i-- {
		if m := &prefix[i]; m.Role != "system" {
			start = i
			if m.Content != "" {
				n++
			}
		}
	}
	newest := start - 1 // the newest message before the tail
	for newest >= 0 && prefix[newest].Role == "system" {
		newest--
	}
	if float64(n) < keep || newest < 0 {
		msgs = b.chat(prefix)
		return msgs, len(msgs)
	}
	msgs = b.chat(prefix[start:])
	if len(msgs) > 0 && msgs[0].index < 0 {
		msgs = msgs[1:] // the greeting opens the whole chat, not the tail
	}
	for i := range msgs {
		msgs[i].index += start
	}
	// Counted once per generation, however often the history widens.
	if b.nonSystem < 0 {
		b.nonSystem = 0
		for i := range prefix {
			if prefix[i].Role != "system" {
				b.nonSystem++
			}
		}
	}
	inTail := 0
	for i := start; i < len(prefix); i++ {
		if prefix[i].Role != "system" {
			inTail++
		}
	}
	b.omitted = b.nonSystem - inTail
	first := 0
	for prefix[first].Role == "system" {
		first++
	}
	b.oldest, b.newestOmitted = "message:"+strconv.Itoa(first), "message:"+strconv.Itoa(newest)
	if b.greeting != "" && prefix[first].Role == "user" {
		b.omitted++
		b.oldest = b.greeting
	}
	return msgs, b.omitted + len(msgs)
}

// scanReach is how many of the newest messages any scan of this book can
// read: the deepest scan depth (the global one, an entry's own, min
// activations widening it up to its maximum, or the whole chat), never more
// than SillyTavern's 1,000. Older messages are neither joined for the scan
// nor run through the regex scripts unless they are sent.
func (b *book) scanReach(n int) int {
	d := b.s.ScanDepth
	for _, e := range b.entries {
		if e.scanDepth != nil && !(*e.scanDepth <= d) {
			d = *e.scanDepth
		}
	}
	if b.s.MinActivations > 0 {
		if b.s.MinActivationsDepthMax > 0 {
			d = max(d, b.s.MinActivationsDepthMax+1)
		} else {
			d = maxScanDepth
		}
	}
	if math.IsNaN(d) || d > maxScanDepth {
		d = maxScanDepth
	}
	return min(int(math.Ceil(d)), n)
}

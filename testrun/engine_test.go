package testrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
)

// stateful is an engine with what lore's own lacks: named positions, a
// random choice by seed, and state carried from turn to turn (like
// SillyTavern's sticky entries), so that the runner's use of RenderTurns and
// of seeds is tested without depending on another engine's rules.
type stateful struct{ renders, turnCalls *int }

func (stateful) Name() string { return "stateful" }

func (s stateful) Render(in *render.Input) (*render.Result, error) {
	*s.renders++
	return s.result(in, len(in.Transcript.Messages), false), nil
}

// RenderTurns keeps "sticky" in the prompt for two turns after a turn whose
// newest message says "apple".
func (s stateful) RenderTurns(in *render.Input, lengths []int) ([]*render.Result, error) {
	*s.turnCalls++
	var out []*render.Result
	left := 0
	for _, l := range lengths {
		msgs := in.Transcript.Messages[:l]
		if l > 0 && strings.Contains(msgs[l-1].Content, "apple") {
			left = 2
		}
		out = append(out, s.result(in, l, left > 0))
		left--
	}
	return out, nil
}

func (stateful) result(in *render.Input, length int, sticky bool) *render.Result {
	res := &render.Result{Engine: "stateful", Book: in.Book,
		Report: &render.Report{Total: 10 * length}}
	res.SetExplanations(map[string]*render.Explanation{})
	add := func(id, position string) {
		res.Activated = append(res.Activated, render.ActivatedOut{ID: id, Step: 6, Position: position, Trigger: render.Trigger{In: "always"}})
		res.Messages = append(res.Messages, render.Message{Role: "system", Content: id, Step: 6, Sources: []string{id}})
		res.Explanations()[id] = &render.Explanation{Active: true, Reasons: []reason.Reason{{Code: reason.AlwaysSent}}}
	}
	add("a", "an-top")
	if in.Seed%2 == 0 {
		add("coin", "")
	}
	if sticky {
		add("sticky", "depth")
	}
	return res
}

const statefulBook = `entries:
  - {id: a, section: chat-history, content: a}
  - {id: coin, section: chat-history, content: coin}
  - {id: sticky, section: chat-history, content: sticky}
`

const statefulTests = `lorebook: ../book.yaml
transcript:
  - {role: user, content: hello}
cases:
  - name: positions and seeds
    runs: 100
    expect:
      entries: {a: {position: an-top}}
      frequency: {coin: {min: 50, max: 50}}
  - name: seeds count from the case's seed
    runs: 3
    seed: 1
    expect:
      frequency: {coin: {max: 20}}
  - name: sticky for two turns
    turns:
      - messages: [{role: user, content: an apple}]
        expect: {active: [sticky], entries: {sticky: {position: depth}}}
      - messages: [{role: user, content: a pear}]
        expect: {active: [sticky]}
      - messages: [{role: user, content: a plum}]
        expect: {inactive: [sticky], tokens: {total: {max: 40}}}
      - expect: {active: [sticky]}
`

func TestRunnerUsesTheEngine(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "tests"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "book.yaml"), []byte(statefulBook), 0o644))
	path := filepath.Join(dir, "tests", "t.yaml")
	must(os.WriteFile(path, []byte(statefulTests), 0o644))

	var renders, turnCalls int
	get := func(name string) (render.Engine, error) {
		if name == "stateful" {
			return stateful{&renders, &turnCalls}, nil
		}
		return engine.Get(name)
	}
	rep := run([]Target{{Path: path}}, Options{Engine: "stateful", Jobs: 1}, get)
	if len(rep.Cases) != 3 {
		t.Fatalf("%d results, want 3", len(rep.Cases))
	}
	if c := rep.Cases[0]; c.Status != Pass || c.Engine != "stateful" {
		t.Errorf("positions and seeds: %s %+v", c.Status, c.Failures)
	}
	// Seeds 1, 2, 3: coin (even seeds) is in one run of three.
	c := rep.Cases[1]
	if c.Status != Fail || len(c.Failures) != 1 || c.Failures[0].Got != "33.3 % (1 of 3 runs)" {
		t.Errorf("seeds from the case's seed: %s %+v", c.Status, c.Failures)
	}
	// Turn 4 renders the whole chat (three messages added): sticky ran out
	// in turn 3, and the engine remembers it.
	c = rep.Cases[2]
	if c.Status != Fail || len(c.Failures) != 1 || c.Failures[0].Turn != 4 || c.Failures[0].Kind != "active" {
		for _, f := range c.Failures {
			t.Errorf("turns: %s", f.headline())
		}
		t.FailNow()
	}
	// 100 + 3 runs of one prompt, one RenderTurns call each; the turns case
	// is one RenderTurns call for its four prompts.
	if turnCalls != 104 || renders != 0 {
		t.Errorf("RenderTurns called %d times and Render %d times, want 104 and 0", turnCalls, renders)
	}
}

package reason

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryCodeSays: each code has a sentence that reads its example params
// without a formatting slip (a missing param prints "%!" or "<nil>").
func TestEveryCodeSays(t *testing.T) {
	for _, r := range Codes() {
		text := r.Text()
		switch {
		case text == "" || text == string(r.Code):
			t.Errorf("%s has no sentence", r.Code)
		case strings.Contains(text, "%!") || strings.Contains(text, "<nil>"):
			t.Errorf("%s: %q", r.Code, text)
		}
	}
}

// TestParamsJSON: params are one object, in their order.
func TestParamsJSON(t *testing.T) {
	b, err := json.Marshal(Params{P("window", 4), P("keyword", "tavern"), P("missing", []string{"a"})})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"window":4,"keyword":"tavern","missing":["a"]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSame: a reason says the same as another with the same code, field
// and params, whatever its scan pass.
func TestSame(t *testing.T) {
	a := Reason{Code: LoreNoMatchWindow, Field: "keywords", Params: Params{P("window", 4)}}
	b := a.With(P("pass", 2), P("passKind", "recursion"))
	if !a.Same(b) || !b.Same(a) {
		t.Error("a pass of its own makes a reason differ")
	}
	if a.Same(Reason{Code: LoreNoMatchWindow, Field: "keywords", Params: Params{P("window", 5)}}) {
		t.Error("different params are the same")
	}
	if a.Same(Reason{Code: LoreNoMatchWindow, Params: Params{P("window", 4)}}) {
		t.Error("different fields are the same")
	}
}

// TestPlain: values print as a creator writes them.
func TestPlain(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{{nil, ""}, {"act2", "act2"}, {3.0, "3"}, {0.5, "0.5"}, {true, "true"}, {[]any{"a", 2.0}, "a, 2"},
		{map[string]any{"b": 1.0, "a": "x"}, `{"a":"x","b":1}`}} {
		if got := Plain(c.v); got != c.want {
			t.Errorf("Plain(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := Quote([]any{"a", nil}); got != `["a", null]` {
		t.Errorf("Quote = %s", got)
	}
}

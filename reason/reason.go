// Package reason is what the engines say about entries, as data, and the
// one place that says it in English. A Reason is a code (what happened:
// "probability 0 with useProbability", "no keyword matched in the scan
// window"), the entry field it comes from with that field's position (so a
// lint finding or an --explain line can point at it), and the parameters
// the sentence needs. Text is the sentence: text output, `lore render
// --explain` (text and JSON), lint's messages about what an engine does and
// docs/reasons.md all print it from here, so one fact is said one way.
//
// Engines build Reasons and never English; lint and the outputs read
// Reasons and never know an engine by name. The sentences of every code are
// in this package, one file per engine (lore.go, yumina.go, sillytavern.go)
// and shared.go for what several engines say alike. It must not import
// render or an engine: they import it.
package reason

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/lorekit/lore/diag"
)

// Code names one thing an engine can say about an entry, as
// "<engine>.<what>" ("sillytavern.probability-zero") or, for what several
// engines say alike, "<what>" ("secondary-logic", "place.triggered").
type Code string

// Reason is one thing an engine says about an entry.
type Reason struct {
	Code Code
	// Field is the entry field the reason comes from, as the file the book
	// was read from spells it ("probability", "extensions.probability" in a
	// card, "enabled"); "" when it is about no one field.
	Field string
	// Pos is where that field's value is (the entry's start when the field
	// is absent); zero when Field is "".
	Pos diag.Pos
	// Params are what the sentence says besides the code, in its order. They
	// may be shared between reasons: read them, never change them.
	Params Params
}

// Param is one named value of a reason: a string, a number (int or
// float64, as written), a bool, nil, a list or an object — whatever JSON
// can hold.
type Param struct {
	Name  string
	Value any
}

// Params are a reason's values, in the order its sentence uses them.
type Params []Param

// Get returns the value named name.
func (p Params) Get(name string) (any, bool) {
	for _, x := range p {
		if x.Name == name {
			return x.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the params as one object, in their order.
func (p Params) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, x := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(x.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(x.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// New is a reason about field (at pos) with its params as name, value
// pairs.
func New(code Code, field string, pos diag.Pos, params ...Param) Reason {
	return Reason{Code: code, Field: field, Pos: pos, Params: params}
}

// P is a Param.
func P(name string, value any) Param { return Param{name, value} }

// Text is the reason in English.
func (r Reason) Text() string {
	s, ok := sentences[r.Code]
	if !ok {
		return string(r.Code) // a code without a sentence: TestEveryCodeSays forbids it
	}
	text := s.say(args(r.Params))
	if pass, ok := r.Params.Get("pass"); ok {
		text = fmt.Sprintf("pass %v (%s): %s", pass, passName(r.Params), text)
	}
	return text
}

// Same says two reasons say the same, their pass aside: a scan that meets
// the same gate pass after pass says it once.
func (r Reason) Same(o Reason) bool {
	if r.Code != o.Code || r.Field != o.Field {
		return false
	}
	i, j := 0, 0
	for {
		for i < len(r.Params) && passParam(r.Params[i].Name) {
			i++
		}
		for j < len(o.Params) && passParam(o.Params[j].Name) {
			j++
		}
		if i == len(r.Params) || j == len(o.Params) {
			return i == len(r.Params) && j == len(o.Params)
		}
		if r.Params[i].Name != o.Params[j].Name || !sameValue(r.Params[i].Value, o.Params[j].Value) {
			return false
		}
		i, j = i+1, j+1
	}
}

// passParam names the params that say which scan pass a reason is from.
func passParam(name string) bool {
	return name == "pass" || name == "passKind" || name == "passScanDepth"
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case string, int, float64, bool, nil:
		return a == b
	case []string:
		y, ok := b.([]string)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// With returns r with more params (r's own are not changed).
func (r Reason) With(params ...Param) Reason {
	r.Params = append(append(Params(nil), r.Params...), params...)
	return r
}

// Texts is each reason's Text.
func Texts(rs []Reason) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Text()
	}
	return out
}

// sentence is how one code is said: say builds the text from the params;
// example is a set of params the docs and the tests say it with.
type sentence struct {
	say     func(a args) string
	example Params
}

// sentences is every code's sentence.
var sentences = merge(sharedSentences, loreSentences, yuminaSentences, sillyTavernSentences, sillyTavernPromptSentences)

func merge(ms ...map[Code]sentence) map[Code]sentence {
	out := map[Code]sentence{}
	for _, m := range ms {
		for c, s := range m {
			if _, dup := out[c]; dup {
				panic("reason: code " + string(c) + " is said twice")
			}
			out[c] = s
		}
	}
	return out
}

// Codes lists every code, sorted, with an example of its sentence (for the
// docs and the tests).
func Codes() []Reason {
	out := make([]Reason, 0, len(sentences))
	for c, s := range sentences {
		out = append(out, Reason{Code: c, Params: s.example})
	}
	sortReasons(out)
	return out
}

func sortReasons(rs []Reason) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Code < rs[j-1].Code; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// args reads a reason's params for its sentence.
type args Params

func (a args) v(name string) any {
	x, _ := Params(a).Get(name)
	return x
}

func (a args) str(name string) string {
	s, _ := a.v(name).(string)
	return s
}

func (a args) int(name string) int {
	switch x := a.v(name).(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func (a args) bool(name string) bool {
	b, _ := a.v(name).(bool)
	return b
}

func (a args) strs(name string) []string {
	s, _ := a.v(name).([]string)
	return s
}

// num is a number as JavaScript and %v print it (4, 0.5, 1e+21).
func (a args) num(name string) string { return fmt.Sprint(a.v(name)) }

// has says the param is there.
func (a args) has(name string) bool {
	_, ok := Params(a).Get(name)
	return ok
}

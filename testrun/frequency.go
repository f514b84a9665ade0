package testrun

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lorekit/lore/render"
)

// frequency counts, over a case's runs, how often each entry of a turn's
// frequency expectations is in the prompt, and keeps one render where it was
// and one where it was not, to explain a failure either way.
type frequency struct {
	expects             []*FrequencyExpect
	runs                int
	in                  []int
	sampleIn, sampleOut []*render.Result
}

func newFrequency(e *Expect, runs int) *frequency {
	f := &frequency{runs: runs}
	if e != nil {
		f.expects = e.Frequency
	}
	f.in = make([]int, len(f.expects))
	f.sampleIn = make([]*render.Result, len(f.expects))
	f.sampleOut = make([]*render.Result, len(f.expects))
	return f
}

func (f *frequency) count(res *render.Result) {
	for i, x := range f.expects {
		if res.InPrompt(x.ID.V) != nil {
			f.in[i]++
			if f.sampleIn[i] == nil {
				f.sampleIn[i] = res
			}
		} else if f.sampleOut[i] == nil {
			f.sampleOut[i] = res
		}
	}
}

func (f *frequency) check() []*Failure {
	var out []*Failure
	for i, x := range f.expects {
		sample := f.sampleIn[i]
		if sample == nil {
			sample = f.sampleOut[i]
		}
		if sample == nil {
			continue // no run rendered
		}
		c := &checker{res: sample}
		if !c.known(x.ID, "frequency") {
			out = append(out, c.fails...)
			continue
		}
		pct := 100 * float64(f.in[i]) / float64(f.runs)
		low := x.Min != nil && pct < x.Min.V
		high := x.Max != nil && pct > x.Max.V
		if !low && !high {
			continue
		}
		// Point at the bound that failed; explain a run that shows why.
		pos, ex := x.Max.Pos, f.sampleIn[i]
		if low {
			pos, ex = x.Min.Pos, f.sampleOut[i]
		}
		want := percentRange(x)
		got := fmt.Sprintf("%s %% (%d of %d runs)", percent(math.Round(pct*10)/10), f.in[i], f.runs)
		out = append(out, &Failure{Pos: pos, Kind: "frequency", Expected: want, Got: got,
			Message: fmt.Sprintf("expected %s in the prompt in %s of %d runs; it was in %s", x.ID.V, want, f.runs, got),
			Explain: explain(ex, x.ID.V)})
	}
	return out
}

func percentRange(x *FrequencyExpect) string {
	switch {
	case x.Min != nil && x.Max != nil:
		return fmt.Sprintf("%s–%s %%", percent(x.Min.V), percent(x.Max.V))
	case x.Min != nil:
		return fmt.Sprintf("at least %s %%", percent(x.Min.V))
	}
	return fmt.Sprintf("at most %s %%", percent(x.Max.V))
}

func percent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

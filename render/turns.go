package render

import "fmt"

// TurnStreamer is a TurnRenderer that hands over each generation as soon as
// it is done and keeps only what the next one needs (timed effects, the
// random stream), so a thousand generations cost the memory of one.
type TurnStreamer interface {
	StreamTurns(in *Input, lengths []int, each func(i int, r *Result) error) error
}

// StreamTurns is RenderTurns one generation at a time: each gets the
// prompt of chat prefix lengths[i] as soon as it is rendered, in order, and
// an error from each stops the run. Nothing is kept between calls but the
// engine's own state.
func StreamTurns(eng Engine, in *Input, lengths []int, each func(i int, r *Result) error) error {
	if ts, ok := eng.(TurnStreamer); ok {
		if err := checkLengths(in, lengths); err != nil {
			return err
		}
		return ts.StreamTurns(in, lengths, each)
	}
	if _, ok := eng.(TurnRenderer); ok {
		rs, err := RenderTurns(eng, in, lengths)
		if err != nil {
			return err
		}
		for i, r := range rs {
			if err := each(i, r); err != nil {
				return err
			}
		}
		return nil
	}
	if err := checkLengths(in, lengths); err != nil {
		return err
	}
	for i, l := range lengths {
		rs, err := RenderTurns(eng, in, []int{l})
		if err != nil {
			return err
		}
		if err := each(i, rs[0]); err != nil {
			return err
		}
	}
	return nil
}

// checkLengths refuses a chat prefix longer than the transcript.
func checkLengths(in *Input, lengths []int) error {
	n := 0
	if in.Transcript != nil {
		n = len(in.Transcript.Messages)
	}
	for _, l := range lengths {
		if l < 0 || l > n {
			return fmt.Errorf("turn at chat length %d: the transcript has %d messages", l, n)
		}
	}
	return nil
}

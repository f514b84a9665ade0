package sillytavern

// rng is mulberry32, the generator the SillyTavern oracle puts in place of
// Math.random, so that one seed draws the same numbers in lore and in
// SillyTavern run headless. Its state is a counter, so a draw can be taken
// back (unDraw) when the budget stops a pass before the entry that drew it.
type rng struct {
	a     uint32
	draws int
}

func newRNG(seed int64) *rng { return &rng{a: uint32(seed)} }

// next is Math.random(): a float in [0, 1).
func (r *rng) next() float64 {
	r.draws++
	r.a += 0x6D2B79F5
	t := r.a
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return float64(t^t>>14) / 4294967296
}

// state and restore let the budget take back draws: the generator's state
// is a counter and the number of draws.
func (r *rng) state() rng { return *r }

func (r *rng) restore(s rng) { *r = s }

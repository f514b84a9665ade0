package match

import "time"

// Time runs fn, a use of the regular expression named kw (a regex script's
// replace, say) that is not a keyword test, on the render's clock: not at
// all when kw hung before in this process or the render's time is spent,
// and, when fn returns regexp2's timeout or stack error, kw is recorded as
// stopped and not run again. It returns fn's error, or an error when fn was
// not run. A nil clock still keeps hung expressions from running again.
func (c *RegexClock) Time(kw string, fn func() error) error {
	if _, ok := hung.Load(kw); ok {
		c.stop(kw, StopTimeout)
		return errSkipped
	}
	if c != nil {
		c.mu.Lock()
		spent := c.spent
		c.mu.Unlock()
		if spent >= RegexRenderTime {
			c.stop(kw, StopBudget)
			return errSkipped
		}
	}
	start := time.Now()
	err := fn()
	if c != nil {
		c.mu.Lock()
		c.spent += time.Since(start)
		c.mu.Unlock()
	}
	if err != nil {
		hung.Store(kw, true)
		c.stop(kw, StopTimeout)
	}
	return err
}

type skipped struct{}

func (skipped) Error() string { return "not run: stopped before" }

var errSkipped error = skipped{}

package tokenize

import (
	"runtime"
	"sync"
)

// parallelFrom is how many texts make counting them on every core worth its
// goroutines.
const parallelFrom = 512

// CountAll counts every text, on every core when there are many: the budget
// counts each piece of a prompt, and a lorebook of 100,000 activated cards is
// 100,000 BPE counts. Counters are safe for concurrent use; the result is the
// same as counting one by one.
func CountAll(c Counter, texts []string) []int {
	out := make([]int, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts)/parallelFrom+1)
	if workers <= 1 {
		for i, s := range texts {
			out[i] = c.Count(s)
		}
		return out
	}
	var wg sync.WaitGroup
	chunk := (len(texts) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(texts))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i] = c.Count(texts[i])
			}
		}()
	}
	wg.Wait()
	return out
}

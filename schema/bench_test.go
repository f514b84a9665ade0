package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genLorebook writes a single-file lorebook of n entries, YAML or JSON.
func genLorebook(tb testing.TB, n int, asJSON bool) string {
	tb.Helper()
	var b strings.Builder
	if asJSON {
		entries := make([]map[string]any, n)
		for i := range entries {
			entries[i] = map[string]any{
				"id": fmt.Sprintf("entry-%d", i), "name": fmt.Sprintf("Entry %d", i), "section": "chat-history",
				"keywords": []string{fmt.Sprintf("word%d", i), fmt.Sprintf("other%d", i)},
				"position": i % 10, "content": fmt.Sprintf("Entry %d talks about word%d.\nSecond line.", i, i+1),
				"conditions": []map[string]any{{"variableId": "gold", "operator": "gt", "value": i % 7}},
			}
		}
		data, _ := json.MarshalIndent(map[string]any{"name": "Big", "entries": entries}, "", "  ")
		b.Write(data)
	} else {
		b.WriteString("name: Big\nentries:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  - id: entry-%d\n    name: Entry %d\n    section: chat-history\n    keywords: [word%d, other%d]\n    position: %d\n"+
				"    conditions: [{variableId: gold, operator: gt, value: %d}]\n    content: |\n      Entry %d talks about word%d.\n      Second line.\n",
				i, i, i, i, i%10, i%7, i, i+1)
		}
	}
	ext := ".yaml"
	if asJSON {
		ext = ".json"
	}
	p := filepath.Join(tb.TempDir(), "big"+ext)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func BenchmarkLoad(b *testing.B) {
	for _, asJSON := range []bool{false, true} {
		name := "yaml-10000"
		if asJSON {
			name = "json-10000"
		}
		p := genLorebook(b, 10000, asJSON)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				lb, ds, err := Load(p)
				if err != nil || len(ds) > 0 || len(lb.Entries) != 10000 {
					b.Fatal(err, ds)
				}
			}
		})
	}
}

// TestLoadManyEntriesFast guards against anything quadratic in the number of
// entries: ten times the entries must cost well under a hundred times the
// CPU time (best of three runs each), and 5,000 entries load within seconds
// even on a slow CI machine.
func TestLoadManyEntriesFast(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	best := func(p string, n int) time.Duration {
		var b time.Duration
		for i := 0; i < 3; i++ {
			start := cpuTime()
			lb, ds, err := Load(p)
			d := cpuTime() - start
			if err != nil || len(ds) > 0 || len(lb.Entries) != n {
				t.Fatal(err, ds)
			}
			if i == 0 || d < b {
				b = d
			}
		}
		return b
	}
	for _, asJSON := range []bool{false, true} {
		small, big := best(genLorebook(t, 500, asJSON), 500), best(genLorebook(t, 5000, asJSON), 5000)
		if big > 30*small+50*time.Millisecond || big > 20*time.Second {
			t.Errorf("json=%v: 500 entries %v, 5,000 entries %v: not linear", asJSON, small, big)
		}
		t.Logf("json=%v: 500 entries %v, 5,000 entries %v", asJSON, small, big)
	}
	lb, _, _ := Load(genLorebook(t, 5000, false))
	e := lb.Entries[4999]
	if e.Keywords[1].Text != "other4999" || e.Conditions[0].Value != 1.0 || e.PosInContent(0).Line == 0 {
		t.Errorf("last entry: %+v", e)
	}
}

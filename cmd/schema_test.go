package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

func TestSchemaCmd(t *testing.T) {
	for _, args := range [][]string{{"schema"}, {"schema", "lorebook"}, {"schema", "entry"}, {"schema", "transcript"}, {"schema", "vars"}, {"schema", "test"}} {
		out, errOut, code := runCmd(t, IO{}, args...)
		name := "lorebook"
		if len(args) == 2 {
			name = args[1]
		}
		want, _ := schema.SchemaJSON(name)
		if code != 0 || errOut != "" || out != string(want) {
			t.Errorf("%v: exit %d, stderr %q, output differs from the embedded schema", args, code, errOut)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%v: not a draft 2020-12 schema: %v", args, err)
		}
	}
	for _, name := range formats.SchemaNames {
		out, errOut, code := runCmd(t, IO{}, "schema", name)
		want, _ := formats.SchemaJSON(name)
		var doc map[string]any
		if code != 0 || errOut != "" || out != string(want) || json.Unmarshal([]byte(out), &doc) != nil || doc["$schema"] != "http://json-schema.org/draft-07/schema#" {
			t.Errorf("schema %s: exit %d, stderr %q, not the embedded draft-07 schema", name, code, errOut)
		}
	}
	_, errOut, code := runCmd(t, IO{}, "schema", "card")
	if code != 2 || !strings.Contains(errOut, `unknown schema "card" (want entry, lorebook, test, transcript, vars, sillytavern, card-v2, card-v3)`) {
		t.Errorf("unknown: exit %d %q", code, errOut)
	}
}

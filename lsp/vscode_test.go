package lsp

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/lorekit/lore/engine"
)

// The VS Code extension's settings are the server's Options (and lore.path):
// a setting added to one is added to the other; its engine enum is the
// registry's engines.
func TestVSCodeSettingsAreOptions(t *testing.T) {
	data, err := os.ReadFile("../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	var got, want []string
	for k := range props {
		got = append(got, k)
	}
	want = append(want, "lore.path")
	ty := reflect.TypeOf(Options{})
	for i := 0; i < ty.NumField(); i++ {
		want = append(want, "lore."+ty.Field(i).Tag.Get("json"))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("package.json settings %v, want %v", got, want)
	}
	enum := append([]string{""}, engine.Names()...)
	if e := props["lore.engine"].Enum; !reflect.DeepEqual(e, enum) {
		t.Errorf("lore.engine enum %v, want %v", e, enum)
	}
}

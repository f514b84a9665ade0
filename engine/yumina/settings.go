package yumina

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lorekit/lore/render"
)

// settings are Yumina's world settings that decide a prompt, from the
// manifest's settings.yumina object (Yumina's own names), else from lore's
// settings where they mean the same, else Yumina's defaults.
type settings struct {
	// scanDepth is lorebookScanDepth: the newest messages scanned (default 2).
	scanDepth int
	// recursion is lorebookRecursionDepth (default 0: no recursion), else
	// lore's recursionLimit when the manifest sets it; at most 10.
	recursion int
	// maxContext is the context window the lorebook budget is a share of:
	// settings.yumina.maxContext, else lore's contextTokens.
	maxContext int
	// budgetPercent and budgetCap are lorebookBudgetPercent (default 100)
	// and lorebookBudgetCap (default 0: no cap).
	budgetPercent float64
	budgetCap     int
	// from says where each value came from, for --explain.
	from map[string]string
}

// settingKeys are the keys settings.yumina may have.
var settingKeys = []string{"lorebookScanDepth", "lorebookRecursionDepth", "lorebookBudgetPercent", "lorebookBudgetCap", "maxContext"}

// readSettings reads the engine's settings; a value of the wrong type is an
// error, an unknown key a warning.
func readSettings(in *render.Input) (settings, []string, error) {
	s := settings{scanDepth: defaultScanDepth, maxContext: in.Settings.ContextTokens, budgetPercent: 100,
		from: map[string]string{"lorebookScanDepth": "Yumina's default", "lorebookRecursionDepth": "Yumina's default",
			"maxContext": "lore's contextTokens"}}
	if _, ok := in.Settings.Fields["recursionLimit"]; ok {
		s.recursion = in.Settings.RecursionLimit
		s.from["lorebookRecursionDepth"] = "the manifest's recursionLimit"
	}
	var warnings []string
	keys := make([]string, 0, len(in.EngineSettings))
	for k := range in.EngineSettings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := in.EngineSettings[k]
		n, ok := v.(float64)
		if i, isInt := v.(int); isInt {
			n, ok = float64(i), true
		}
		known := false
		for _, name := range settingKeys {
			known = known || name == k
		}
		if !known {
			warnings = append(warnings, fmt.Sprintf("settings.yumina.%s is not a setting of the yumina engine (it has %s): ignored",
				k, strings.Join(settingKeys, ", ")))
			continue
		}
		whole := ok && n == math.Trunc(n) && math.Abs(n) < 1<<31
		switch {
		case k == "lorebookBudgetPercent" && (!ok || n < 0 || n > 100):
			return s, nil, fmt.Errorf("settings.yumina.%s must be a number from 0 to 100, not %v", k, v)
		case k == "lorebookBudgetPercent":
			s.budgetPercent = n
		case !whole || n < 0:
			return s, nil, fmt.Errorf("settings.yumina.%s must be a whole number of at least 0, not %v", k, v)
		case k == "lorebookScanDepth":
			s.scanDepth = int(n)
		case k == "lorebookRecursionDepth":
			s.recursion = int(n)
		case k == "lorebookBudgetCap":
			s.budgetCap = int(n)
		case k == "maxContext":
			s.maxContext = int(n)
		}
		s.from[k] = "settings.yumina"
	}
	s.recursion = min(max(s.recursion, 0), maxRecursion)
	return s, warnings, nil
}

// decoded is settings.yumina as DecodeSettings read it, with its warnings.
type decoded struct {
	s        settings
	warnings []string
}

// DecodeSettings reads settings.yumina once, when the inputs are loaded
// (render.SettingsDecoder), for the render and lint's questions alike.
func (e *Engine) DecodeSettings(in *render.Input) (any, error) {
	s, warnings, err := readSettings(in)
	if err != nil {
		return nil, err
	}
	return &decoded{s, warnings}, nil
}

// settingsOf is in's settings: those decoded when the inputs were loaded,
// else read now (an Input built by hand).
func settingsOf(in *render.Input) (settings, []string, error) {
	if d, ok := in.EngineConfig.(*decoded); ok {
		return d.s, d.warnings, nil
	}
	return readSettings(in)
}

// budget is the tokens the matched entries may take: lorebookBudgetPercent
// of maxContext, at most lorebookBudgetCap. Yumina also keeps the player's
// story memory out of it, which depends on the account, not the lorebook.
func (s settings) budget() int {
	b := math.Floor(s.budgetPercent*float64(s.maxContext)/100 + 0.5)
	if s.budgetCap > 0 {
		b = math.Min(b, float64(s.budgetCap))
	}
	return int(math.Max(0, b))
}

// window is the scan window: Yumina's history.slice(-lorebookScanDepth), so a
// depth of 0 scans every message.
func (s settings) window(n int) (first int) {
	if s.scanDepth == 0 || s.scanDepth >= n {
		return 0
	}
	return n - s.scanDepth
}

package formats

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/schema"
)

// Targets are the formats lore export writes, in the order the help lists them.
var Targets = []string{FormatSillyTavern, FormatCardV2, FormatCardV3, FormatCharX, FormatNovelAI}

// Export writes lb in the target format and reports everything the target
// cannot hold or will read differently. assets are the files of a .charx
// (ignored by the other targets, which the report then says).
func Export(lb *schema.Lorebook, target string, assets []Asset) ([]byte, *LossReport, error) {
	data, err := exportBytes(lb, target, assets)
	if err != nil {
		return nil, nil, err
	}
	r := &LossReport{From: lb.Format, To: target, File: lb.Path, Losses: exportLosses(lb, target, assets)}
	return data, r, nil
}

func exportBytes(lb *schema.Lorebook, target string, assets []Asset) ([]byte, error) {
	switch target {
	case FormatSillyTavern:
		return exportSillyTavern(lb), nil
	case FormatCardV2, FormatCardV3:
		return exportCard(lb, target), nil
	case FormatCharX:
		return exportCharX(lb, assets)
	case FormatNovelAI:
		return exportNovelAI(lb), nil
	}
	return nil, fmt.Errorf("lore cannot write %q (it writes %s)", target, strings.Join(Targets, ", "))
}

// ImportReport is the loss report of reading lb from its own format.
func ImportReport(lb *schema.Lorebook) *LossReport { return ImportReportFor(lb, "") }

// ImportReportFor is ImportReport for a lorebook that renders with the named
// engine ("" or "lore": lore's own): what that engine acts on as the source's
// tool did is no loss, only counted.
func ImportReportFor(lb *schema.Lorebook, engine string) *LossReport {
	r := &LossReport{From: lb.Format, To: FormatLore, File: lb.Path}
	if engine != "lore" {
		r.Engine = engine
	}
	for _, l := range ImportLosses(lb) {
		if r.Engine != "" && l.ActedOn == r.Engine {
			r.ActedOn++
			continue
		}
		r.Losses = append(r.Losses, l)
	}
	return r
}

// Exported is how many of lb's entries an export to target writes: every
// one into a card (its own fields, its greetings and its book), only the
// world-info entries (isWorldInfo) into a SillyTavern or NovelAI book.
func Exported(lb *schema.Lorebook, target string) int {
	if isCard(target) {
		return len(lb.Entries)
	}
	n := 0
	for _, e := range lb.Entries {
		if isWorldInfo(e) {
			n++
		}
	}
	return n
}

// Package testrun is `lore test`: regression tests for lorebooks. It owns the
// test file (loading it through schema's position-carrying node tree,
// checking it against test.schema.json, decoding its cases), running each case
// against any registered engine (several turns through render.RenderTurns,
// several seeds for frequency expectations), checking the expectations
// (reply files against the lorebook's output formats through package reply),
// comparing and writing prompt snapshots, and writing the run's report as
// text, json, junit, tap or github annotations.
//
// It must not decide what a prompt holds (engines do), find test files in a
// repository (cmd does, with the same folder walk as lint), or print anywhere
// but the writer it is given. Its output is deterministic: cases run in
// parallel, results are reported in file and case order.
package testrun

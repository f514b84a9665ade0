package render

// Assembly steps of SPEC §3.
const (
	StepSystemPresets = 1
	StepPersona       = 2
	StepFormat        = 3
	StepExamples      = 4
	StepBreakpoint    = 5 // not a message: the boundary after which prompts change between turns
	StepTriggered     = 6
	StepStartChat     = 7
	StepSummary       = 8
	StepMemory        = 9
	StepHistory       = 10
	StepPending       = 11
	StepState         = 12
	StepPostHistory   = 13
)

// Budget sections of SPEC §7 (Piece.Section).
const (
	SecLastAction     = "last-action"
	SecFrontMemory    = "front-memory"
	SecPostHistory    = "post-history"
	SecPlotEssentials = "plot-essentials"
	SecSystemPresets  = "system-presets"
	SecSummary        = "summary"
	SecExamples       = "examples"
	SecCards          = "cards"
	SecHistory        = "history"
	SecMemory         = "memory"
)

// Marker and block texts. Markers are the ones SillyTavern-style models are
// used to; the block headers tell the model what it is reading.
const (
	MarkerExampleChat = "[Example Chat]"
	MarkerStartChat   = "[Start a new Chat]"
)

// RoleGreeting is the entry role whose entries open the chat.
const RoleGreeting = "greeting"

package lint

// vocab is how a format spells the settings lint's advice names, so that a
// creator who linted a SillyTavern or NovelAI file is told what to change in
// that file ("set constant: true"), not in lore's terms. An empty field means
// the format has no such setting; advice then leaves it out.
type vocab struct {
	keywords   string // the field that holds the keywords
	constant   string // what makes an entry always sent, as an instruction
	notConst   string // the same setting, switched off, as a state
	wholeWords string // what makes keywords match whole words, as an instruction (%s: the keyword)
	prevent    string // what stops an entry's content activating others
	secondary  string // the optional filter keywords
}

var loreVocab = vocab{
	keywords: "keywords", constant: "set alwaysSend: true", notConst: "alwaysSend is false",
	wholeWords: "set matchWholeWords: true", prevent: "preventRecursion", secondary: "secondaryKeywords",
}

// cardVocab is a character card's character_book: ST's fields, in the card's
// spelling.
var cardVocab = vocab{
	keywords: "keys", constant: "set constant: true", notConst: "constant is false",
	wholeWords: "set extensions.match_whole_words: true", prevent: "extensions.prevent_recursion",
	secondary: "secondary_keys",
}

var vocabs = map[string]vocab{
	"lore": loreVocab,
	"sillytavern": {keywords: "key", constant: "set constant: true", notConst: "constant is false",
		wholeWords: "set matchWholeWords: true", prevent: "preventRecursion", secondary: "keysecondary"},
	"card-v2": cardVocab, "card-v3": cardVocab, "lorebook-v3": cardVocab,
	"novelai": {keywords: "keys", constant: "set forceActivation: true", notConst: "forceActivation is false",
		wholeWords: "write the key as a regular expression with word boundaries (/\\b%s\\b/i)"},
	"aidungeon": {keywords: "keys"},
	"agnai":     {keywords: "keywords"},
	"risu": {keywords: "key", constant: "set alwaysActive: true", notConst: "alwaysActive is false",
		secondary: "secondkey"},
}

// say is the vocabulary of the format the lorebook was read from.
func (c *Context) say() vocab {
	if v, ok := vocabs[c.Book.Format]; ok {
		return v
	}
	return loreVocab
}

// foreign reports a lorebook read from another tool's format.
func (c *Context) foreign() bool { return c.Book.Format != "" && c.Book.Format != "lore" }

package lore

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/scaling"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// scalingShapes are lorebooks of n entries in the shapes that once made
// rendering quadratic; each returns the book and a chat for it.
var scalingShapes = map[string]func(n int) (*schema.Lorebook, *schema.Transcript){
	// Every entry has the keyword "tavern" and its content names it: each
	// content activates every entry.
	"shared-keyword": func(n int) (*schema.Lorebook, *schema.Transcript) {
		book := &schema.Lorebook{Manifest: schema.Manifest{Name: "shared"}}
		for i := range n {
			e := actEntry(fmt.Sprintf("e%06d", i), schema.SectionChatHistory, withKeys("tavern", fmt.Sprintf("word%d", i)),
				withContent(fmt.Sprintf("The tavern number %d has a keeper named word%d.", i, (i+1)%n)))
			book.Entries = append(book.Entries, e)
		}
		return book, actChat("I enter the tavern.")
	},
	// The chat activates nothing; n/2 constant entries name "hub", which n/2
	// entries share: each of them has n/2 parents at level 1.
	"recursion-hub": func(n int) (*schema.Lorebook, *schema.Transcript) {
		book := &schema.Lorebook{Manifest: schema.Manifest{Name: "hub"}}
		for i := range n / 2 {
			book.Entries = append(book.Entries,
				actEntry(fmt.Sprintf("c%06d", i), schema.SectionChatHistory, withAlways(true), withContent("the hub again")),
				actEntry(fmt.Sprintf("h%06d", i), schema.SectionChatHistory, withKeys("hub"), withContent("A hub.")))
		}
		return book, actChat("nothing here")
	},
	// A shared keyword with a shared secondary keyword, named in every
	// content, and entries with secondary logics that fail.
	"shared-secondary": func(n int) (*schema.Lorebook, *schema.Transcript) {
		book := &schema.Lorebook{Manifest: schema.Manifest{Name: "secondary"}}
		logics := []string{schema.AndAny, schema.NotAny, schema.AndAll, schema.NotAll}
		for i := range n {
			e := actEntry(fmt.Sprintf("e%06d", i), schema.SectionChatHistory, withKeys("tavern"),
				withSecondary(logics[i%4], "ale", fmt.Sprintf("mug%d", i%7)), withContent("A tavern with ale."))
			book.Entries = append(book.Entries, e)
		}
		return book, actChat("the tavern", "some ale")
	},
	// Distinct keywords, a long chat naming many of them, cross-references.
	"distinct-keywords": func(n int) (*schema.Lorebook, *schema.Transcript) {
		r := rand.New(rand.NewSource(1))
		book, words := benchBook(r, n)
		return book, benchChat(r, words, 200)
	},
}

// TestRenderScalesLinearly renders each shape at n and 2n entries and checks
// that the allocations at most about double: a quadratic path (every content
// against every entry, every card's parents one by one) would quadruple them.
// Allocation counts are deterministic, so this fails the same way on any
// machine, however loaded.
func TestRenderScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("renders lorebooks of thousands of entries")
	}
	counter, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1500
	for name, shape := range scalingShapes {
		t.Run(name, func(t *testing.T) {
			scaling.Linear(t, n, func(n int) func() {
				book, chat := shape(n)
				s := schema.DefaultSettings()
				s.ContextTokens = 128000
				in := &render.Input{Book: book, Transcript: chat, Settings: s, Counter: counter}
				return func() {
					if _, err := Render(in); err != nil {
						t.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkRenderShapes renders each scaling shape at 10,000 and 20,000
// entries.
func BenchmarkRenderShapes(b *testing.B) {
	counter, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"shared-keyword", "recursion-hub", "shared-secondary", "distinct-keywords"} {
		for _, n := range []int{10000, 20000} {
			b.Run(fmt.Sprintf("%s/entries=%d", name, n), func(b *testing.B) {
				book, chat := scalingShapes[name](n)
				in := &render.Input{Book: book, Transcript: chat, Settings: schema.DefaultSettings(), Counter: counter}
				for b.Loop() {
					if _, err := Render(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestRenderExplainsWhenAsked: a render makes its explanations — one per
// entry of the book, and what came before the scan window — only when
// Explanations is called, as --explain, --report, lore test and the preview
// do; the prompt and its trace do not need them.
func TestRenderExplainsWhenAsked(t *testing.T) {
	const n = 2000
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "explain"}}
	for i := range n {
		book.Entries = append(book.Entries, actEntry(fmt.Sprintf("e%06d", i), schema.SectionChatHistory,
			withKeys(fmt.Sprintf("word%d", i)), withContent("A place.")))
	}
	texts := []string{"word0 at the start"}
	for i := 1; i < 40; i++ {
		texts = append(texts, fmt.Sprintf("then word%d", i))
	}
	chat := actChat(texts...) // the default window is 17 messages: word0 is before it
	counter, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	in := &render.Input{Book: book, Transcript: chat, Settings: schema.DefaultSettings(), Counter: counter}
	var res *render.Result
	prompt := scaling.Measure(func() {
		if res, err = Render(in); err != nil {
			t.Fatal(err)
		}
	})
	both := scaling.Measure(func() {
		if res, err = Render(in); err != nil {
			t.Fatal(err)
		}
		res.Explanations()
	})
	if both.Allocs < prompt.Allocs+n {
		t.Errorf("explaining %d entries allocates %d more times than rendering alone (%v, then %v): the render already explained them", n, both.Allocs-prompt.Allocs, prompt, both)
	}
	if x := res.Explanations()["e000000"]; x == nil || !strings.Contains(strings.Join(x.Texts(), "; "), "before the scan window") {
		t.Errorf("e000000, whose keyword is in the oldest message only, is not explained as matched before the window: %+v", x)
	}
}

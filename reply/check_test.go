package reply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// loadFormats writes a book with one post-history entry per content and
// compiles its formats.
func loadFormats(t testing.TB, contents ...string) []*Format {
	t.Helper()
	fs, _ := Compile(loadBook(t, contents...))
	return fs
}

// loadBook writes and loads a book with one post-history entry per content.
func loadBook(t testing.TB, contents ...string) *schema.Lorebook {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: Test\nentries:\n")
	for i, c := range contents {
		fmt.Fprintf(&b, "  - id: e%d\n    section: post-history\n    content: |-\n", i+1)
		for _, l := range strings.Split(c, "\n") {
			b.WriteString("      " + l + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "book.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	book, ds, err := schema.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if errs, _, _ := diag.Count(ds); errs > 0 {
		t.Fatalf("the test book has errors: %v", ds)
	}
	return book
}

// findings checks text against fs and writes each finding as
// "line:col rule: message @template line:col".
func findings(fs []*Format, text string, named bool) []string {
	var out []string
	for _, d := range Check(NewReply("r.txt", text), fs, named) {
		sev := ""
		if d.Severity != diag.Error {
			sev = d.Severity.String() + " "
		}
		s := fmt.Sprintf("%d:%d %s%s: %s", d.Line, d.Column, sev, d.Rule, d.Message)
		if d.Related != nil {
			s += fmt.Sprintf(" @%d:%d", d.Related.Line, d.Related.Column)
		}
		out = append(out, s)
	}
	return out
}

// statusBar is the seed's status bar; its template lines are lines 10–19 of
// the book (the block starts at line 6).
const statusBar = `---
状态栏:
  rule: 你必须在回复末尾插入<status_block>块来显示状态栏
  format: |-
    <status_block>
    ■ ${角色名称，仅显示当前剧情中占比最多的一名角色}:
       心情: ${用↑↓→来表示角色对<user>的好感度变化}(${变化原因})
       衣着: ${具体描述角色当前衣着，最多20字}
       身体: ${具体描述，不低于10字，不超过30字}
       行动: ...
       计划: ...

    ■ 周围角色:
       - ${周围某个没有和<user>互动的角色}: ${简要描述这个角色正在做什么}
    </status_block>`

const goodStatus = `心语歪着头看着你。

<status_block>
■ 心语:
   心情: →(观望姐姐)
   衣着: 粉金色宽松T恤睡裙
   身体: 修长美腿随意交叠，琥珀色眼眸闪着光
   行动: 思考姐姐的反常
   计划: 暗中观察姐姐的动向

■ 周围角色:
   - 千枝子: 准备就寝
</status_block>`

func edit(s string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			panic("no " + pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestCheckStatusBar(t *testing.T) {
	fs := loadFormats(t, statusBar)
	for _, tc := range []struct {
		name  string
		reply string
		want  []string
	}{
		{"clean", goodStatus, nil},
		{"full-width colons and spaces are the same text", edit(goodStatus, "■ 心语:", "■　心语：", "心情: →(观望姐姐)", "心情 ：→（观望姐姐）"), nil},
		{"a literal changed", edit(goodStatus, "身体:", "身材:"),
			[]string{`7:4 reply-literal: expected "身体:", found "身材:" @14:14`}},
		{"a literal missing later in the line", edit(goodStatus, "→(观望姐姐)", "→ 观望姐姐"),
			[]string{`5:8 reply-literal: "(" is missing here (the line is "心情: ${用↑↓→来表示角色对<…}(${变化原因})") @12:43`}},
		{"lines out of order", edit(goodStatus, "   心情: →(观望姐姐)\n   衣着: 粉金色宽松T恤睡裙", "   衣着: 粉金色宽松T恤睡裙\n   心情: →(观望姐姐)"),
			[]string{`6:4 reply-order: "心情: →(观望姐姐)" is out of order: the format has this line before "衣着: ${具体描述角色当前衣着，…}" @12:14`}},
		{"a line missing", edit(goodStatus, "   计划: 暗中观察姐姐的动向\n", ""),
			[]string{`10:1 reply-literal: missing the line "计划: ..." @16:14`}},
		{"a line the format does not have", edit(goodStatus, "   计划: 暗中观察姐姐的动向\n", "   计划: 暗中观察姐姐的动向\n   好感: 80\n"),
			[]string{`10:4 reply-extra: a line the format does not have: "好感: 80" @16:14`}},
		{"a description copied", edit(goodStatus, "粉金色宽松T恤睡裙", "具体描述角色当前衣着，最多20字"),
			[]string{`6:8 reply-unfilled: the description ${具体描述角色当前衣着，最多20字} is copied instead of filled in @13:18`}},
		{"a ${…} left in", edit(goodStatus, "粉金色宽松T恤睡裙", "${衣着}"),
			[]string{`6:8 reply-unfilled: a ${…} is left in the reply: the model should have written what it describes @13:18`}},
		{"a fill left empty", edit(goodStatus, "(观望姐姐)", "()"),
			[]string{`5:10 reply-unfilled: ${变化原因} is empty: nothing is written where the format asks for it @12:44`}},
		{"`...` left as it is", edit(goodStatus, "思考姐姐的反常", "..."),
			[]string{"8:8 reply-unfilled: `...` is left as it is: the model should continue the pattern here @15:18"}},
		{"at most 20 characters", edit(goodStatus, "粉金色宽松T恤睡裙", "粉金色宽松T恤睡裙，外面披着一件奶白色的针织开衫"),
			[]string{`6:8 reply-limit: "粉金色宽松T恤睡裙，外面披着一…" is 24 characters; the format asks for at most 20 (最多20字) @13:31`}},
		{"10 to 30 characters", edit(goodStatus, "修长美腿随意交叠，琥珀色眼眸闪着光", "修长"),
			[]string{`7:8 reply-limit: "修长" is 2 characters; the format asks for 10 to 30 (不低于10字, 不超过30字) @14:25`}},
		{"no block", "心语歪着头看着你。\n",
			[]string{`1:10 reply-missing: no <status_block> block (e1#状态栏): its rule asks for it in every reply @10:11`}},
		{"the block twice", goodStatus + "\n<status_block>\n</status_block>",
			[]string{`14:1 reply-twice: a second <status_block> block: the format is written once per reply @10:11`}},
		{"never closed", strings.TrimSuffix(goodStatus, "</status_block>"),
			[]string{`3:1 reply-tag: <status_block> is never closed: end the block with </status_block> @10:11`}},
		{"a closing tag with nothing open", "</status_block>\n" + goodStatus,
			[]string{`1:1 reply-tag: </status_block> closes a block that was never opened: write <status_block> before it @10:11`}},
		{"an instruction's words printed", edit(goodStatus, "准备就寝", "准备就寝$(旁白)"),
			[]string{`12:15 reply-instruction: a $(…) is printed: instructions are for the model, not the reply @9:9`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(fs, tc.reply, false)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

package reply

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/scaling"
	"github.com/lorekit/lore/schema"
)

// benchBook is a book of 20 formats: the status bar, the multi-character
// status bar, the option box, the quest prompt and the Galgame JSON, each
// four times under its own tag (the JSON once with a tag per copy).
func benchBook() *schema.Lorebook {
	kinds := []string{statusBar, castBar, optionBox, questBox, galgameTS}
	book := &schema.Lorebook{}
	for i := 0; i < 4; i++ {
		for k, src := range kinds {
			s := src
			for _, tag := range []string{"status_block", "roleplay_options", "ExposurePrompt"} {
				s = strings.ReplaceAll(s, tag, fmt.Sprintf("%s_%d", tag, i))
			}
			if k == 4 { // the JSON format, wrapped in a tag of its own
				s = strings.Replace(s, "  format: |-\n    ${", fmt.Sprintf("  format: |-\n    <gal_%d>\n    ${", i), 1) + fmt.Sprintf("\n    </gal_%d>", i)
			}
			book.Entries = append(book.Entries, &schema.Entry{ID: fmt.Sprintf("f%d-%d", k, i), Content: s, Enabled: true,
				Section: schema.SectionPostHistory})
		}
	}
	return book
}

// benchReply is a reply of about size bytes: prose, then the blocks of the
// formats of copy i%4 (one broken line in every third reply).
func benchReply(i, size int) string {
	c := i % 4
	var b strings.Builder
	blocks := strings.ReplaceAll(goodStatus, "status_block", fmt.Sprintf("status_block_%d", c)) + "\n\n" +
		strings.ReplaceAll(goodCast, "status_block", fmt.Sprintf("status_block_%d", c)) + "\n\n" +
		fmt.Sprintf("<roleplay_options_%d>\n```\n继续:心语继续聊天\n散步:你们去散步\n睡觉:心语回房\n跳过:时间来到早上\n```\n</roleplay_options_%d>\n\n", c, c) +
		fmt.Sprintf("<ExposurePrompt_%d>\n[系统提示|初级任务进度|打扫房间(2/3)]\n</ExposurePrompt_%d>\n\n", c, c) +
		fmt.Sprintf("<gal_%d>\n[{\"speaker\": \"旁白\", \"message\": \"夜深了。\", \"characters\": []}, {\"speaker\": \"络络\", \"message\": \"晚安。\", \"characters\": [{\"name\": \"络络\", \"costume\": \"睡衣\"}]}]\n</gal_%d>\n", c, c)
	if i%3 == 0 {
		blocks = strings.Replace(blocks, "身体:", "身材:", 1)
	}
	for b.Len()+len(blocks) < size {
		b.WriteString("心语歪着头看着你，窗外的雨还在下，她轻声说：“今晚就早点休息吧。”\n")
	}
	b.WriteString(blocks)
	return b.String()
}

// BenchmarkCheck: 1,000 replies of 2 KB against a book of 20 formats (one
// op).
func BenchmarkCheck(b *testing.B) {
	fs, _ := Compile(benchBook())
	if len(fs) != 20 {
		b.Fatalf("%d formats", len(fs))
	}
	replies := make([]*Reply, 1000)
	for i := range replies {
		replies[i] = NewReply("r.txt", benchReply(i, 2048))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, r := range replies {
			Check(&Reply{File: r.File, Text: r.Text, at: &textMap{file: r.File, text: r.Text, line: 1, col: 1}}, fs, false)
		}
	}
}

// TestCheckLinear: checking allocates at most scaling.MaxGrowth times as
// much when the replies double, and when one reply's blocks double in
// length (more characters in the status bar, more options).
func TestCheckLinear(t *testing.T) {
	fs, _ := Compile(benchBook())
	t.Run("replies", func(t *testing.T) {
		scaling.Linear(t, 200, func(n int) func() {
			texts := make([]string, n)
			for i := range texts {
				texts[i] = benchReply(i, 2048)
			}
			return func() {
				for _, s := range texts {
					Check(NewReply("r.txt", s), fs, false)
				}
			}
		})
	})
	t.Run("reply size", func(t *testing.T) {
		scaling.Linear(t, 2000, func(n int) func() {
			var b strings.Builder
			b.WriteString("<status_block_0>\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "<character>\n名称: 角色%d\n心情: ↑(被夸奖)\n约会模拟次数: %d\n</character>\n", i, i)
			}
			b.WriteString("</status_block_0>\n<roleplay_options_0>\n```\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "选项%d:心语做了第%d件事\n", i, i)
			}
			b.WriteString("```\n</roleplay_options_0>\n")
			text := b.String()
			return func() { Check(NewReply("r.txt", text), fs, false) }
		})
	})
}

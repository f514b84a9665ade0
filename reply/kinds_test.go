package reply

import (
	"strings"
	"testing"
)

// run checks each reply against fs and compares the findings.
func run(t *testing.T, fs []*Format, cases []struct {
	name  string
	reply string
	want  []string
}) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(fs, tc.reply, false)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

const castBar = `---
多角色状态栏:
  rule: 你必须在每次回复的最底部，输出<status_block>包裹的状态栏
  format:
    basic: |-
      <status_block>
      <character>
      名称: ${角色名称}
      心情: ${用↑↓→来表示角色对<user>的好感度变化}(${变化原因})
      ${special status}
      </character>
      ...
      </status_block>
    special status:
      心爱: |-
        路人视角: ${考虑穿着、外在遮掩和角度}
        露出程度: ${当前露出程度数值}
      心语: |-
        约会模拟次数: ${约会模拟次数}`

const goodCast = `<status_block>
<character>
名称: 心爱
心情: ↑(被夸奖)
路人视角: 裙摆被风吹起
露出程度: 2
</character>
<character>
名称: 心语
心情: →(没什么变化)
约会模拟次数: 3
</character>
</status_block>`

func TestCheckParts(t *testing.T) {
	fs := loadFormats(t, castBar)
	run(t, fs, []struct {
		name  string
		reply string
		want  []string
	}{
		{"clean: each character its own part, the group repeated", goodCast, nil},
		{"one character is enough", strings.Replace(goodCast, "<character>\n名称: 心语\n心情: →(没什么变化)\n约会模拟次数: 3\n</character>\n", "", 1), nil},
		{"no alternative matches", edit(goodCast, "约会模拟次数: 3", "好感度: 3"),
			[]string{`11:1 reply-extra: a line the format does not have: "好感度: 3" @14:13`, `11:1 reply-part: missing ${special status}: one of 心爱, 心语 @15:13`}},
		{"an alternative changed", edit(goodCast, "约会模拟次数: 3", "约会次数: 3"),
			[]string{`11:1 reply-part: the line matches none of the alternatives of ${special status} (心爱, 心语); nearest, 心语: expected "约会模拟次数:", found "约会次数: 3" @24:15`}},
		{"an alternative with a line missing", edit(goodCast, "露出程度: 2\n", ""),
			[]string{`6:1 reply-literal: missing the line "露出程度: ${当前露出程度数值}" (of ${special status}: 心爱) @22:15`}},
		{"a repetition that does not match", edit(goodCast, "名称: 心语", "姓名: 心语"),
			[]string{`9:1 reply-extra: a line the format does not have: "姓名: 心语" @12:13`, `9:1 reply-literal: missing the line "名称: ${角色名称}" @13:13`}},
		{"nested wrongly", edit(goodCast, "约会模拟次数: 3\n</character>\n</status_block>", "约会模拟次数: 3\n</status_block>\n</character>"),
			[]string{`8:1 reply-tag: <character> is never closed in the block: add </character> @11:13`,
				`13:1 reply-tag: </character> is left over after the <status_block> block, which ends before it @11:13`}},
		{"an inner tag never closed: the last closing tag closes the nearest", edit(goodCast, "露出程度: 2\n</character>", "露出程度: 2"),
			[]string{`2:1 reply-tag: <character> is never closed in the block: add </character> @11:13`}},
	})
}

const optionBox = "---\n选择框:\n  rule: 你必须在回复末尾给出<roleplay_options>选择框\n  format:\n    basic: |-\n      <roleplay_options>\n      ```\n      ${按照content而非type拟定标题}:${content，必须以第三人称输出行为的主语}\n      ...$(generate {{random::4::5::6}} options based on `option type` below)\n      ```\n      </roleplay_options>\n    option type:\n      - {type: 普通发展, content: '${根据当前的情况，合理构思当前可能出现的不同发展}'}\n      - {type: 跳过场景, content: '${用概括性的语言来跳过当前动作的描写}', rule: 必须给出一个跳过场景选项}"

func TestCheckRepeatCount(t *testing.T) {
	fs := loadFormats(t, optionBox)
	opts := func(n int) string {
		var b strings.Builder
		b.WriteString("<roleplay_options>\n```\n")
		for i := 0; i < n; i++ {
			b.WriteString("选项" + itoa(i+1) + ":心语做了第" + itoa(i+1) + "件事\n")
		}
		b.WriteString("```\n</roleplay_options>")
		return b.String()
	}
	run(t, fs, []struct {
		name  string
		reply string
		want  []string
	}{
		{"4 options", opts(4), nil},
		{"6 options", opts(6), nil},
		{"3 options", opts(3), []string{"3:1 reply-limit: 3 repetitions of the group before `...`; the format asks for 4, 5 or 6 ({{random::4::5::6}}) @14:27"}},
		{"7 options", opts(7), []string{"3:1 reply-limit: 7 repetitions of the group before `...`; the format asks for 4, 5 or 6 ({{random::4::5::6}}) @14:27"}},
		{"a repetition without its colon", edit(opts(4), "选项2:心语做了第2件事", "心语做了第2件事"),
			[]string{`4:1 reply-literal: ":" is missing here (the line is "${按照content而非…}:${content，必须以…}") @13:35`}},
		{"the instruction printed", edit(opts(5), "```\n</roleplay_options>", "$(generate 5 options)\n```\n</roleplay_options>"),
			[]string{"8:1 reply-instruction: a $(…) is printed: instructions are for the model, not the reply @14:16"}},
	})
}

const questBox = `---
任务系统提示框:
  condition: 玩家接受任务后
  format:
    basic: |-
      <ExposurePrompt>
      [系统提示|${title}|${content}$(禁止在content后输出 |)]
      </ExposurePrompt>
    specific prompt:
      - title: ${难度}任务进度
        content: ${任务内容}(${进度})$(任务奖励不应在任务完全完成前减少)
      - title: 已兑换商品-${商品名称}
        content: 扣除${价格}点数`

func TestCheckItems(t *testing.T) {
	fs := loadFormats(t, questBox)
	if fs[0].Required {
		t.Error("a format with condition: and no rule is required")
	}
	run(t, fs, []struct {
		name  string
		reply string
		want  []string
	}{
		{"no block: it is not required", "今天天气很好。", nil},
		{"the first kind", "<ExposurePrompt>\n[系统提示|初级任务进度|打扫房间(2/3)]\n</ExposurePrompt>", nil},
		{"the second kind", "<ExposurePrompt>\n[系统提示|已兑换商品-糖果|扣除5点数]\n</ExposurePrompt>", nil},
		{"neither", "<ExposurePrompt>\n[系统提示|已兑换商品-糖果|扣除5分]\n</ExposurePrompt>",
			[]string{`2:18 reply-part: the line matches none of the alternatives of ${items} (${难度}任务进度, 已兑换商品-${商品名称}); nearest, 已兑换商品-${商品名称}: the line should end with "点数]" (it is "[系统提示|已兑换商品-${商品名称}|扣除${价格}点数]") @18:31`}},
		{"an instruction printed", "<ExposurePrompt>\n[系统提示|初级任务进度|打扫房间(2/3)任务奖励不应在任务完全完成前减少]\n</ExposurePrompt>",
			[]string{`2:23 reply-instruction: the instruction $(任务奖励不应在任务完全完成前减少) is printed: $(…) tells the model what to do, it is not part of the reply @16:38`}},
	})
}

func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{"你必须在回复末尾插入<status_block>块来显示状态栏", true},
		{"end every reply with the status block", true},
		{"you must end each reply with the status block", true},
		{"always write the options last", true},
		{"如果玩家询问，你必须输出任务栏", false},
		{"当玩家接受任务时，必须输出提示框", false},
		{"你必须在回复末尾显示当前时间", true},
		{"write it when the scene changes; you must keep it short", false},
		{"略", false},
	} {
		fs := loadFormats(t, "---\nf:\n  rule: "+tc.rule+"\n  format: <b>${x}</b>")
		if fs[0].Required != tc.want {
			t.Errorf("rule %q: required %v, want %v", tc.rule, fs[0].Required, tc.want)
		}
	}
}

func TestCheckUntagged(t *testing.T) {
	fs := loadFormats(t, "---\ntime:\n  rule: 略\n  format: |-\n    时间: ${当前时间}\n    地点: ${当前地点，最多6字}")
	run(t, fs, []struct {
		name  string
		reply string
		want  []string
	}{
		{"found by its first line", "她笑了。\n\n时间: 傍晚\n地点: 公园\n\n她走了。", nil},
		{"not there", "她笑了。", nil},
		{"a line changed", "时间: 傍晚\n地址: 公园",
			[]string{`2:1 reply-literal: expected "地点:", found "地址:" @11:11`}},
		{"twice", "时间: 傍晚\n地点: 公园\n他说。\n时间: 夜晚\n地点: 家",
			[]string{`4:1 reply-twice: the e1#time block starts again here: the format is written once per reply @10:11`}},
		{"a limit", "时间: 傍晚\n地点: 城市中心的大公园里",
			[]string{`2:5 reply-limit: "城市中心的大公园里" is 9 characters; the format asks for at most 6 (最多6字) @11:22`}},
	})
}

func TestNamedFormatsAreRequired(t *testing.T) {
	fs := loadFormats(t, "---\nf:\n  rule: 略\n  format: <b>${x}</b>")
	if got := findings(fs, "nothing", false); len(got) != 0 {
		t.Errorf("an optional format reported: %v", got)
	}
	want := "1:8 reply-missing: no <b> block (e1#f): the format was named to check @9:17"
	if got := findings(fs, "nothing", true); strings.Join(got, "\n") != want {
		t.Errorf("named: got %v, want %s", got, want)
	}
}

#!/bin/bash
# outputs.sh LORE OUTDIR [BENCHDIR] writes what LORE prints for lint, render
# (every engine; JSON, text, --report, openai) and tokens on every corpus file
# (../shared/corpus), every fixture and, when BENCHDIR holds them, the bench
# books cjk-1000.yaml and yaml-1000.yaml with chat-1000-200.yaml (bookgen),
# one file per run, so that two binaries' outputs compare with `diff -r`:
#
#   go build -o /tmp/before . && git stash && go build -o /tmp/after . && git stash pop
#   scripts/bench/outputs.sh /tmp/before /tmp/out-before; scripts/bench/outputs.sh /tmp/after /tmp/out-after
#   diff -r /tmp/out-before /tmp/out-after && echo identical
#
# Speed work must leave every byte of these the same.
set -u
L=$1 O=$2 B=${3:-}
mkdir -p "$O"
cd "$(dirname "$0")/../.."
chat=fixtures/eldoria/transcript.yaml
files=$(find ../shared/corpus fixtures -type f \( -name '*.json' -o -name '*.yaml' -o -name '*.yml' -o -name '*.png' -o -name '*.lorebook' -o -name '*.charx' \) 2>/dev/null | grep -v transcript | sort)
for f in $files fixtures/eldoria/book fixtures/sakura/book.yaml; do
	k=$(echo "$f" | tr '/' '_')
	"$L" lint "$f" --format json >"$O/$k.lint.json" 2>&1; echo "exit $?" >>"$O/$k.lint.json"
	for e in lore sillytavern yumina; do
		"$L" render "$f" --transcript $chat --engine $e --format json >"$O/$k.render.$e.json" 2>&1; echo "exit $?" >>"$O/$k.render.$e.json"
	done
	"$L" render "$f" --transcript $chat --report >"$O/$k.render.txt" 2>&1; echo "exit $?" >>"$O/$k.render.txt"
	"$L" render "$f" --transcript $chat >"$O/$k.render.plain.txt" 2>&1; echo "exit $?" >>"$O/$k.render.plain.txt"
	"$L" tokens "$f" --format json >"$O/$k.tokens.json" 2>&1; echo "exit $?" >>"$O/$k.tokens.json"
done
[ -n "$B" ] || exit 0
for bk in "$B/cjk-1000.yaml" "$B/yaml-1000.yaml"; do
	[ -f "$bk" ] || continue
	k=$(basename "$bk") c="$B/chat-1000-200.yaml"
	"$L" lint "$bk" --format json >"$O/$k.lint.json" 2>&1
	"$L" tokens "$bk" --format json >"$O/$k.tokens.json" 2>&1
	"$L" tokens "$bk" --transcript "$c" >"$O/$k.tokens.chat.txt" 2>&1
	for e in lore sillytavern yumina; do
		"$L" render "$bk" --transcript "$c" --engine $e --format json >"$O/$k.render.$e.json" 2>&1
		"$L" render "$bk" --transcript "$c" --engine $e --report >"$O/$k.render.$e.txt" 2>&1
		"$L" render "$bk" --transcript "$c" --engine $e >"$O/$k.render.$e.plain.txt" 2>&1
		"$L" render "$bk" --transcript "$c" --engine $e --format openai >"$O/$k.render.$e.openai.json" 2>&1
	done
done

#!/usr/bin/env bash
# Runs the hooks of .pre-commit-hooks.yaml with Debian's pre-commit against a
# small fixture repository: lore-lint and lore-fmt-check pass on a clean
# lorebook and fail on an unformatted one. pre-commit builds lore from this
# repository (language: golang), with the Go module proxy.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
# pre-commit's golang environment has a GOPATH of its own, so without this
# the build would download every module again into it; the machine's module
# cache holds them already.
export GOMODCACHE="${GOMODCACHE:-$(go env GOMODCACHE)}"
# try-repo clones the commit: hook definitions that are not committed yet
# are tried from a copy committed in a scratch clone.
src="$work/lore"
git clone -q "$repo" "$src"
cp "$repo/.pre-commit-hooks.yaml" "$src/"
git -C "$src" add .pre-commit-hooks.yaml
git -C "$src" -c user.name=ci -c user.email=ci@localhost commit -qm "hooks under test" --allow-empty
fixture="$work/books"
mkdir -p "$fixture/book/entries"
printf 'name: Fixture\n' > "$fixture/book/lorebook.yaml"
printf 'id: gate\ncontent: The gate is shut at night.\nsection: chat-history\nkeywords: [gate]\nmatchWholeWords: true\n' > "$fixture/book/entries/gate.yaml"
git -C "$fixture" init -q
git -C "$fixture" add .
git -C "$fixture" -c user.name=ci -c user.email=ci@localhost commit -qm fixture
cd "$fixture"
for hook in lore-lint lore-fmt-check; do
  pre-commit try-repo "$src" "$hook" --all-files
done
# An unformatted entry file: lore-fmt-check must fail.
printf 'section: chat-history\nid: gate\ncontent: The gate is shut at night.\nkeywords: [gate]\nmatchWholeWords: true\n' > book/entries/gate.yaml
git add .
if pre-commit try-repo "$src" lore-fmt-check --all-files; then
  echo "lore-fmt-check passed an unformatted file" >&2; exit 1
fi
echo "pre-commit hooks: ok"

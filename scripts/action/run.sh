#!/usr/bin/env bash
# The steps of action.yml (the composite GitHub Action): install lore at a
# version and lint with SARIF output. Tested by scripts/action/run_test.sh.
#   LORE_VERSION  module version to install (default latest)
#   LORE_PATHS    what to lint (default .)
#   LORE_SARIF    SARIF file to write (default lore.sarif)
#   LORE_ARGS     more lint flags (e.g. --baseline .lore-baseline.json)
#   LORE_GO       the go command (default go)
set -euo pipefail
version="${LORE_VERSION:-latest}"
sarif="${LORE_SARIF:-lore.sarif}"
go="${LORE_GO:-go}"
case "$version" in
  latest|v[0-9]*) ;;
  *) echo "lore action: version must be latest or vX.Y.Z, not '$version'" >&2; exit 2 ;;
esac
"$go" install "github.com/lorekit/lore@$version"
bin="$("$go" env GOBIN)"
[ -n "$bin" ] || bin="$("$go" env GOPATH)/bin"
status=0
# shellcheck disable=SC2086 # the paths and flags are words
"$bin/lore" lint --format sarif ${LORE_ARGS:-} ${LORE_PATHS:-.} > "$sarif" || status=$?
echo "lore action: wrote $sarif (lint exit $status)"
# Findings (1) still upload; an unreadable input or bad usage (2) fails.
if [ "$status" -ge 2 ]; then exit "$status"; fi
echo "exit-code=$status" >> "${GITHUB_OUTPUT:-/dev/null}"

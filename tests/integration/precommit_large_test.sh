#!/usr/bin/env bash
# A commit of 8,000 input files through the real pre-commit: pre-commit
# splits a file list longer than its 128 KiB command-line limit over several
# processes even with require_serial (pre-commit/pre-commit#3104), so a hook
# that is passed the files prints several summaries and repeats the findings
# of a config inherited by units in different processes. The `topolint`
# hook is one process: one summary, every finding once.
#
# usage: precommit_large_test.sh BUILD_DIR SOURCE_DIR [HOOK_ID]
set -euo pipefail

# shellcheck source=tests/integration/precommit_env.sh
. "$(dirname "$0")/precommit_env.sh"
precommit_env precommit_large_test "$1" "$2"
hook_id=${3:-topolint}

proj="$tmp/project"
mkdir -p "$proj"
cd "$proj"
git init -q
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: %s\n' \
  "$hooks" "$rev" "$hook_id" > .pre-commit-config.yaml
git add .pre-commit-config.yaml
git commit -q -m "config"

# 2,000 units of 4 matching files each (model.hlo, def.json and two JSON
# files of no topolint kind) under one inherited config with a misspelt key
# (one finding, whichever units a process checks); units 7, 507, 1007 and
# 1507 have a def.json that disagrees with their module (one finding each).
python3 "$src/tests/integration/make_large_project.py" models
git add -A
staged=$(git diff --cached --name-only | wc -l)
[ "$staged" -eq 8001 ] || fail "$staged files staged, expected 8001"
# The list pre-commit passes is longer than its limit: it would partition.
len=$(git diff --cached --name-only | wc -c)
[ "$len" -gt 131072 ] || fail "a file list of $len bytes is not split"

log="$tmp/run.log"
rc=0
pre-commit run >"$log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$log" >&2; fail "pre-commit exited $rc, expected 1"; }
summaries=$(grep -c '^topolint: .* error' "$log" || true)
[ "$summaries" -eq 1 ] ||
  { grep '^topolint' "$log" >&2; fail "$summaries summaries, expected 1"; }
grep -qF "topolint: 4 errors, 1 warning, 0 notes (2000 units" "$log" ||
  { grep '^topolint' "$log" >&2; fail "the summary does not count each unit once"; }
n=$(grep -cF '[config-unknown-key]' "$log" || true)
[ "$n" -eq 1 ] || fail "$n [config-unknown-key] findings, expected 1"
n=$(grep -cF '[xref-topology-mismatch]' "$log" || true)
[ "$n" -eq 4 ] || fail "$n [xref-topology-mismatch] findings, expected 4"
repeated=$(grep -E '\[[a-z]+(-[a-z]+)+\]$' "$log" | sort | uniq -d | wc -l)
[ "$repeated" -eq 0 ] || fail "$repeated findings printed more than once"
echo "precommit_large_test: OK"

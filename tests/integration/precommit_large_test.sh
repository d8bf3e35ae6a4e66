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

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
hook_id=${3:-topolint}
fail() { echo "precommit_large_test: FAIL: $*" >&2; exit 1; }

[ -x "$build/topolint" ] || fail "$build/topolint is not an executable"
command -v pre-commit >/dev/null || fail "pre-commit is not installed"
command -v git >/dev/null || fail "git is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/topolint-precommit-large.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_CACHE_HOME="$tmp/home/.cache" PRE_COMMIT_HOME="$tmp/pre-commit"
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=topolint GIT_AUTHOR_EMAIL=topolint@example.invalid
export GIT_COMMITTER_NAME=topolint GIT_COMMITTER_EMAIL=topolint@example.invalid
export PRE_COMMIT_COLOR=never NO_COLOR=1
export PATH="$build:$PATH"

hooks="$tmp/hooks"
mkdir -p "$hooks"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" add .pre-commit-hooks.yaml
git -C "$hooks" commit -q -m "topolint hooks"
rev=$(git -C "$hooks" rev-parse HEAD)

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

#!/usr/bin/env bash
# End-to-end test of the pre-commit hook in .pre-commit-hooks.yaml.
#
# usage: precommit_test.sh BUILD_DIR SOURCE_DIR [HOOK_ID]
#
# HOOK_ID is `topolint` (default: the whole repository in one process) or
# `topolint-files` (the units of the files pre-commit passes).
#
# BUILD_DIR holds the built `topolint` (it is put first on PATH, as a user's
# installed topolint would be); SOURCE_DIR is the topolint checkout whose
# .pre-commit-hooks.yaml is tested. Works offline and as root, in the
# environment precommit_env.sh sets up.
set -euo pipefail

# shellcheck source=tests/integration/precommit_env.sh
. "$(dirname "$0")/precommit_env.sh"
precommit_env precommit_test "$1" "$2"
hook_id=${3:-topolint}

# The project using the hook: a def.json whose topology 1 is empty, and six
# directories each holding an HLO module whose groups differ from its
# def.json (a cross-file finding, reported only when both files reach one
# topolint process, which is what require_serial guarantees).
proj="$tmp/project"
mkdir -p "$proj/neff" "$proj/m1"
cd "$proj"
git init -q
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: $hook_id
EOF
printf '{"CCInfo": {"replica_groups": [[[0,1]], []]}}\n' > neff/def.json
cat > m1/model.hlo <<'EOF'
HloModule m, replica_count=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%add
}
EOF
printf '{"CCInfo": {"replica_groups": [[[0,2],[1,3]]]}}\n' > m1/def.json
for m in m2 m3 m4 m5 m6; do cp -r m1 "$m"; done
echo "not an input" > README.md
git add -A
git commit -q -m "project"

expect_run() {  # expect_run WANT_RC LOG pre-commit-args...
  local want=$1 log=$2
  shift 2
  local rc=0
  pre-commit "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne "$want" ]; then
    cat "$log" >&2
    fail "pre-commit $* exited $rc, expected $want"
  fi
}
expect_in() {  # expect_in LOG TEXT
  grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "output lacks: $2"; }
}

# 1. The configured hook fails on the bad files, with located findings.
# TRAVIS makes pre-commit 3 split a non-serial hook's files over exactly two
# processes (whatever the CPU count), so that a hook without require_serial
# would lose some of the six cross-file findings.
TRAVIS=1 expect_run 1 "$tmp/run1.log" run --all-files
expect_in "$tmp/run1.log" "topolint"
expect_in "$tmp/run1.log" "Failed"
expect_in "$tmp/run1.log" "neff/def.json:1:41: error: Empty topology found at index 1, possible MPMD neff file"
expect_in "$tmp/run1.log" "[neff-empty-topology]"
n=$(grep -cF "[xref-topology-mismatch]" "$tmp/run1.log" || true)
[ "$n" -eq 6 ] || { cat "$tmp/run1.log" >&2
  fail "$n [xref-topology-mismatch] findings, expected 6 (one per HLO/def.json pair)"; }
if grep -qF "README.md" "$tmp/run1.log"; then
  cat "$tmp/run1.log" >&2
  fail "README.md was passed to the hook (files pattern too wide)"
fi

# 2. try-repo, the way a user evaluates a hook before adopting it.
expect_run 1 "$tmp/try.log" try-repo "$hooks" "$hook_id" --files neff/def.json
expect_in "$tmp/try.log" "[neff-empty-topology]"

# 3. After fixing the inputs the hook passes.
printf '{"CCInfo": {"replica_groups": [[[0,1]]]}}\n' > neff/def.json
for m in m1 m2 m3 m4 m5 m6; do
  printf '{"CCInfo": {"replica_groups": [[[0,1],[2,3]]]}}\n' > "$m/def.json"
done
git add -A
expect_run 0 "$tmp/run2.log" run --all-files
expect_in "$tmp/run2.log" "Passed"
expect_run 0 "$tmp/try2.log" try-repo "$hooks" "$hook_id" --files neff/def.json

# 4. Only the HLO module is staged, and its groups no longer match the
# committed def.json beside it: the hook checks the whole unit and fails.
git commit -q -m "fixed"
sed -i 's/replica_groups={{0,1},{2,3}}/replica_groups={{0,2},{1,3}}/' m1/model.hlo
git add m1/model.hlo
expect_run 1 "$tmp/staged.log" run
expect_in "$tmp/staged.log" "m1/model.hlo"
expect_in "$tmp/staged.log" "[xref-topology-mismatch]"
git checkout -q HEAD -- m1/model.hlo

# 5. JSON that is none of topolint's inputs (JSON with comments) is staged:
# nothing is reported and the commit goes through.
mkdir -p .vscode
printf '{\n  // editor settings\n  "editor.tabSize": 2,\n}\n' > .vscode/settings.json
git add .vscode/settings.json
expect_run 0 "$tmp/vscode.log" run
if grep -qF "json-syntax" "$tmp/vscode.log"; then
  cat "$tmp/vscode.log" >&2
  fail "the hook reported unrelated JSON"
fi
git commit -q -m "editor settings"

echo "precommit_test: OK"

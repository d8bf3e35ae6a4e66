#!/usr/bin/env bash
# CI job: the Python package as a user installs it (docs/integration.md,
# "The Python package"): a fresh venv, the one documented command
# `pip install --no-build-isolation ./python` in a venv made with
# --system-site-packages (Debian's setuptools and wheel; offline:
# PIP_NO_INDEX=1 makes any download attempt fail), then the API and the bundled command from the venv with
# nothing else installed by hand. Also checks that the build wrote nothing
# into the source tree (no build/, no *.egg-info; Python's own __pycache__
# aside).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What pip could leave: anything new under python/ (tracked, untracked or
# ignored), or a new top-level entry such as build/.
tree_state() {
  git status --porcelain --ignored --untracked-files=all -- python/ |
    grep -v '__pycache__' | sort || true
  ls -A
}
tree_state > "$work/before"

"$PY" -m venv --system-site-packages "$work/venv"
start=$(date +%s)
PIP_NO_INDEX=1 CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
  "$work/venv/bin/pip" install --no-build-isolation ./python
echo "pip install --no-build-isolation ./python: $(( $(date +%s) - start ))s"

tree_state > "$work/after"
if ! diff -u "$work/before" "$work/after"; then
  echo "pip install ./python wrote into the source tree (above)" >&2
  exit 1
fi

venv_py="$work/venv/bin/python3"
# The package, its library and its command come from the venv.
"$venv_py" - <<'PY'
import os, sys, topolint
lib = topolint.library_path()
assert lib.startswith(sys.prefix), lib
findings = topolint.check(["fixtures/hlo-duplicate-device-id/fail-binary-module"])
print(findings)
assert [f.rule for f in findings] == ["hlo-duplicate-device-id"], findings
PY
"$venv_py" -c "import topolint; print(topolint.check(['fixtures/neff-empty-topology']))"

set +e
"$work/venv/bin/topolint" check -q fixtures/ > "$work/fixtures.txt"
rc=$?
set -e
if [ "$rc" -ne 1 ]; then
  echo "venv topolint check fixtures/ exited $rc, expected 1 (the fixtures hold deliberate mistakes)" >&2
  exit 1
fi
"$venv_py" -m topolint --version
echo "python wheel: ok ($(wc -l < "$work/fixtures.txt") lines of findings)"

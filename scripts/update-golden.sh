#!/usr/bin/env bash
# Regenerates fixtures/<rule>/<case>/expected.txt for the given case
# directories (or every case when none is given), from the repo root.
# Read the result before committing: golden files are the expectations.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${TOPOLINT_BIN:-build/topolint}
if [ $# -eq 0 ]; then
  mapfile -t cases < <(find fixtures -mindepth 2 -maxdepth 2 -type d \( -name 'fail-*' -o -name 'pass-*' \) | sort)
else
  cases=("$@")
fi
for c in "${cases[@]}"; do
  c=${c%/}
  args=()
  if [ -f "$c/args" ]; then read -r -a args < "$c/args"; fi
  set +e
  out=$("$BIN" check --color never "${args[@]}" "$c" 2>/dev/null)
  rc=$?
  set -e
  { [ -n "$out" ] && printf '%s\n' "$out"; printf '# exit: %d\n' "$rc"; } > "$c/expected.txt"
  echo "updated $c/expected.txt (exit $rc)"
done

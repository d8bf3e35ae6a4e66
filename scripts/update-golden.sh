#!/usr/bin/env bash
# Regenerates fixtures/<rule>/<case>/expected.txt for the given case
# directories (or every case when none is given), from the repo root.
# Read the result before committing: golden files are the expectations.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${TOPOLINT_BIN:-build/topolint}
if [ $# -eq 0 ]; then
  mapfile -t cases < <( (find fixtures -mindepth 2 -maxdepth 2 -type d \( -name 'fail-*' -o -name 'pass-*' \); find fixtures/layouts -mindepth 1 -maxdepth 1 -type d) | sort)
else
  cases=("$@")
fi
# A layout tree (fixtures/layouts/<case>): stdout, stderr and exit with
# --verbose, in text and in every format that has an expected-<format>.txt.
layout() {  # <case> <format> <golden>
  local out err rc
  set +e
  out=$("$BIN" check --color never --verbose --format "$2" "$1" 2>"$1.stderr.tmp")
  rc=$?
  set -e
  err=$(cat "$1.stderr.tmp"); rm -f "$1.stderr.tmp"
  if [ "$2" = sarif ]; then  # only the results (the rest is the rule catalogue)
    out=$(printf '%s' "$out" | python3 -c '
import json, sys
results = json.load(sys.stdin)["runs"][0]["results"]
for r in results:
    r.pop("ruleIndex", None)  # moves whenever a rule is added
print(json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False))')
  fi
  { [ -n "$out" ] && printf '%s\n' "$out"; printf '# stderr:\n';
    [ -n "$err" ] && printf '%s\n' "$err"; printf '# exit: %d\n' "$rc"; } > "$3"
  echo "updated $3 (exit $rc)"
}
for c in "${cases[@]}"; do
  c=${c%/}
  if [ "$(basename "$(dirname "$c")")" = layouts ]; then
    layout "$c" text "$c/expected.txt"
    for f in json sarif; do
      if [ -f "$c/expected-$f.txt" ]; then layout "$c" "$f" "$c/expected-$f.txt"; fi
    done
    continue
  fi
  args=()
  if [ -f "$c/args" ]; then read -r -a args < "$c/args"; fi
  set +e
  out=$("$BIN" check --color never "${args[@]}" "$c" 2>/dev/null)
  rc=$?
  set -e
  { [ -n "$out" ] && printf '%s\n' "$out"; printf '# exit: %d\n' "$rc"; } > "$c/expected.txt"
  echo "updated $c/expected.txt (exit $rc)"
done

#!/usr/bin/env bash
# Regenerates the golden files of the given fixture case directories
# (fixtures/<rule>/<fail|pass>-<case>, fixtures/layouts/<case>), or of every
# case when none is given, by running the golden test in its update mode
# (TOPOLINT_UPDATE_GOLDEN=1, tests/golden/golden_test.cc): the files are
# written by the same code that checks them. Build first
# (cmake --build build --target topolint topolint_golden_tests).
# Read the diff before committing: golden files are the expectations.
#   scripts/update-golden.sh [case-dir...]
#   TOPOLINT_BUILD=other-build-dir scripts/update-golden.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${TOPOLINT_BUILD:-build}
TESTS="$BUILD/topolint_golden_tests"
if [ ! -x "$TESTS" ]; then
  echo "update-golden.sh: $TESTS not found: build the topolint and topolint_golden_tests targets first" >&2
  exit 2
fi
# The golden test names a case by its path under fixtures/ with every
# character other than a letter or digit replaced by '_'.
filter=
for c in "$@"; do
  c=${c%/}
  c=${c#./}
  if [ ! -d "$c" ] || [ "${c#fixtures/}" = "$c" ]; then
    echo "update-golden.sh: $c is not a case directory under fixtures/" >&2
    exit 2
  fi
  name=$(printf '%s' "${c#fixtures/}" | tr -c 'A-Za-z0-9' '_')
  filter+="${filter:+:}*.MatchesExpectedOutput/$name"
done
TOPOLINT_UPDATE_GOLDEN=1 "$TESTS" --gtest_filter="${filter:-*}" --gtest_brief=1 | grep '^updated ' || {
  echo "update-golden.sh: no case matched (a case is a fixtures/<rule>/fail-* or pass-* directory, or fixtures/layouts/<case>)" >&2
  exit 1
}

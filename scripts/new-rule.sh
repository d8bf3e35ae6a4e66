#!/usr/bin/env bash
# Scaffolds a new rule (CONTRIBUTING.md, "Adding a rule"):
#   scripts/new-rule.sh [--dry-run] [--root DIR] RULE-ID FAMILY SEVERITY "summary"
# FAMILY is a check family of rules/registry.cc (syntax, neff, hlo, ...);
# SEVERITY is error, warning or note. It writes
#   - the rule's row at the end of the rule table (rules/rule_ids.h),
#   - a stub check, called by the family's Check function, in the family's
#     file (rules/<family>_rules.cc or wherever Check<Family> is defined),
#   - a GoogleTest tests/rules/<family>/<rule_id>_test.cc,
#   - fixtures/<id>/fail-basic and pass-basic (inputs copied from a passing
#     case of the family, expected.txt a TODO),
#   - docs/rules/<id>.md with the standard sections.
# Nothing of it passes until the rule is written: the stub reports nothing,
# so the GoogleTest fails on fail-basic, and both expected.txt are TODOs, so
# the golden test fails until they are regenerated (scripts/update-golden.sh).
# --dry-run writes nothing and prints every file it would write or change;
# --root DIR works on a copy of the tree in DIR (tests/rules/new_rule_script_test.cc uses both).
# Exit status: 0 done, 2 bad arguments (with a message on stderr).
set -euo pipefail
dry=0
root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
  echo "usage: scripts/new-rule.sh [--dry-run] [--root DIR] RULE-ID FAMILY SEVERITY \"summary\"" >&2
  exit 2
}
die() { echo "new-rule.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1; shift ;;
    --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
    --help|-h) usage ;;
    --*) die "unknown option $1" ;;
    *) break ;;
  esac
done
[ $# -eq 4 ] || usage
id=$1 family=$2 severity=$3 summary=$4
cd "$root"
table=rules/rule_ids.h
if [ ! -f "$table" ] || [ ! -f rules/registry.cc ]; then
  die "$root is not a topolint tree (no $table)"
fi

# Arguments.
[[ "$id" =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)+$ ]] ||
  die "rule id '$id' must be lowercase words joined by hyphens, e.g. hlo-foo-bar"
if grep -q "\"$id\"" "$table"; then die "rule id '$id' is already in $table"; fi
case "$severity" in
  error) sev=E ;; warning) sev=W ;; note) sev=N ;;
  *) die "severity must be error, warning or note, not '$severity'" ;;
esac
[ -n "$summary" ] || die "the summary is empty"
[[ "$summary" != *[\"\\]* ]] || die "the summary must not hold \" or \\"
mapfile -t families < <(sed -n 's/^ *{"\([a-z-]*\)", &Check[A-Za-z]*,.*/\1/p' rules/registry.cc)
[[ " ${families[*]} " == *" $family "* ]] ||
  die "unknown family '$family' (one of: ${families[*]})"

camel() {  # hlo-foo-bar -> HloFooBar
  local out='' w
  IFS=- read -r -a words <<< "$1"
  for w in "${words[@]}"; do out+="${w^}"; done
  printf '%s' "$out"
}
Camel=$(camel "$id")
constant="k$Camel"
check="Check$Camel"
family_check="Check$(camel "$family")"
family_file=$(grep -l "^void $family_check(" rules/*.cc | head -1) ||
  die "no rules/*.cc defines $family_check"
snake=${id//-/_}
fam_snake=${family//-/_}
# Rule tests live under tests/rules/<family>/ (tests/README.md).
test_dir=tests/rules/$fam_snake
test_file=$test_dir/${snake}_test.cc
doc=docs/rules/$id.md
fix=fixtures/$id
# A passing case of another rule of the family gives the inputs' shape.
sample=
while read -r other; do
  sample=$(find "fixtures/$other" -mindepth 1 -maxdepth 1 -type d -name 'pass-*' 2>/dev/null | sort | head -1)
  [ -n "$sample" ] && break
done < <(grep -o "X(k[A-Za-z]*, \"[a-z0-9-]*\", [EWN], \"$family\"" "$table" | sed 's/.*, "\([a-z0-9-]*\)", [EWN], .*/\1/')
for f in "$test_file" "$doc" "$fix"; do
  [ ! -e "$f" ] || die "$f exists already"
done

row="  X($constant, \"$id\", $sev, \"$family\",  \\
    \"$summary\")  \\"
stub="namespace {

// $id: $summary.
// TODO(new-rule): report $constant here, e.g.
//   emit.Report($constant, location, fmt::format(...));
// Until then $test_file
// and the golden cases of $fix fail.
void $check(const Unit& /*unit*/, Emitter& /*emit*/) {}

}  // namespace
"
call="  $check(unit, emit);"
test_text="// $id: $summary.
// Scaffolded by scripts/new-rule.sh: fails until $family_file reports
// $id on $fix/fail-basic.
#include <string>

#include \"gtest/gtest.h\"
#include \"tests/common/run_cli.h\"

namespace topolint::testing {
namespace {

TEST(${Camel}Test, ReportsTheFailingCase) {
  CliResult r = RunTopolint({\"check\", \"--color\", \"never\", \"$fix/fail-basic\"});
  EXPECT_NE(r.out.find(\"[$id]\"), std::string::npos) << r.out << r.err;
}

TEST(${Camel}Test, PassesThePassingCase) {
  CliResult r = RunTopolint({\"check\", \"--color\", \"never\", \"$fix/pass-basic\"});
  EXPECT_EQ(r.out.find(\"[$id]\"), std::string::npos) << r.out;
  EXPECT_LT(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace topolint::testing
"
doc_text="# $id

$summary.

Severity: $severity

## What it checks

TODO(new-rule): the exact condition, in terms of the model.

## Why it matters

TODO(new-rule): what goes wrong at compile or run time when this fires.

## Failing example

TODO(new-rule): the input of $fix/fail-basic and the finding.

## Passing example

TODO(new-rule): the input of $fix/pass-basic.

## How to fix

TODO(new-rule): what the user changes.

## Options

None.
"
expected_text="TODO(new-rule): write the case, then run scripts/update-golden.sh %s
"

if [ $dry -eq 1 ]; then
  printf 'would append to the rule table of %s:\n%s\n' "$table" "$row"
  printf 'would add to %s, before %s:\n%s' "$family_file" "$family_check" "$stub"
  printf 'would call it first in %s:\n%s\n' "$family_check" "$call"
  printf 'would write %s:\n%s' "$test_file" "$test_text"
  for c in fail-basic pass-basic; do
    printf 'would write %s/%s/expected.txt:\n' "$fix" "$c"
    # shellcheck disable=SC2059
    printf "$expected_text" "$fix/$c"
    if [ -n "$sample" ]; then
      printf 'would copy the inputs of %s to %s/%s\n' "$sample" "$fix" "$c"
    fi
  done
  printf 'would write %s:\n%s' "$doc" "$doc_text"
  exit 0
fi

# The table row, before the end marker.
marker='  /* new rules above this line */'
grep -qxF "$marker" "$table" || die "$table has no end-of-table marker"
ROW=$row M=$marker awk '$0 == ENVIRON["M"] { print ENVIRON["ROW"] } { print }' "$table" > "$table.tmp"
mv "$table.tmp" "$table"
# The stub before the family's Check function, and its call as that
# function's first statement.
STUB=$stub CALL=$call FN="void $family_check(" awk '
  index($0, ENVIRON["FN"]) == 1 { printf "%s\n", ENVIRON["STUB"]; infn = 1 }
  { print }
  infn && /\{$/ { print ENVIRON["CALL"]; infn = 0 }' "$family_file" > "$family_file.tmp"
mv "$family_file.tmp" "$family_file"
mkdir -p "$test_dir" "$(dirname "$doc")"
printf '%s' "$test_text" > "$test_file"
printf '%s' "$doc_text" > "$doc"
for c in fail-basic pass-basic; do
  mkdir -p "$fix/$c"
  if [ -n "$sample" ]; then
    find "$sample" -mindepth 1 -maxdepth 1 ! -name expected.txt -exec cp -R {} "$fix/$c/" \;
  fi
  # shellcheck disable=SC2059
  printf "$expected_text" "$fix/$c" > "$fix/$c/expected.txt"
done
if [ -f .clang-format ] && command -v clang-format-14 > /dev/null; then
  clang-format-14 -i "$test_file" "$family_file"
fi
cat <<EOF
Scaffolded $id ($family, $severity):
  $table            the table row
  $family_file      $check (a stub: write it)
  $test_file
  $fix/fail-basic, $fix/pass-basic (edit the inputs; expected.txt are TODOs)
  $doc
Next: write $check, make fail-basic fail and pass-basic pass, run
scripts/update-golden.sh $fix/*, fill in $doc, and run the tests
(see CONTRIBUTING.md). Rule ids are a public contract (docs/reference/rules.md).
EOF

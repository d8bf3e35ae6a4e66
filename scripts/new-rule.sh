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
case "$summary" in *[\"\\\|]*) die "the summary must not hold \", \\ or |" ;; esac
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
snake=${id//-/_}
fam_snake=${family//-/_}

# Where the family's rules run: the file with the family's stub comment.
stub_marker="// new-rule.sh($family) stub:"
call_marker="// new-rule.sh($family): "
mapfile -t stub_files < <(grep -lF -- "$stub_marker" rules/*.cc || true)
[ "${#stub_files[@]}" -eq 1 ] ||
  die "family '$family' needs exactly one rules/*.cc with a '$stub_marker' comment, found ${#stub_files[@]}"
family_file=${stub_files[0]}
grep -qF -- "$call_marker" "$family_file" ||
  die "$family_file has no '$call_marker' comment: nothing would call the rule"
# The stub's shape: the comment's lines indented by three spaces.
template=$(M=$stub_marker awk '
  index($0, ENVIRON["M"]) == 1 { on = 1; next }
  on && /^\/\/   / { seen = 1; print substr($0, 6); next }
  on && seen { exit }' "$family_file")
[ -n "$template" ] || die "the '$stub_marker' comment of $family_file shows no stub"
subst() { sed -e "s/@Rule@/$Camel/g" -e "s/@rule@/$snake/g"; }
# Each declaration `name(params);` becomes a definition whose parameter
# names are commented out (-Wunused-parameter) and whose body is a TODO.
stub_code=$(printf '%s\n' "$template" | subst | K=$constant perl -0777 -pe '
  s{\(([^()]*)\);}{
    my @p = split /,/, $1;
    s/(\w+)(\s*)$/\/*$1*\/$2/ for @p;
    "(" . join(",", @p) . ") {\n// TODO(new-rule): report $ENV{K} here.\n}"
  }ge')
test_dir=tests/rules/$fam_snake
test_file=$test_dir/${snake}_test.cc
doc=docs/rules/$id.md
fix=fixtures/$id
ref=docs/reference/rules.md
changelog=CHANGELOG.md
# A case of another rule of the family gives the inputs' shape: a passing
# one if it can, and one with an HLO module for a family whose stub is
# called per collective (Op).
needs_hlo=0
[[ "$template" != *"Op("* ]] || needs_hlo=1
has_hlo() { [ -n "$(find "$1" \( -name '*.hlo' -o -name '*.hlo.txt' \) -print -quit)" ]; }
sample=
mapfile -t others < <(grep -o "X(k[A-Za-z0-9]*, \"[a-z0-9-]*\", [EWN], \"$family\"" "$table" |
  sed 's/.*, "\([a-z0-9-]*\)", [EWN], .*/\1/')
for kind in pass fail; do
  for other in "${others[@]}"; do
    while read -r c; do
      [ -n "$c" ] || continue
      if [ $needs_hlo -eq 0 ] || has_hlo "$c"; then sample=$c; break 3; fi
    done < <(find "fixtures/$other" -mindepth 1 -maxdepth 1 -type d -name "$kind-*" 2>/dev/null | sort)
  done
done
for f in "$test_file" "$doc" "$fix"; do
  [ ! -e "$f" ] || die "$f exists already"
done
for f in "$ref" "$changelog"; do
  [ -f "$f" ] || die "$root has no $f"
done

row="  X($constant, \"$id\", $sev, \"$family\",  \\
    \"$summary\")  \\"
ref_row="| [\`$id\`](../rules/$id.md) | $severity | $summary |"
change="- New rule \`$id\` ($severity, family \`$family\`): $summary."
stub="// $id: $summary.
// TODO(new-rule): report $constant below. Until then
// $test_file and the golden cases of
// $fix fail.
$stub_code
"
calls=$(grep -F -- "$call_marker" "$family_file" |
  sed 's|^\( *\)// new-rule.sh([a-z-]*): \(.*\)$|\1\2|' | subst)
test_text="// $id: $summary.
// Scaffolded by scripts/new-rule.sh: fails until $family_file reports
// $id on $fix/fail-basic.
#include <sstream>
#include <string>
#include <vector>

#include \"gtest/gtest.h\"
#include \"tests/common/run_cli.h\"

namespace topolint::testing {
namespace {

// \`topolint check\` of a case, with its \`args\` file as the golden test
// reads it.
CliResult Check(const std::string& dir) {
  std::vector<std::string> args = {\"check\", \"--color\", \"never\"};
  std::istringstream in(ReadAll(std::string(TOPOLINT_SOURCE_DIR) + \"/\" + dir + \"/args\"));
  for (std::string w; in >> w;) args.push_back(w);
  args.push_back(dir);
  return RunTopolint(args);
}

TEST(${Camel}Test, ReportsTheFailingCase) {
  CliResult r = Check(\"$fix/fail-basic\");
  EXPECT_NE(r.out.find(\"[$id]\"), std::string::npos) << r.out << r.err;
}

TEST(${Camel}Test, PassesThePassingCase) {
  CliResult r = Check(\"$fix/pass-basic\");
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
  printf 'would append to the table of %s:\n%s\n' "$ref" "$ref_row"
  printf 'would add under Unreleased, Added, of %s:\n%s\n' "$changelog" "$change"
  printf 'would add to %s, where its "%s" comment is:\n%s' "$family_file" "$stub_marker" "$stub"
  printf 'would add to %s, where its "%s" comments are:\n%s\n' "$family_file" "$call_marker" "$calls"
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
grep -q '^| \[`' "$ref" || die "$ref has no rule table"
ROW=$row M=$marker awk '$0 == ENVIRON["M"] { print ENVIRON["ROW"] } { print }' "$table" > "$table.tmp"
mv "$table.tmp" "$table"
# The reference row after the table's last row (tests/repo/docs_links_test.cc
# holds the table equal to the rule table).
last=$(grep -n '^| \[`' "$ref" | tail -1 | cut -d: -f1)
ROW=$ref_row N=$last awk '{ print } NR == ENVIRON["N"] { print ENVIRON["ROW"] }' "$ref" > "$ref.tmp"
mv "$ref.tmp" "$ref"
# The CHANGELOG line at the end of Unreleased's "### Added" list (the list
# is started when Unreleased has none).
LINE=$change awk '
  function flush() { if (!done) { print ENVIRON["LINE"]; done = 1 } }
  /^## / { if (inrel && !done) { if (!added) print "### Added"; flush(); print "" } inrel = ($0 ~ /^## \[Unreleased\]/); added = 0 }
  inrel && /^### / { if (added && !done) { flush(); print "" } added = ($0 == "### Added"); print; next }
  inrel && added && /^$/ && seen { flush() }
  inrel && added && /^- / { seen = 1 }
  { print }
  END { if (inrel && !done) { if (!added) print "### Added"; flush() } }' "$changelog" > "$changelog.tmp"
mv "$changelog.tmp" "$changelog"
# The stub above the stub comment, each call above its comment.
STUB=$stub SM=$stub_marker CM=$call_marker C=$Camel S=$snake awk '
  index($0, ENVIRON["SM"]) == 1 { printf "%s\n", ENVIRON["STUB"] }
  (at = index($0, ENVIRON["CM"])) > 0 && substr($0, 1, at - 1) ~ /^ *$/ {
    line = substr($0, 1, at - 1) substr($0, at + length(ENVIRON["CM"]))
    gsub(/@Rule@/, ENVIRON["C"], line); gsub(/@rule@/, ENVIRON["S"], line)
    print line
  }
  { print }' "$family_file" > "$family_file.tmp"
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
cat <<MSG
Scaffolded $id ($family, $severity):
  $table            the table row
  $ref    its row
  $changelog             a line under Unreleased
  $family_file      $Camel (a stub: write it), called where the family's rules run
  $test_file
  $fix/fail-basic, $fix/pass-basic (inputs from ${sample:-nothing}; expected.txt are TODOs)
  $doc
Next: write $Camel, make fail-basic fail and pass-basic pass, run
scripts/update-golden.sh $fix/*, fill in $doc, and run the tests
(see CONTRIBUTING.md). Rule ids are a public contract (docs/reference/rules.md).
MSG

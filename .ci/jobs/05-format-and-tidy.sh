#!/usr/bin/env bash
# CI job: every C++ file of checker/ rules/ include/ tests/ is formatted
# (clang-format-14, .clang-format), and clang-tidy-14 (.clang-tidy) is clean
# on every .cc of checker/ and rules/ (the code that ships) that the main
# build compiles (read from build/compile_commands.json,
# CMAKE_EXPORT_COMPILE_COMMANDS), one job per CPU (at most 4). Headers are
# checked through the sources that include them (HeaderFilterRegex in
# .clang-tidy).
#
# TIDY_SCOPE=all adds the tests (tests/*.cc): 308 files, ~15 CPU-minutes
# (~3 s a file, half of it parsing the gtest / Abseil / fmt / JSON headers,
# half matching over that AST), which took CI past its 30 minutes; the
# shipped code alone is about a third of that. TIDY_JOBS sets the
# parallelism.
set -euo pipefail
cd "$(dirname "$0")/../.."

git ls-files -z -- 'checker/*.cc' 'checker/*.h' 'rules/*.cc' 'rules/*.h' \
    'include/*.h' 'tests/*.cc' 'tests/*.h' 'tests/*.c' |
  xargs -0 -r clang-format-14 --dry-run --Werror
echo "clang-format: clean"

# One job per CPU, at most 4 (clang-tidy takes ~1 GiB a job on test files).
jobs_for_ci() { local n; n=$(nproc); echo $((n < 4 ? n : 4)); }

db=build/compile_commands.json
if [ ! -f "$db" ]; then
  echo "no $db: configure the main build first" >&2
  exit 1
fi
case "${TIDY_SCOPE:-shipped}" in
  shipped) dirs="checker rules" ;;
  all) dirs="checker rules tests" ;;
  *) echo "TIDY_SCOPE must be shipped or all, not '$TIDY_SCOPE'" >&2; exit 2 ;;
esac
# The compiled sources under those directories, from the compile database
# (generated sources in build/ and the fuzz targets are left out).
mapfile -t files < <(python3 - "$db" "$PWD" $dirs <<'PY'
import json, os, sys
db, root, dirs = sys.argv[1], sys.argv[2], set(sys.argv[3:])
seen = set()
for entry in json.load(open(db)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    if rel.endswith(".cc") and rel.split(os.sep)[0] in dirs:
        seen.add(rel)
print("\n".join(sorted(seen)))
PY
)
if [ ${#files[@]} -eq 0 ]; then
  echo "clang-tidy: $db lists no source of $dirs" >&2
  exit 1
fi
echo "clang-tidy on ${#files[@]} compiled file(s) of $dirs"
# clang's "N warnings generated." counts the suppressed warnings of system
# headers: left out so that only real findings are printed. xargs exits
# non-zero (and the job fails, pipefail) when any file has a finding.
printf '%s\0' "${files[@]}" |
  xargs -0 -n 4 -P "${TIDY_JOBS:-$(jobs_for_ci)}" clang-tidy-14 -p build --quiet 2>&1 |
  { grep -v '^[0-9]* warnings\? generated\.$' || true; }
echo "clang-tidy: clean"

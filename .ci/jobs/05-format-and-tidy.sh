#!/usr/bin/env bash
# CI job: every C++ file of checker/ rules/ include/ tests/ is formatted
# (clang-format-14, .clang-format), and clang-tidy-14 (.clang-tidy) is clean
# on the C++ sources the last commit changed, with the compile commands of
# the main build (CMAKE_EXPORT_COMPILE_COMMANDS). Takes seconds for a small
# commit; headers are checked through the sources that include them.
set -euo pipefail
cd "$(dirname "$0")/../.."

git ls-files -z -- 'checker/*.cc' 'checker/*.h' 'rules/*.cc' 'rules/*.h' \
    'include/*.h' 'tests/*.cc' 'tests/*.h' 'tests/*.c' |
  xargs -0 -r clang-format-14 --dry-run --Werror
echo "clang-format: clean"

db=build/compile_commands.json
if [ ! -f "$db" ]; then
  echo "no $db: configure the main build first" >&2
  exit 1
fi
if ! git rev-parse -q --verify HEAD~1 >/dev/null; then
  echo "clang-tidy: no parent commit, nothing to compare"
  exit 0
fi
# Changed .cc files that the build compiles (the compile database knows them).
files=()
while IFS= read -r f; do
  case "$f" in *.cc) ;; *) continue ;; esac
  [ -f "$f" ] || continue
  grep -q "\"file\": \"$PWD/$f\"" "$db" && files+=("$f")
done < <(git diff --name-only HEAD~1 HEAD)
if [ ${#files[@]} -eq 0 ]; then
  echo "clang-tidy: no compiled C++ source changed by the last commit"
  exit 0
fi
echo "clang-tidy on ${#files[@]} file(s): ${files[*]}"
printf '%s\0' "${files[@]}" |
  xargs -0 -n 4 -P 2 clang-tidy-14 -p build --quiet
echo "clang-tidy: clean"

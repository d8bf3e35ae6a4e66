#!/usr/bin/env bash
# Formats every C++ file of the tree with clang-format-14 and the repo's
# .clang-format (Google base). `scripts/format.sh --check` changes nothing
# and fails when a file is not formatted (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(-i)
if [ "${1:-}" = --check ]; then mode=(--dry-run --Werror); fi
git ls-files -z -- 'checker/*.cc' 'checker/*.h' 'rules/*.cc' 'rules/*.h' \
    'include/*.h' 'tests/*.cc' 'tests/*.h' 'tests/*.c' 'fuzz/*.cc' 'fuzz/*.h' \
    'bench/*.cc' 'bench/*.h' |
  xargs -0 -r clang-format-14 "${mode[@]}"

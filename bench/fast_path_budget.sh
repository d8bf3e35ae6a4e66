#!/usr/bin/env bash
# What each text fast path wins, against the budget of CONTRIBUTING.md
# ("Fast paths": >= 3% of `topolint check --quiet -j 1` on the sparse
# module or on a real-shaped one). Figures: bench/fast-path-budget.md.
#
#   bash bench/fast_path_budget.sh BUILD_DIR UNIT_DIR...
#
# BUILD_DIR holds topolint and topolint_fast_path_off (bench/fast_path_off.cc;
# `cmake --build BUILD_DIR --target topolint topolint_fast_path_off`). For
# each unit (a directory with model.hlo, as bench/gen_hlo.py and
# bench/gen_jax.py write), RUNS rounds (default 7), each of: `topolint
# check --quiet -j 1 UNIT` with every fast path, the parse alone with every
# fast path, and the parse alone with each fast path off in turn (the order
# rotated by a step each round). CPU time is perf's task-clock. Prints, per
# fast path, the median parse time with it off and its win: (off - all on)
# over the median of the whole check, in percent. Rules and loading cost the
# same either way, so the difference of the parses is that of the checks.
#
# With IR=1, one run each under callgrind instead, counting instructions
# (deterministic: no noise from a shared machine; the same win, in
# instructions, over the whole check's). Needs perf, or valgrind with IR=1.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: fast_path_budget.sh BUILD_DIR UNIT_DIR..." >&2
  exit 2
fi
RUNS=${RUNS:-7}
unit=ms
if [ "${IR:-0}" = 1 ]; then RUNS=1 unit=M; fi
build=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t names < <(sed -n 's/^ *X(\([A-Za-z]*\)).*/\1/p' \
  "$root/checker/hlo/text/fast_path_switch.h")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu NAME CMD...: appends CMD's task-clock in ms to $work/NAME (with
# IR=1: its instructions, in millions).
cpu() {
  local name=$1
  shift
  if [ "${IR:-0}" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
      2>&1 >"$work/.out" | awk '/Collected :/ {printf "%.3f\n", $4 / 1e6}' \
      >>"$work/$name"
    return
  fi
  perf stat -x, -e task-clock -o "$work/.perf" "$@" >"$work/.out" || true
  awk -F, '/task-clock/ {printf "%.3f\n", $1}' "$work/.perf" >>"$work/$name"
}
median() { sort -g "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

for dir in "$@"; do
  hlo=$dir/model.hlo
  cat "$hlo" >/dev/null  # warm the page cache
  rm -f "$work"/*
  for ((i = 0; i < RUNS; ++i)); do
    cpu check "$build/topolint" check --quiet -j 1 "$dir"
    cpu none "$build/topolint_fast_path_off" none "$hlo"
    n=${#names[@]}
    for ((k = 0; k < n; ++k)); do
      f=${names[$(((k + i) % n))]}
      cpu "$f" "$build/topolint_fast_path_off" "$f" "$hlo"
    done
  done
  check=$(median "$work/check")
  none=$(median "$work/none")
  echo "== $dir: check ${check} $unit, parse ${none} $unit (medians of $RUNS)"
  for f in "${names[@]}"; do
    off=$(median "$work/$f")
    awk -v f="$f" -v o="$off" -v a="$none" -v c="$check" -v u="$unit" \
      'BEGIN{printf "%-24s %10.1f %s %+7.1f%%\n", f, o, u, 100 * (o - a) / c}'
  done
done

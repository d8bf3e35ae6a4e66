#!/usr/bin/env bash
# Compares topolint binaries on one unit (model.hlo, else
# model.hlo_module.pb) against `grep -c replica_groups`,
# alternating grep and each binary RUNS times (page cache warm), and prints
# the medians of wall and CPU (user + sys) time, their ratios to grep's, and
# the largest peak RSS. For before/after measurements on a shared machine,
# where only alternating runs are comparable:
#
#   python3 bench/gen_hlo.py --out /tmp/d300 --dense --size-mb 300
#   RUNS=9 bash bench/compare.sh /tmp/d300 /tmp/topolint.before build/topolint
#
# Each line also gives the spread (lowest-highest) of the runs. With
# PERF=1, CPU time is perf's task-clock (sub-millisecond; `time` has 10 ms,
# too coarse for a 5% budget) and peak RSS is left out.
#
# With RESULT_FILE=F, one line a binary is written to F: "wall_s cpu_s
# peak_kb" (medians; the largest peak), in the order of the arguments
# (bench/run.sh's OLD= section reads it).
#
# Needs /usr/bin/time (package `time`), and perf with PERF=1.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: compare.sh UNIT_DIR BINARY..." >&2
  exit 2
fi
RUNS=${RUNS:-9}
dir=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The unit's module: text, else binary (bench/gen_proto.py).
model=$dir/model.hlo
[ -f "$model" ] || model=$dir/model.hlo_module.pb
cat "$model" >/dev/null  # warm the page cache
# run NAME CMD...: appends "wall user sys maxrss_kb" to $work/NAME.
run() {
  local name=$1 t0 t1
  shift
  t0=$EPOCHREALTIME
  if [ "${PERF:-0}" = 1 ]; then
    perf stat -x, -e task-clock -o "$work/.perf" "$@" >"$work/.out" || true
    # task-clock in ms as "user sys maxrss": user holds it all.
    echo "$(awk -F, '/task-clock/ {printf "%.4f 0 0", $1 / 1000}' "$work/.perf")" \
      >"$work/.time"
  else
    /usr/bin/time -f "%U %S %M" -o "$work/.time" "$@" >"$work/.out" || true
  fi
  t1=$EPOCHREALTIME
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b-a}') $(tail -n 1 "$work/.time")" \
    >>"$work/$name"
}
median() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
# spread: "lowest-highest" of a column of numbers.
spread() { sort -g | awk 'NR==1{lo=$1} {hi=$1} END{printf "%s-%s", lo, hi}'; }

for ((i = 0; i < RUNS; ++i)); do
  run grep grep -c replica_groups "$model"
  for ((b = 1; b <= $#; ++b)); do
    run "bin$b" "${!b}" check --quiet -j 1 "$dir"
  done
done

gw=$(awk '{print $1}' "$work/grep" | median)
gc=$(awk '{print $2 + $3}' "$work/grep" | median)
echo "grep -c: wall ${gw} s, cpu ${gc} s ($RUNS runs, $(stat -c %s "$model") bytes)"
if [ -n "${RESULT_FILE:-}" ]; then : >"$RESULT_FILE"; fi
for ((b = 1; b <= $#; ++b)); do
  w=$(awk '{print $1}' "$work/bin$b" | median)
  c=$(awk '{print $2 + $3}' "$work/bin$b" | median)
  m=$(awk '{print $4}' "$work/bin$b" | sort -n | tail -n 1)
  printf '%s: wall %s s (%.2fx; %s), cpu %s s (%.2fx; %s), peak %.1f MiB\n' "${!b}" \
    "$w" "$(awk -v a="$w" -v g="$gw" 'BEGIN{print a / g}')" \
    "$(awk '{print $1}' "$work/bin$b" | spread)" \
    "$c" "$(awk -v a="$c" -v g="$gc" 'BEGIN{print (g > 0 ? a / g : 0)}')" \
    "$(awk '{print $2 + $3}' "$work/bin$b" | spread)" \
    "$(awk -v k="$m" 'BEGIN{print k / 1024}')"
  if [ -n "${RESULT_FILE:-}" ]; then echo "$w $c $m" >>"$RESULT_FILE"; fi
done

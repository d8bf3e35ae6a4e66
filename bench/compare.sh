#!/usr/bin/env bash
# Compares topolint binaries on one unit against `grep -c replica_groups`,
# alternating grep and each binary RUNS times (page cache warm), and prints
# the medians of wall and CPU (user + sys) time, their ratios to grep's, and
# the largest peak RSS. For before/after measurements on a shared machine,
# where only alternating runs are comparable:
#
#   python3 bench/gen_hlo.py --out /tmp/d300 --dense --size-mb 300
#   RUNS=9 bash bench/compare.sh /tmp/d300 /tmp/topolint.before build/topolint
#
# Needs /usr/bin/time (package `time`).
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

cat "$dir/model.hlo" >/dev/null  # warm the page cache
# run NAME CMD...: appends "wall user sys maxrss_kb" to $work/NAME.
run() {
  local name=$1 t0 t1
  shift
  t0=$EPOCHREALTIME
  /usr/bin/time -f "%U %S %M" -o "$work/.time" "$@" >"$work/.out" || true
  t1=$EPOCHREALTIME
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b-a}') $(tail -n 1 "$work/.time")" \
    >>"$work/$name"
}
median() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

for ((i = 0; i < RUNS; ++i)); do
  run grep grep -c replica_groups "$dir/model.hlo"
  for ((b = 1; b <= $#; ++b)); do
    run "bin$b" "${!b}" check --quiet -j 1 "$dir"
  done
done

gw=$(awk '{print $1}' "$work/grep" | median)
gc=$(awk '{print $2 + $3}' "$work/grep" | median)
echo "grep -c: wall ${gw} s, cpu ${gc} s ($RUNS runs, $(stat -c %s "$dir/model.hlo") bytes)"
for ((b = 1; b <= $#; ++b)); do
  w=$(awk '{print $1}' "$work/bin$b" | median)
  c=$(awk '{print $2 + $3}' "$work/bin$b" | median)
  m=$(awk '{print $4}' "$work/bin$b" | sort -n | tail -n 1)
  printf '%s: wall %s s (%.2fx), cpu %s s (%.2fx), peak %.1f MiB\n' "${!b}" \
    "$w" "$(awk -v a="$w" -v g="$gw" 'BEGIN{print a / g}')" \
    "$c" "$(awk -v a="$c" -v g="$gc" 'BEGIN{print (g > 0 ? a / g : 0)}')" \
    "$(awk -v k="$m" 'BEGIN{print k / 1024}')"
done

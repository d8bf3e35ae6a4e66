#!/usr/bin/env bash
# Splits the peak RSS of `topolint check UNIT_DIR` into its anonymous part
# (heap, stacks: what the program itself holds) and its file-backed part
# (the executable's pages and the mapped input's window), for each binary,
# alternating RUNS times, and prints the median and range of each.
#
# Why: /usr/bin/time's %M (compare.sh's "peak RSS") is the sum, and its
# file-backed part moves by about 1 MiB from run to run with the kernel's
# readahead over the mapped input, more than a before/after change in what
# the program holds. The anonymous peak is steady to a few KiB.
#
#   RUNS=7 bash bench/rss_split.sh /tmp/d300 /tmp/topolint.before build/topolint
#
# The peaks are sampled from /proc/PID/status every 2 ms, so a peak shorter
# than that can be missed; the figures are lower bounds, comparable between
# binaries run the same way.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: rss_split.sh UNIT_DIR BINARY..." >&2
  exit 2
fi
RUNS=${RUNS:-7}
dir=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# sample BIN: appends "anon_kb file_kb" (the largest seen) to $work/<n>.
sample() {
  "$1" check "$dir" > /dev/null 2>&1 &
  local pid=$! anon=0 file=0 a f
  while kill -0 "$pid" 2> /dev/null; do
    read -r a f < <(awk '/^RssAnon/{a=$2} /^RssFile/{f=$2} END{print a+0, f+0}' \
      "/proc/$pid/status" 2> /dev/null || echo "0 0")
    [ "$a" -gt "$anon" ] && anon=$a
    [ "$f" -gt "$file" ] && file=$f
    sleep 0.002
  done
  wait "$pid" || true
  echo "$anon $file" >> "$2"
}

# stats COLUMN FILE: "median (lowest-highest)" in MiB.
stats() {
  awk -v c="$1" '{print $c}' "$2" | sort -g | awk '
    {a[NR] = $1}
    END {printf "%.2f (%.2f-%.2f)", a[int((NR + 1) / 2)] / 1024, a[1] / 1024, a[NR] / 1024}'
}

for ((i = 0; i < RUNS; i++)); do
  b=0
  for bin in "$@"; do
    sample "$bin" "$work/$b"
    b=$((b + 1))
  done
done

printf '%-40s %-22s %s\n' "binary" "anon MiB" "file-backed MiB"
b=0
for bin in "$@"; do
  printf '%-40s %-22s %s\n' "$bin" "$(stats 1 "$work/$b")" "$(stats 2 "$work/$b")"
  b=$((b + 1))
done

#!/usr/bin/env bash
# Binary modules: `topolint check` on the collective-dense module as a binary
# HloModuleProto, against `grep -c replica_groups` on the same .pb, and on
# its gzip-compressed copy against `gzip -dc FILE > /dev/null` (issue 28).
#
#   bash bench/binary.sh BIN OUTDIR     # bench/run.sh calls it this way
#
# Writes the module of `bench/gen_hlo.py --dense --size-mb DENSE_MB`, converts
# it with bench/gen_proto.py (real field numbers; replica groups alternate
# between the legacy `replica_groups` field 49 and `collective_device_list`
# 87) into OUTDIR/pb/model.hlo_module.pb and OUTDIR/gz/model.hlo_module.pb.gz
# (each unit with the text's def.json and vllm_config.json), checks that both
# are clean, then with the page cache warm runs, alternately, RUNS times:
# topolint -j 1 on the .pb, grep -c on the .pb, topolint -j 1 on the .pb.gz,
# gzip -dc of the .pb.gz, and with FLOOR=PATH (topolint_floor, bench/floor.cc)
# the walk of the .pb alone. Prints the medians of wall and CPU time
# (user+sys, /usr/bin/time), the ratios, topolint's peak RSS and three
# PASS/FAIL lines (exit 1 on FAIL).
# Environment: DENSE_MB (default 300), RUNS (default 11), KEEP=1 keeps
# OUTDIR; VERDICT=0 leaves out the PASS/FAIL lines (bench/run.sh prints them
# among its targets) and RESULT_FILE=F writes "pb_ratio pb_peak_kb gz_ratio
# floor_ratio" to F (floor_ratio is ? without FLOOR). Needs python3, gzip
# and /usr/bin/time (package `time`).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bash bench/binary.sh BIN OUTDIR" >&2
  exit 2
fi
BIN=$1
OUT=$2
DENSE_MB=${DENSE_MB:-300}
RUNS=${RUNS:-11}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
  echo "binary.sh: $TIME not found (install the 'time' package)" >&2
  exit 2
fi

cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
}
trap cleanup EXIT

rm -rf "$OUT"
mkdir -p "$OUT/pb" "$OUT/gz"
python3 "$ROOT/bench/gen_hlo.py" --out "$OUT/text" --dense --size-mb "$DENSE_MB"
PB=$OUT/pb/model.hlo_module.pb
GZ=$OUT/gz/model.hlo_module.pb.gz
python3 "$ROOT/bench/gen_proto.py" "$OUT/text/model.hlo" "$PB" --gzip "$GZ"
for d in pb gz; do
  cp "$OUT/text/def.json" "$OUT/text/vllm_config.json" "$OUT/$d/"
done
rm -rf "$OUT/text"

. "$ROOT/bench/lib.sh"  # measure, require_clean_check
for d in pb gz; do require_clean_check "$BIN" "$OUT/$d"; done
median_of() {
  sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'
}
wall() { awk '{print $1}' "$OUT/$1.times" | median_of; }
cpu() { awk '{printf "%.3f\n", $2+$3}' "$OUT/$1.times" | median_of; }
peak_kb() { awk 'BEGIN{m=0} $4>m{m=$4} END{print m}' "$OUT/$1.times"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "inf" }'; }
mib() { awk -v k="$1" 'BEGIN{printf "%.1f", k/1024}'; }

cat "$PB" "$GZ" >/dev/null # warm the page cache
echo "== binary modules (dense ${DENSE_MB} MiB text as HloModuleProto), $RUNS alternating runs"
echo "  .pb $(stat -c %s "$PB") bytes, .pb.gz $(stat -c %s "$GZ") bytes"
for ((i = 0; i < RUNS; ++i)); do
  measure tl_pb "$BIN" check --quiet -j 1 "$OUT/pb"
  measure grep_pb grep -c replica_groups "$PB"
  measure tl_gz "$BIN" check --quiet -j 1 "$OUT/gz"
  # shellcheck disable=SC2016 # $1 is expanded by the inner sh
  measure gunzip sh -c 'gzip -dc "$1" > /dev/null' sh "$GZ"
  if [ -n "${FLOOR:-}" ]; then measure floor_pb "$FLOOR" pb "$PB"; fi
done
printf '  %-8s %-28s %12s %12s %8s %9s %9s\n' input baseline "base wall s" \
  "tl wall s" ratio "cpu ratio" "tl MiB"
PB_RATIO=$(div "$(wall tl_pb)" "$(wall grep_pb)")
GZ_RATIO=$(div "$(wall tl_gz)" "$(wall gunzip)")
printf '  %-8s %-28s %12s %12s %8s %9s %9s\n' .pb "grep -c replica_groups" \
  "$(wall grep_pb)" "$(wall tl_pb)" "$PB_RATIO" \
  "$(div "$(cpu tl_pb)" "$(cpu grep_pb)")" "$(mib "$(peak_kb tl_pb)")"
printf '  %-8s %-28s %12s %12s %8s %9s %9s\n' .pb.gz "gzip -dc > /dev/null" \
  "$(wall gunzip)" "$(wall tl_gz)" "$GZ_RATIO" \
  "$(div "$(cpu tl_gz)" "$(cpu gunzip)")" "$(mib "$(peak_kb tl_gz)")"
FLOOR_RATIO="?"
if [ -n "${FLOOR:-}" ]; then
  FLOOR_RATIO=$(div "$(wall floor_pb)" "$(wall grep_pb)")
  printf '  %-8s %-28s %12s %12s %8s   (every instruction walked field by field, nothing decoded: bench/floor.cc)\n' \
    floor "grep -c replica_groups" "$(wall grep_pb)" "$(wall floor_pb)" \
    "$FLOOR_RATIO"
fi
PB_PEAK=$(peak_kb tl_pb)
if [ -n "${RESULT_FILE:-}" ]; then
  echo "$PB_RATIO $PB_PEAK $GZ_RATIO $FLOOR_RATIO" >"$RESULT_FILE"
fi
if [ "${VERDICT:-1}" = 1 ]; then
  fail=0
  verdict() { # verdict OK? TEXT
    if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; fail=1; fi
  }
  verdict "$(awk -v r="$PB_RATIO" 'BEGIN{print (r <= 1.3)}')" \
    "time binary .pb: ${PB_RATIO}x grep -c (target <= 1.3, issue 28)"
  verdict "$(awk -v k="$PB_PEAK" 'BEGIN{print (k <= 16384)}')" \
    "peak RSS binary .pb: $(mib "$PB_PEAK") MiB (target <= 16, issue 28)"
  verdict "$(awk -v r="$GZ_RATIO" 'BEGIN{print (r <= 1.3)}')" \
    "time binary .pb.gz: ${GZ_RATIO}x gzip -dc (target <= 1.3, issue 28)"
  exit "$fail"
fi

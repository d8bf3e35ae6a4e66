#!/usr/bin/env bash
# Many small units: `topolint check -j 2` against `-j 1` over a Neuron
# compile cache of UNITS entries of ~34 KB each (docs/reference/quality.md: >= 1.7x faster).
#
#   bash bench/many_units.sh BIN OUTDIR     # run.sh calls it this way
#
# Writes OUTDIR/neuron-compile-cache/neuronxcc-*/MODULE_<n>+d41d8cd9/ entries
# (model.hlo, HLO text from bench/gen_hlo.py --layers 1, standing in for
# model.hlo_module.pb; def.json, compile_flags.json, model.done) under one vllm_config.json that every entry inherits, checks
# that the run is clean, then runs -j 1 and -j 2 alternately RUNS times and
# prints the medians of wall and CPU time (user+sys, /usr/bin/time), the
# ratio and one PASS/FAIL line (exit 1 on FAIL). CPU time says why a ratio
# falls short: -j 2 needing more CPU than -j 1 for the same work means the
# two threads slowed each other (a loaded or shared machine), the same CPU
# with a poor ratio means a serial part. Two -j 1 runs started together
# show what the machine itself allows: the ceiling for the ratio.
# Environment: UNITS (default 2000), RUNS (default 7), KEEP=1 keeps OUTDIR;
# VERDICT=0 leaves out the PASS/FAIL line (bench/run.sh prints it among its
# targets) and RATIO_FILE=F writes the ratio to F.
set -euo pipefail
BIN=$1
OUT=$2
UNITS=${UNITS:-2000}
RUNS=${RUNS:-7}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$OUT"
mkdir -p "$OUT"
python3 "$ROOT/bench/gen_hlo.py" --out "$OUT/one" --layers 1 >/dev/null
CACHE=$OUT/neuron-compile-cache
VER=$CACHE/neuronxcc-2.21.18209.0+043b1bf7
mkdir -p "$VER"
cp "$OUT/one/vllm_config.json" "$CACHE/"
# One process writes the entries (a cp per file takes longer than the runs).
python3 - "$OUT/one" "$VER" "$UNITS" <<'PY'
import os, shutil, sys
one, ver, units = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(units):
    e = os.path.join(ver, "MODULE_%d+d41d8cd9" % (1000000 + i))
    os.mkdir(e)
    for name in ("model.hlo", "def.json"):
        shutil.copyfile(os.path.join(one, name), os.path.join(e, name))
    with open(os.path.join(e, "compile_flags.json"), "w") as f:
        f.write('["--target=trn1", "--lnc=1"]\n')
    open(os.path.join(e, "model.done"), "w").close()
PY
rm -rf "$OUT/one"

summary=$("$BIN" check -j 2 "$CACHE" 2>&1 >/dev/null) || {
  echo "many_units.sh: topolint reports findings or fails on $CACHE:" >&2
  "$BIN" check "$CACHE" 2>&1 | tail -5 >&2
  exit 2
}
case "$summary" in
  *"(0 files checked"* | *"no HLO, def.json"*)
    echo "${0##*/}: topolint read no file of $CACHE, nothing would be timed: $summary" >&2
    exit 2
    ;;
esac
echo "== many units: $UNITS compile-cache entries of $(stat -c %s "$VER/MODULE_1000000+d41d8cd9/model.hlo") bytes ($summary)"
cat "$CACHE"/*/*/* >/dev/null  # warm the page cache

ms() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f\n", (b-a)*1000}'; }
median() { sort -g "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
rm -f "$OUT"/j[12].ms "$OUT"/j[12].cpu "$OUT"/pair.ms
for ((i = 0; i < RUNS; ++i)); do
  for j in 1 2; do
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S' -o "$OUT/cpu" \
      "$BIN" check --quiet -j "$j" "$CACHE" >/dev/null
    t1=$EPOCHREALTIME
    ms "$t0" "$t1" >>"$OUT/j$j.ms"
    awk '{printf "%.0f\n", ($1 + $2) * 1000}' "$OUT/cpu" >>"$OUT/j$j.cpu"
  done
  # The machine's own cost of two busy CPUs: two independent -j 1 runs at
  # once (no shared memory, no lock between them). On a VM whose CPUs slow
  # each other (shared caches, frequency), each takes longer than alone,
  # and -j 2 can be at most 2 / that factor faster than -j 1.
  t0=$EPOCHREALTIME
  "$BIN" check --quiet -j 1 "$CACHE" >/dev/null &
  "$BIN" check --quiet -j 1 "$CACHE" >/dev/null
  wait
  t1=$EPOCHREALTIME
  ms "$t0" "$t1" >>"$OUT/pair.ms"
done
j1=$(median "$OUT/j1.ms")
j2=$(median "$OUT/j2.ms")
c1=$(median "$OUT/j1.cpu")
c2=$(median "$OUT/j2.cpu")
ratio=$(awk -v a="$j1" -v b="$j2" 'BEGIN{printf "%.2f", a/b}')
echo "  median wall -j 1: ${j1} ms, -j 2: ${j2} ms ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
echo "  median CPU (user+sys) -j 1: ${c1} ms, -j 2: ${c2} ms (x$(awk -v a="$c1" -v b="$c2" 'BEGIN{printf "%.2f", b/a}') for the same work)"
pair=$(median "$OUT/pair.ms")
echo "  two -j 1 runs at once: median ${pair} ms, each x$(awk -v a="$j1" -v b="$pair" 'BEGIN{printf "%.2f", b/a}') of one alone (this machine's ceiling for -j 2: $(awk -v a="$j1" -v b="$pair" 'BEGIN{printf "%.2f", 2*a/b}')x)"
if [ -n "${RATIO_FILE:-}" ]; then echo "$ratio" >"$RATIO_FILE"; fi
if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
[ "${VERDICT:-1}" = 0 ] && exit 0
if awk -v r="$ratio" 'BEGIN{exit !(r >= 1.7)}'; then
  echo "PASS  many units: -j 2 is ${ratio}x faster than -j 1 over $UNITS units (target >= 1.7)"
else
  echo "FAIL  many units: -j 2 is ${ratio}x faster than -j 1 over $UNITS units (target >= 1.7)"
  exit 1
fi

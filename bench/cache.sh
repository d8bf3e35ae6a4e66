#!/usr/bin/env bash
# A Neuron compile cache of ENTRIES entries (issue 28, targets 3 and 4), and
# the warm check of one small unit that a pre-commit hook pays per commit.
#
#   bash bench/cache.sh BIN OUTDIR     # bench/run.sh calls it this way
#
# Writes OUTDIR/cache/neuron_config.json above
# OUTDIR/cache/neuronxcc-2.21.18209.0+043b1bf7/MODULE_<hash>+<flags>/ entries
# laid out as docs/layouts.md ("Neuron persistent compile cache") says and as
# fixtures/layouts/compile-cache holds them: ENTRIES finished entries of
# model.hlo_module.pb, model.neff, compile_flags.json, model.log and
# model.done (5 files each: 100,000 files for 20,000 entries), and besides
# them ENTRIES/16 failed entries (model.log, a model.neff failure marker
# under 1024 bytes, no model.done) and ENTRIES/16 being compiled
# (model.hlo_module.pb.lock), 4 files each. The module and NEFF are those
# of the fixture's valid entry, so the run is clean. Then, with the page cache warm and runs
# alternating, prints the medians of:
#  - `check -j 1 CACHE` against `find CACHE -type f -exec cat {} + >/dev/null`
#    (target <= 1.5x);
#  - peak RSS (/usr/bin/time) at ENTRIES_SMALL and ENTRIES entries (target
#    <= 32 MiB, and flat: the two within 2 MiB of each other);
#  - `check -j 2` against `check -j 1` (target >= 1.8x);
#  - `check FILE` of a one-collective HLO file, WARM_RUNS times, against
#    `true` and `cat FILE` (target <= 3 ms).
# Ends with one PASS/FAIL line per target (VERDICT=0 leaves them out; exit 1
# on a FAIL otherwise). Environment: ENTRIES (default 20000), ENTRIES_SMALL
# (default 5000), RUNS (default 5), WARM_RUNS (default 200), KEEP=1 keeps
# OUTDIR, RESULT_FILE=F appends "name value" lines for bench/run.sh.
set -euo pipefail
BIN=$1
OUT=$2
ENTRIES=${ENTRIES:-20000}
ENTRIES_SMALL=${ENTRIES_SMALL:-5000}
RUNS=${RUNS:-5}
WARM_RUNS=${WARM_RUNS:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TIME=/usr/bin/time
FIX=$ROOT/fixtures/layouts/compile-cache/neuronxcc-2.21.18209.0+043b1bf7
VALID=$FIX/MODULE_12486829708343293975+d41d8cd9

rm -rf "$OUT"
mkdir -p "$OUT"

# gen DIR N: a cache of N entries under DIR (one python3 process: a cp per
# file would take longer than the runs).
gen() {
  mkdir -p "$1"
  # The NxD Inference config the entries were compiled for (the fixture
  # module's groups {0,4},{1,5},... are its context-parallel family).
  printf '{"model_type": "llama", "neuron_config": {"tp_degree": 8, "cp_degree": 2, "world_size": 8, "logical_nc_config": 1}}\n' >"$1/neuron_config.json"
  python3 - "$VALID" "$1/neuronxcc-2.21.18209.0+043b1bf7" "$2" <<'PY'
import hashlib, os, sys
valid, ver, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
read = lambda name: open(os.path.join(valid, name), "rb").read()
pb, neff, flags = read("model.hlo_module.pb"), read("model.neff"), read("compile_flags.json")
os.makedirs(ver)
def put(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
def entry(i):
    h = int(hashlib.sha1(str(i).encode()).hexdigest()[:16], 16)
    d = os.path.join(ver, "MODULE_%d+d41d8cd9" % h)
    os.mkdir(d)
    put(d, "model.hlo_module.pb", pb)
    put(d, "compile_flags.json", flags)
    return d
for i in range(n):  # finished
    d = entry(i)
    put(d, "model.neff", neff)
    put(d, "model.log", b"Compiler status PASS\n")
    put(d, "model.done", b"")
    if i % 16 == 7:  # failed: a failure marker for a NEFF, the log
        d = entry(n + i)
        put(d, "model.neff", b"compilation failed\n")
        put(d, "model.log", b"ERROR: neuronx-cc terminated abnormally\n")
    elif i % 16 == 11:  # being compiled: the lock, the log so far
        d = entry(n + i)
        put(d, "model.hlo_module.pb.lock", b"")
        put(d, "model.log", b"Compiler status: running\n")
PY
}

gen "$OUT/cache" "$ENTRIES"
gen "$OUT/small" "$ENTRIES_SMALL"
CACHE=$OUT/cache
nfiles=$(find "$CACHE" -type f | wc -l)
if ! summary=$("$BIN" check -j 1 "$CACHE" 2>&1 >"$OUT/.stdout" | tail -n 1); then
  echo "cache.sh: topolint reports findings or fails on $CACHE:" >&2
  head -20 "$OUT/.stdout" >&2
  echo "$summary" >&2
  exit 2
fi
case "$summary" in
  *"(0 files checked"* | *"no HLO, def.json"*)
    echo "${0##*/}: topolint read no file of $CACHE, nothing would be timed: $summary" >&2
    exit 2
    ;;
esac
echo "== compile cache: $ENTRIES entries, $nfiles files ($summary)"
find "$CACHE" "$OUT/small" -type f -exec cat {} + >/dev/null  # warm

median() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "inf" }'; }
# run FILE CMD...: appends "wall_ms maxrss_kb" of one run of CMD to FILE.
run() {
  local file=$1 t0 t1
  shift
  t0=$EPOCHREALTIME
  "$TIME" -f '%M' -o "$OUT/.rss" "$@" >"$OUT/.stdout" 2>/dev/null || {
    local rc=$?
    if [ "$rc" -gt 1 ]; then
      echo "cache.sh: '$*' exited with $rc" >&2
      exit 2
    fi
  }
  t1=$EPOCHREALTIME
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", (b-a)*1000}') $(tail -n 1 "$OUT/.rss")" >>"$file"
}
rm -f "$OUT"/*.runs
for ((i = 0; i < RUNS; ++i)); do
  run "$OUT/j1.runs" "$BIN" check --quiet -j 1 "$CACHE"
  run "$OUT/find.runs" find "$CACHE" -type f -exec cat {} +
  run "$OUT/j2.runs" "$BIN" check --quiet -j 2 "$CACHE"
  run "$OUT/small.runs" "$BIN" check --quiet -j 1 "$OUT/small"
  # What the machine allows -j 2: two -j 1 runs at once (no lock or memory
  # shared between them); each takes `pair` instead of `j1` alone.
  t0=$EPOCHREALTIME
  "$BIN" check --quiet -j 1 "$CACHE" >/dev/null 2>&1 &
  "$BIN" check --quiet -j 1 "$CACHE" >/dev/null 2>&1 || true
  wait || true
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f\n", (b-a)*1000}' >>"$OUT/pair.runs"
done
j1=$(awk '{print $1}' "$OUT/j1.runs" | median)
j2=$(awk '{print $1}' "$OUT/j2.runs" | median)
fw=$(awk '{print $1}' "$OUT/find.runs" | median)
rss=$(awk '{print $2}' "$OUT/j1.runs" | median)
rss2=$(awk '{print $2}' "$OUT/j2.runs" | median)
rss_small=$(awk '{print $2}' "$OUT/small.runs" | median)
mib() { awk -v k="$1" 'BEGIN{printf "%.1f", k/1024}'; }
tratio=$(div "$j1" "$fw")
sratio=$(div "$j1" "$j2")
echo "  median wall: -j 1 ${j1} ms, find -exec cat ${fw} ms (${tratio}x); -j 2 ${j2} ms (${sratio}x faster than -j 1; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
pair=$(median <"$OUT/pair.runs")
echo "  two -j 1 runs at once: ${pair} ms, each x$(div "$pair" "$j1") of one alone (this machine's ceiling for -j 2 now: $(awk -v a="$j1" -v b="$pair" 'BEGIN{printf "%.2f", 2*a/b}')x)"
echo "  peak RSS -j 1: $(mib "$rss_small") MiB at $ENTRIES_SMALL entries, $(mib "$rss") MiB at $ENTRIES entries; -j 2: $(mib "$rss2") MiB"

# The warm check of one small unit: a one-collective HLO file.
W=$OUT/warm
mkdir -p "$W"
printf 'HloModule m\n\nENTRY %%main (p: f32[8]) -> f32[8] {\n  %%p = f32[8]{0} parameter(0)\n  ROOT %%ar = f32[8]{0} all-reduce(f32[8]{0} %%p), replica_groups={{0,1,2,3}}, to_apply=%%add\n}\n' >"$W/one.hlo"
"$BIN" check "$W/one.hlo" >/dev/null 2>&1 || true
# each CMD...: the median wall time in ms of WARM_RUNS runs of CMD, one
# after the other (the loop's own cost is in the `true` line). Run in this
# shell (not in $(...)), so that `times` counts the runs' CPU.
each() {
  local t0 t1
  rm -f "$OUT/.each"
  for ((i = 0; i < WARM_RUNS; ++i)); do
    t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME
    echo "$t0 $t1" >>"$OUT/.each"  # a builtin: no process per run
  done
  awk '{printf "%.3f\n", ($2-$1)*1000}' "$OUT/.each" | median
}
each /bin/true >"$OUT/.m"
tt=$(cat "$OUT/.m")
each cat "$W/one.hlo" >"$OUT/.m"
tc=$(cat "$OUT/.m")
times >"$OUT/.times0"
each "$BIN" check "$W/one.hlo" >"$OUT/.m"
times >"$OUT/.times1"
tw=$(cat "$OUT/.m")
echo "== warm check of one small unit ($(stat -c %s "$W/one.hlo") bytes, one collective), median of $WARM_RUNS runs"
# CPU (user+sys) of the shell's children, from `times` (in this shell).
cpu_ms_of() {
  tail -n 1 "$1" | awk '{
    s = 0
    for (i = 1; i <= 2; ++i) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
    printf "%.3f", s * 1000 }'
}
wcpu=$(awk -v a="$(cpu_ms_of "$OUT/.times0")" -v b="$(cpu_ms_of "$OUT/.times1")" \
  -v n="$WARM_RUNS" 'BEGIN{printf "%.2f", (b-a)/n}')
echo "  topolint check FILE: ${tw} ms (CPU ${wcpu} ms a run); true: ${tt} ms; cat FILE: ${tc} ms"

if [ -n "${RESULT_FILE:-}" ]; then
  {
    echo "cache_time_ratio $tratio"
    echo "cache_rss_kb $rss"
    echo "cache_rss_small_kb $rss_small"
    echo "cache_speedup $sratio"
    echo "warm_ms $tw"
  } >>"$RESULT_FILE"
fi
if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
[ "${VERDICT:-1}" = 0 ] && exit 0
fail=0
verdict() {  # verdict OK? TEXT
  if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; fail=1; fi
}
verdict "$(awk -v r="$tratio" 'BEGIN{print (r <= 1.5)}')" \
  "compile cache of $ENTRIES entries: -j 1 is ${tratio}x find -exec cat (target <= 1.5)"
verdict "$(awk -v a="$rss" -v b="$rss_small" 'BEGIN{print (a <= 32768 && a - b <= 2048)}')" \
  "compile cache peak RSS: $(mib "$rss") MiB at $ENTRIES entries, $(mib "$rss_small") MiB at $ENTRIES_SMALL (target <= 32, flat)"
verdict "$(awk -v r="$sratio" 'BEGIN{print (r >= 1.8)}')" \
  "compile cache: -j 2 is ${sratio}x faster than -j 1 (target >= 1.8)"
verdict "$(awk -v m="$tw" 'BEGIN{print (m <= 3)}')" \
  "warm check of one small unit: ${tw} ms (target <= 3)"
exit "$fail"

#!/usr/bin/env bash
# End-to-end performance benchmark of `topolint check` against the
# `grep -c replica_groups` baseline on the same files (docs/reference/quality.md).
#
#   bash bench/run.sh            # from the repository root or anywhere
#
# Builds Release into build-bench/, writes SPMD modules of 150 and 300 MiB
# (bench/gen_hlo.py) into bench/out/, then, single-threaded and with the page
# cache warm, runs topolint and grep alternately RUNS times each and prints:
# the median wall and CPU times, the topolint/grep ratio, topolint's peak RSS
# (/usr/bin/time -v), the 300 vs 150 MiB scaling factor, the large-groups case
# ([1,65536]<=[65536], LARGE_OPS ops) in ms per op, and start-up on a tiny
# unit. Ends with one PASS/FAIL line per target; exits 1 when one fails.
#
# Then the collective-dense module (bench/gen_hlo.py --dense: one huge ENTRY
# computation, a collective every ~1.5 KB, DENSE_MB MiB) the same way, and
# one explicit replica group of EXPLICIT_IDS ids (peak RSS), and a compile
# cache of MANY_UNITS small units, -j 2 against -j 1 (bench/many_units.sh).
# Beside topolint and grep, each text module is read by topolint_floor
# (bench/floor.cc: every line's body through the block scanner, nothing
# parsed or checked), and the floors section prints what is left above it.
#
# Environment: RUNS (default 11), SIZES (default "150 300", MiB; the last is
# the one the targets apply to), LARGE_OPS (default 2000), DENSE_MB (default
# 300; 0 skips the dense case), MLIR_MB (default 300: the StableHLO text
# module of bench/gen_mlir.py, one row beside the HLO text ones; 0 skips
# it), JAX_MB (default 300: the JAX-shaped dense module of bench/gen_jax.py,
# shardings, metadata and backend_config on every line, issue 46; 0 skips
# it), EXPLICIT_IDS (default 1048576), KEEP=1 keeps
# bench/out/, BUILD_DIR (default build-bench), JOBS (default 2), MANY_UNITS
# (default 2000; 0 skips the many-units case), CACHE_ENTRIES (default 20000:
# the compile cache of bench/cache.sh, with the warm check of one unit). The
# dense module is also checked as a binary HloModuleProto and .pb.gz
# (bench/binary.sh).
# OLD=PATH (another topolint binary, e.g. one built at an earlier commit)
# adds a section: OLD and the new binary on the dense text, dense binary and
# JAX-shaped modules, alternately RUNS times (bench/compare.sh), with the
# change in wall time and peak RSS and three targets (issue 46: dense text
# at most 10% slower, dense binary at most 25% slower, peak RSS no higher
# than OLD's, give or take 1% for page rounding).
# Needs cmake, ninja, python3 and /usr/bin/time (package `time`;
# TOPOLINT_WITH_EXTRAS=1 scripts/install-deps.sh installs it).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
RUNS=${RUNS:-11}
DENSE_MB=${DENSE_MB:-300}
MLIR_MB=${MLIR_MB:-300}
JAX_MB=${JAX_MB:-300}
EXPLICIT_IDS=${EXPLICIT_IDS:-1048576}
SIZES=${SIZES:-150 300}
LARGE_OPS=${LARGE_OPS:-2000}
BUILD_DIR=${BUILD_DIR:-build-bench}
JOBS=${JOBS:-2}
OUT=bench/out
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
  echo "run.sh: $TIME not found (install the 'time' package)" >&2
  exit 2
fi

cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
}
trap cleanup EXIT

echo "== topolint benchmark ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== build (Release, $BUILD_DIR)"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTOPOLINT_BUILD_TESTS=OFF -DTOPOLINT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$BUILD_DIR" --target topolint topolint_floor -j "$JOBS" >/dev/null
BIN=$ROOT/$BUILD_DIR/topolint
# The floors (bench/floor.cc): the same files read, nothing parsed or checked.
FLOOR=$ROOT/$BUILD_DIR/topolint_floor

echo "== generate"
mkdir -p "$OUT"
for s in $SIZES; do
  python3 bench/gen_hlo.py --out "$OUT/m$s" --size-mb "$s"
done
python3 bench/gen_hlo.py --out "$OUT/large" --large-groups "$LARGE_OPS" \
  --devices 65536
python3 bench/gen_hlo.py --out "$OUT/tiny" --layers 1
# -- dense and explicit-group cases (issue 16) --
if [ "$DENSE_MB" != 0 ]; then
  python3 bench/gen_hlo.py --out "$OUT/dense" --dense --size-mb "$DENSE_MB"
fi
python3 bench/gen_hlo.py --out "$OUT/explicit" --explicit-ids "$EXPLICIT_IDS"
# -- end dense and explicit-group cases --
# -- JAX-shaped dense module (issue 46) --
if [ "$JAX_MB" != 0 ]; then
  python3 bench/gen_jax.py --out "$OUT/jax" --size-mb "$JAX_MB"
fi
# -- StableHLO text (issue 45) --
if [ "$MLIR_MB" != 0 ]; then
  python3 bench/gen_mlir.py --out "$OUT/mlir" --size-mb "$MLIR_MB"
fi

. "$ROOT/bench/lib.sh"  # measure

# median FILE COLUMN: the median of one column.
median() {
  awk -v c="$2" '{print $c}' "$1" | sort -g |
    awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'
}
# cpu FILE: median of user+sys.
cpu() {
  awk '{printf "%.3f\n", $2+$3}' "$1" | sort -g |
    awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'
}
max() { awk -v c="$2" 'BEGIN{m=0} $c>m{m=$c} END{print m}' "$1"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "inf" }'; }

# The generated unit must be clean: exit 0, so timings are of checking, not
# of rendering findings.
for s in $SIZES; do
  require_clean_check "$BIN" "$OUT/m$s"
done

echo "== runs (each: topolint then grep, alternately, $RUNS times; page cache warm)"
printf '%-8s %10s %9s %12s %12s %9s %9s %11s\n' size bytes grep-n \
  "grep wall s" "tl wall s" "ratio" "cpu ratio" "tl peak MiB"
for s in $SIZES; do
  hlo=$OUT/m$s/model.hlo
  rm -f "$OUT/tl$s.times" "$OUT/grep$s.times" "$OUT/floor$s.times"
  cat "$hlo" "$OUT/m$s/def.json" >/dev/null  # warm the page cache
  grep -c replica_groups "$hlo" >"$OUT/.stdout"
  for ((i = 0; i < RUNS; ++i)); do
    measure "tl$s" "$BIN" check --quiet -j 1 "$OUT/m$s"
    measure "grep$s" grep -c replica_groups "$hlo"
    measure "floor$s" "$FLOOR" text "$hlo"
  done
  gw=$(median "$OUT/grep$s.times" 1)
  tw=$(median "$OUT/tl$s.times" 1)
  gc=$(cpu "$OUT/grep$s.times")
  tc=$(cpu "$OUT/tl$s.times")
  peak_kb=$(max "$OUT/tl$s.times" 4)
  printf '%-8s %10s %9s %12s %12s %9s %9s %11s\n' "${s}MiB" \
    "$(stat -c %s "$hlo")" "$(grep -c replica_groups "$hlo")" "$gw" "$tw" \
    "$(div "$tw" "$gw")" "$(div "$tc" "$gc")" \
    "$(awk -v k="$peak_kb" 'BEGIN{printf "%.1f", k/1024}')"
  eval "WALL_$s=$tw; GREP_$s=$gw; PEAK_$s=$peak_kb"
  eval "FLOOR_$s=$(median "$OUT/floor$s.times" 1)"
done

# -- dense and explicit-group cases (issue 16) --
if [ "$DENSE_MB" != 0 ]; then
  echo "== collective-dense module (${DENSE_MB} MiB, one ENTRY computation), $RUNS alternating runs"
  hlo=$OUT/dense/model.hlo
  require_clean_check "$BIN" "$OUT/dense"
  rm -f "$OUT/tldense.times" "$OUT/grepdense.times" "$OUT/floordense.times"
  cat "$hlo" "$OUT/dense/def.json" >/dev/null
  for ((i = 0; i < RUNS; ++i)); do
    measure tldense "$BIN" check --quiet -j 1 "$OUT/dense"
    measure grepdense grep -c replica_groups "$hlo"
    measure floordense "$FLOOR" text "$hlo"
  done
  DENSE_GREP=$(median "$OUT/grepdense.times" 1)
  DENSE_FLOOR=$(median "$OUT/floordense.times" 1)
  DENSE_WALL=$(median "$OUT/tldense.times" 1)
  DENSE_PEAK=$(max "$OUT/tldense.times" 4)
  printf '%-8s %10s %9s %12s %12s %9s %9s %11s\n' dense \
    "$(stat -c %s "$hlo")" "$(grep -c replica_groups "$hlo")" "$DENSE_GREP" \
    "$DENSE_WALL" "$(div "$DENSE_WALL" "$DENSE_GREP")" \
    "$(div "$(cpu "$OUT/tldense.times")" "$(cpu "$OUT/grepdense.times")")" \
    "$(awk -v k="$DENSE_PEAK" 'BEGIN{printf "%.1f", k/1024}')"
fi
# -- JAX-shaped dense module (issue 46): the same row --
if [ "$JAX_MB" != 0 ]; then
  echo "== JAX-shaped dense module (${JAX_MB} MiB, bench/gen_jax.py), $RUNS alternating runs"
  hlo=$OUT/jax/model.hlo
  require_clean_check "$BIN" "$OUT/jax"
  rm -f "$OUT/tljax.times" "$OUT/grepjax.times" "$OUT/floorjax.times"
  cat "$hlo" "$OUT/jax/def.json" >/dev/null
  for ((i = 0; i < RUNS; ++i)); do
    measure tljax "$BIN" check --quiet -j 1 "$OUT/jax"
    measure grepjax grep -c replica_groups "$hlo"
    measure floorjax "$FLOOR" text "$hlo"
  done
  JAX_GREP=$(median "$OUT/grepjax.times" 1)
  JAX_FLOOR=$(median "$OUT/floorjax.times" 1)
  JAX_WALL=$(median "$OUT/tljax.times" 1)
  JAX_PEAK=$(max "$OUT/tljax.times" 4)
  printf '%-8s %10s %9s %12s %12s %9s %9s %11s\n' jax \
    "$(stat -c %s "$hlo")" "$(grep -c replica_groups "$hlo")" "$JAX_GREP" \
    "$JAX_WALL" "$(div "$JAX_WALL" "$JAX_GREP")" \
    "$(div "$(cpu "$OUT/tljax.times")" "$(cpu "$OUT/grepjax.times")")" \
    "$(awk -v k="$JAX_PEAK" 'BEGIN{printf "%.1f", k/1024}')"
fi
# -- StableHLO text (issue 45): the same row for a .mlir module --
if [ "$MLIR_MB" != 0 ]; then
  echo "== StableHLO text module (${MLIR_MB} MiB, bench/gen_mlir.py), $RUNS alternating runs"
  mlir=$OUT/mlir/model.mlir
  require_clean_check "$BIN" "$OUT/mlir"
  rm -f "$OUT/tlmlir.times" "$OUT/grepmlir.times"
  cat "$mlir" >/dev/null
  for ((i = 0; i < RUNS; ++i)); do
    measure tlmlir "$BIN" check --quiet -j 1 "$OUT/mlir"
    measure grepmlir grep -c replica_groups "$mlir"
  done
  MLIR_GREP=$(median "$OUT/grepmlir.times" 1)
  MLIR_WALL=$(median "$OUT/tlmlir.times" 1)
  MLIR_PEAK=$(max "$OUT/tlmlir.times" 4)
  printf '%-8s %10s %9s %12s %12s %9s %9s %11s\n' mlir \
    "$(stat -c %s "$mlir")" "$(grep -c replica_groups "$mlir")" "$MLIR_GREP" \
    "$MLIR_WALL" "$(div "$MLIR_WALL" "$MLIR_GREP")" \
    "$(div "$(cpu "$OUT/tlmlir.times")" "$(cpu "$OUT/grepmlir.times")")" \
    "$(awk -v k="$MLIR_PEAK" 'BEGIN{printf "%.1f", k/1024}')"
fi
# -- the floors (issue 28) --
echo "== floors: the same text read and every line's body run through the block scanner, nothing parsed or checked (bench/floor.cc)"
printf '  %-8s %12s %12s %12s %16s\n' module "floor wall s" "x grep -c" "tl x grep -c" "tl above floor"
fw=0
for s in $SIZES; do
  eval "fw=\$FLOOR_$s; gw=\$GREP_$s; tw=\$WALL_$s"
  printf '  %-8s %12s %12s %12s %16s\n' "${s}MiB" "$fw" "$(div "$fw" "$gw")" \
    "$(div "$tw" "$gw")" "$(div "$(awk -v a="$tw" -v b="$fw" 'BEGIN{print a-b}')" "$gw")"
done
if [ "$DENSE_MB" != 0 ]; then
  printf '  %-8s %12s %12s %12s %16s\n' dense "$DENSE_FLOOR" \
    "$(div "$DENSE_FLOOR" "$DENSE_GREP")" "$(div "$DENSE_WALL" "$DENSE_GREP")" \
    "$(div "$(awk -v a="$DENSE_WALL" -v b="$DENSE_FLOOR" 'BEGIN{print a-b}')" "$DENSE_GREP")"
fi
if [ "$JAX_MB" != 0 ]; then
  printf '  %-8s %12s %12s %12s %16s\n' jax "$JAX_FLOOR" \
    "$(div "$JAX_FLOOR" "$JAX_GREP")" "$(div "$JAX_WALL" "$JAX_GREP")" \
    "$(div "$(awk -v a="$JAX_WALL" -v b="$JAX_FLOOR" 'BEGIN{print a-b}')" "$JAX_GREP")"
fi
# -- end the floors --
echo "== one explicit replica group of $EXPLICIT_IDS ids"
rm -f "$OUT/explicit.times"
for ((i = 0; i < 3; ++i)); do measure explicit "$BIN" check --quiet -j 1 "$OUT/explicit"; done
EXPLICIT_PEAK=$(max "$OUT/explicit.times" 4)
echo "  median wall $(median "$OUT/explicit.times" 1) s; peak $(awk -v k="$EXPLICIT_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB"
# -- end dense and explicit-group cases --

# Peak RSS of the largest run as /usr/bin/time -v reports it.
last=${SIZES##* }
first=${SIZES%% *}
echo "== /usr/bin/time -v topolint check ${last}MiB (excerpt)"
"$TIME" -v "$BIN" check --quiet -j 1 "$OUT/m$last" 2>&1 >"$OUT/.stdout" |
  grep -E 'Elapsed|Maximum resident|User time|System time' | sed 's/^\s*/  /'

echo "== large groups: $LARGE_OPS all-reduces over [1,65536]<=[65536]"
rm -f "$OUT/large.times"
for ((i = 0; i < RUNS; ++i)); do measure large "$BIN" check --quiet -j 1 "$OUT/large"; done
lw=$(median "$OUT/large.times" 1)
lpeak=$(max "$OUT/large.times" 4)
lms=$(awk -v w="$lw" -v n="$LARGE_OPS" 'BEGIN{printf "%.3f", 1000*w/n}')
echo "  median wall ${lw} s = ${lms} ms per op; peak $(awk -v k="$lpeak" 'BEGIN{printf "%.1f", k/1024}') MiB"

# cpu_ms_of FILE: user+sys CPU of the shell's finished children, from the
# output of the `times` builtin (which must run in this shell, not in a $(...)
# subshell, to see them), in milliseconds.
cpu_ms_of() {
  tail -n 1 "$1" | awk '{
    s = 0
    for (i = 1; i <= 2; ++i) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
    printf "%.3f", s * 1000 }'
}

TINY_RUNS=21
echo "== start-up + tiny unit ($(stat -c %s "$OUT/tiny/model.hlo") bytes), $TINY_RUNS runs"
rm -f "$OUT/tiny.ms"
"$BIN" check --quiet "$OUT/tiny" >/dev/null
times >"$OUT/.times0"
for ((i = 0; i < TINY_RUNS; ++i)); do
  t0=$EPOCHREALTIME
  "$BIN" check --quiet -j 1 "$OUT/tiny" >/dev/null
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", (b-a)*1000}' >>"$OUT/tiny.ms"
done
times >"$OUT/.times1"
c0=$(cpu_ms_of "$OUT/.times0")
c1=$(cpu_ms_of "$OUT/.times1")
tiny=$(sort -g "$OUT/tiny.ms" | awk '{a[NR]=$1} END{print a[(NR+1)/2]}')
tiny_cpu=$(awk -v a="$c0" -v b="$c1" -v n="$TINY_RUNS" 'BEGIN{printf "%.1f", (b-a)/n}')
echo "  median wall ${tiny} ms; mean CPU (user+sys) ${tiny_cpu} ms per run"

# -- def.json at scale (issue 16): DEFJSON_RANKS (default 1000x1000, GROUPSxSIZE)
DEFJSON_RANKS=${DEFJSON_RANKS:-1000x1000}
echo "== def.json of one [1][${DEFJSON_RANKS/x/][}] topology: topolint vs jq vs python3 json.load, $RUNS alternating runs"
python3 bench/gen_defjson.py --out "$OUT/defjson" --ranks "$DEFJSON_RANKS"
dj=$OUT/defjson/def.json
require_clean_check "$BIN" "$OUT/defjson"
HAVE_JQ=0
if command -v jq >/dev/null 2>&1; then HAVE_JQ=1; fi
rm -f "$OUT"/dj_*.times
cat "$dj" >/dev/null
for ((i = 0; i < RUNS; ++i)); do
  measure dj_tl "$BIN" check --quiet -j 1 "$OUT/defjson"
  if [ "$HAVE_JQ" = 1 ]; then measure dj_jq jq length "$dj"; fi
  measure dj_py python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dj"
done
printf '  %-22s %12s %12s\n' tool "median wall s" "peak MiB"
for t in tl jq py; do
  [ -f "$OUT/dj_$t.times" ] || continue
  case $t in tl) name="topolint check" ;; jq) name="jq length" ;; py) name="python3 json.load" ;; esac
  printf '  %-22s %12s %12s\n' "$name" "$(median "$OUT/dj_$t.times" 1)" \
    "$(awk -v k="$(max "$OUT/dj_$t.times" 4)" 'BEGIN{printf "%.1f", k/1024}')"
done
DJ_PEAK=$(max "$OUT/dj_tl.times" 4)
if [ "$HAVE_JQ" = 1 ]; then DJ_JQ_PEAK=$(max "$OUT/dj_jq.times" 4); else DJ_JQ_PEAK=0; fi
# -- end def.json at scale
# -- many small units (issue 16) --
# A Neuron compile cache of MANY_UNITS entries, -j 1 against -j 2
# (bench/many_units.sh prints the section; the verdict is among the targets).
MANY_UNITS=${MANY_UNITS:-2000}
if [ "$MANY_UNITS" != 0 ]; then
  rm -f "$OUT/many.ratio"
  UNITS=$MANY_UNITS RUNS=$RUNS VERDICT=0 RATIO_FILE="$OUT/many.ratio" \
    bash "$ROOT/bench/many_units.sh" "$BIN" "$OUT/many" || true
fi
# -- end many small units --

# -- binary modules (issue 28): bench/binary.sh prints the section --
if [ "$DENSE_MB" != 0 ]; then
  rm -f "$OUT/binary.result"
  DENSE_MB=$DENSE_MB RUNS=$RUNS VERDICT=0 RESULT_FILE="$OUT/binary.result" \
    KEEP=1 FLOOR=$FLOOR bash "$ROOT/bench/binary.sh" "$BIN" "$OUT/binary" || true
fi
# -- end binary modules --

# -- old binary against new (issue 46): OLD=PATH --
# compare_old NAME DIR: OLD and BIN alternately on DIR's module; writes
# "old_wall old_peak_kb new_wall new_peak_kb" to $OUT/old.NAME.
compare_old() {
  [ -d "$2" ] || return 0
  echo "-- $1"
  RUNS=$RUNS RESULT_FILE="$OUT/.old.result" bash "$ROOT/bench/compare.sh" "$2" "$OLD" "$BIN" |
    sed 's/^/  /'
  awk '{w[NR]=$1; k[NR]=$3} END {print w[1], k[1], w[2], k[2]}' "$OUT/.old.result" >"$OUT/old.$1"
}
if [ -n "${OLD:-}" ]; then
  echo "== old ($OLD) against new, alternating, $RUNS runs each (bench/compare.sh)"
  [ "$DENSE_MB" != 0 ] && compare_old dense "$OUT/dense"
  [ "$DENSE_MB" != 0 ] && compare_old binary "$OUT/binary/pb"
  [ "$JAX_MB" != 0 ] && compare_old jax "$OUT/jax"
fi
# -- end old binary against new --

# -- compile cache of CACHE_ENTRIES entries and the warm check (issue 28) --
CACHE_ENTRIES=${CACHE_ENTRIES:-20000}
rm -f "$OUT/cache.results"
ENTRIES=$CACHE_ENTRIES RUNS=$RUNS VERDICT=0 RESULT_FILE="$OUT/cache.results" \
  bash "$ROOT/bench/cache.sh" "$BIN" "$OUT/cache" || true
# -- end compile cache --
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== targets (docs/reference/quality.md)"
fail=0
verdict() {  # verdict OK? TEXT
  if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; fail=1; fi
}
eval "tw=\$WALL_$last; gw=\$GREP_$last; pk=\$PEAK_$last"
ratio=$(div "$tw" "$gw")
verdict "$(awk -v r="$ratio" 'BEGIN{print (r <= 3.0)}')" \
  "time ${last}MiB: ${ratio}x grep -c (target <= 3)"
# -- sparse module at <= 2x grep (issue 16) --
verdict "$(awk -v r="$ratio" 'BEGIN{print (r <= 2.0)}')" \
  "time ${last}MiB (sparse): ${ratio}x grep -c (target <= 2, issue 16)"
lfw=0
eval "lfw=\$FLOOR_$last"
verdict "$(awk -v r="$ratio" 'BEGIN{print (r <= 1.2)}')" \
  "time ${last}MiB (sparse): ${ratio}x grep -c (target <= 1.2, issue 28; the body scan alone $(div "$lfw" "$gw")x)"
# -- end sparse module at <= 2x grep --
verdict "$(awk -v k="$pk" 'BEGIN{print (k <= 65536)}')" \
  "peak RSS ${last}MiB: $(awk -v k="$pk" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 64)"
if [ "$first" != "$last" ]; then
  eval "t1=\$WALL_$first"
  scale=$(div "$tw" "$t1")
  want=$(awk -v a="$last" -v b="$first" 'BEGIN{printf "%.2f", 1.1*a/b}')
  verdict "$(awk -v s="$scale" -v w="$want" 'BEGIN{print (s <= w)}')" \
    "scaling ${first}->${last}MiB: time x${scale} for size x$(div "$last" "$first") (target <= ${want})"
fi
# -- dense and explicit-group cases (issue 16) --
if [ "$DENSE_MB" != 0 ]; then
  dratio=$(div "$DENSE_WALL" "$DENSE_GREP")
  verdict "$(awk -v r="$dratio" 'BEGIN{print (r <= 3.0)}')" \
    "time dense ${DENSE_MB}MiB: ${dratio}x grep -c (target <= 3)"
  verdict "$(awk -v r="$dratio" 'BEGIN{print (r <= 1.3)}')" \
    "time dense ${DENSE_MB}MiB: ${dratio}x grep -c (target <= 1.3, issue 28; the body scan alone $(div "$DENSE_FLOOR" "$DENSE_GREP")x)"
  verdict "$(awk -v k="$DENSE_PEAK" 'BEGIN{print (k <= 16384)}')" \
    "peak RSS dense ${DENSE_MB}MiB: $(awk -v k="$DENSE_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 16)"
fi
if [ "$JAX_MB" != 0 ]; then  # issue 46: the 3x bar of docs/reference/quality.md on a JAX-shaped module
  jratio=$(div "$JAX_WALL" "$JAX_GREP")
  verdict "$(awk -v r="$jratio" 'BEGIN{print (r <= 3.0)}')" \
    "time JAX-shaped dense ${JAX_MB}MiB: ${jratio}x grep -c (target <= 3, issue 46; the body scan alone $(div "$JAX_FLOOR" "$JAX_GREP")x)"
  verdict "$(awk -v k="$JAX_PEAK" 'BEGIN{print (k <= 16384)}')" \
    "peak RSS JAX-shaped dense ${JAX_MB}MiB: $(awk -v k="$JAX_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 16)"
fi
verdict "$(awk -v k="$EXPLICIT_PEAK" 'BEGIN{print (k <= 32768)}')" \
  "peak RSS one explicit group of $EXPLICIT_IDS ids: $(awk -v k="$EXPLICIT_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 32)"
# -- end dense and explicit-group cases --
if [ "$HAVE_JQ" = 1 ]; then  # def.json at scale (issue 16): <= 1.5x jq's peak RSS
  verdict "$(awk -v a="$DJ_PEAK" -v b="$DJ_JQ_PEAK" 'BEGIN{print (a <= 1.5 * b)}')" \
    "peak RSS def.json [1][${DEFJSON_RANKS/x/][}]: $(awk -v k="$DJ_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB, $(div "$DJ_PEAK" "$DJ_JQ_PEAK")x jq's $(awk -v k="$DJ_JQ_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 1.5x jq)"
else
  verdict "$(awk -v a="$DJ_PEAK" 'BEGIN{print (a <= 32768)}')" \
    "peak RSS def.json [1][${DEFJSON_RANKS/x/][}]: $(awk -v k="$DJ_PEAK" 'BEGIN{printf "%.1f", k/1024}') MiB (no jq; target <= 32 MiB)"
fi
verdict "$(awk -v m="$lms" 'BEGIN{print (m < 10)}')" \
  "large groups: ${lms} ms per op (target: milliseconds)"
verdict "$(awk -v m="$tiny" 'BEGIN{print (m < 10)}')" \
  "start-up + tiny unit: ${tiny} ms wall, ${tiny_cpu} ms CPU (target < 10)"
# -- many small units (issue 16) --
if [ "$MANY_UNITS" != 0 ]; then
  mratio=$(cat "$OUT/many.ratio" 2>/dev/null || echo 0)
  verdict "$(awk -v r="$mratio" 'BEGIN{print (r >= 1.7)}')" \
    "many units: -j 2 is ${mratio}x faster than -j 1 over $MANY_UNITS units (target >= 1.7)"
fi
# -- end many small units --
# -- binary modules (issue 28) --
if [ "$DENSE_MB" != 0 ]; then
  read -r bpb bpk bgz bfl <"$OUT/binary.result" 2>/dev/null || { bpb=inf; bpk=0; bgz=inf; bfl="?"; }
  verdict "$(awk -v r="$bpb" 'BEGIN{print (r != "inf" && r <= 1.3)}')" \
    "time binary .pb: ${bpb}x grep -c (target <= 1.3, issue 28; the walk alone ${bfl}x)"
  verdict "$(awk -v k="$bpk" 'BEGIN{print (k > 0 && k <= 16384)}')" \
    "peak RSS binary .pb: $(awk -v k="$bpk" 'BEGIN{printf "%.1f", k/1024}') MiB (target <= 16, issue 28)"
  verdict "$(awk -v r="$bgz" 'BEGIN{print (r != "inf" && r <= 1.3)}')" \
    "time binary .pb.gz: ${bgz}x gzip -dc (target <= 1.3, issue 28)"
fi
# -- end binary modules --
# -- compile cache and warm check (issue 28) --
cres() { awk -v k="$1" '$1 == k {print $2}' "$OUT/cache.results" 2>/dev/null || true; }
ct=$(cres cache_time_ratio); cr=$(cres cache_rss_kb); crs=$(cres cache_rss_small_kb)
cs=$(cres cache_speedup); wm=$(cres warm_ms)
verdict "$(awk -v r="${ct:-99}" 'BEGIN{print (r <= 1.5)}')" \
  "compile cache of $CACHE_ENTRIES entries: -j 1 is ${ct:-?}x find -exec cat (target <= 1.5)"
verdict "$(awk -v a="${cr:-999999}" -v b="${crs:-0}" 'BEGIN{print (a <= 32768 && a - b <= 2048)}')" \
  "compile cache peak RSS: ${cr:-?} KB at $CACHE_ENTRIES entries, ${crs:-?} KB at 5000 (target <= 32 MiB, flat)"
verdict "$(awk -v r="${cs:-0}" 'BEGIN{print (r >= 1.8)}')" \
  "compile cache: -j 2 is ${cs:-?}x faster than -j 1 (target >= 1.8)"
verdict "$(awk -v m="${wm:-99}" 'BEGIN{print (m <= 3)}')" \
  "warm check of one small unit: ${wm:-?} ms (target <= 3)"
# -- end compile cache and warm check --
# -- old binary against new (issue 46) --
# old_verdict NAME LABEL [MAX_PCT]: the change in wall time (a target with
# MAX_PCT, else a line of information) and peak RSS.
old_verdict() {
  local ow ok nw nk pct
  [ -f "$OUT/old.$1" ] || return 0
  read -r ow ok nw nk <"$OUT/old.$1"
  pct=$(awk -v a="$ow" -v b="$nw" 'BEGIN{printf "%+.1f", 100 * (b - a) / a}')
  if [ -n "${3:-}" ]; then
    verdict "$(awk -v p="$pct" -v m="$3" 'BEGIN{print (p <= m)}')" \
      "old vs new, $2: ${ow} -> ${nw} s wall, ${pct}% (target <= +$3%, issue 46)"
  else
    echo "INFO  old vs new, $2: ${ow} -> ${nw} s wall, ${pct}%"
  fi
  verdict "$(awk -v a="$ok" -v b="$nk" 'BEGIN{print (b <= 1.01 * a)}')" \
    "old vs new, $2 peak RSS: $(awk -v k="$ok" 'BEGIN{printf "%.1f", k/1024}') -> $(awk -v k="$nk" 'BEGIN{printf "%.1f", k/1024}') MiB (target: no higher, issue 46)"
}
if [ -n "${OLD:-}" ]; then
  old_verdict dense "dense text" 10
  old_verdict binary "dense binary .pb" 25
  old_verdict jax "JAX-shaped text"
fi
# -- end old binary against new --
exit "$fail"

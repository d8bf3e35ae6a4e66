#!/usr/bin/env bash
# Memory under volume (issue 15, class 4): peak RSS of `topolint check` over
# many units with many findings, and over a large --baseline, in every
# report format. The report is streamed, so the peak should stay flat as
# the number of units grows (docs/reliability.md, "Memory under volume").
#
#   bash bench/many_findings.sh BIN OUTDIR [OLD_BIN]
#
# Writes OUTDIR/tree-<N>/u<NNNN>/model.hlo for each unit count N of UNITS_LIST (default
# "200 2000"), each module with FINDINGS (default 50) all-reduces that repeat
# a device id (one hlo-duplicate-device-id error each), and a baseline of
# BASELINE_ENTRIES (default 120000) entries with 200-byte messages (~46 MB).
# Prints one line per run: the peak RSS in MB (/usr/bin/time -v) and the
# wall time; with OLD_BIN, the same runs of that binary for comparison.
# Needs /usr/bin/time. KEEP=1 keeps OUTDIR.
set -euo pipefail
BIN=$1
OUT=$2
OLD=${3:-}
UNITS_LIST=${UNITS_LIST:-"200 2000"}
FINDINGS=${FINDINGS:-50}
ENTRIES=${BASELINE_ENTRIES:-120000}
JOBS=${JOBS:-2}

rm -rf "$OUT"
mkdir -p "$OUT"
python3 - "$OUT" "$FINDINGS" "$ENTRIES" <<'PY'
import sys
out, findings, entries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hlo = ["HloModule many, replica_count=2", "",
       "%add (x: f32[], y: f32[]) -> f32[] {",
       "  %x = f32[] parameter(0)", "  %y = f32[] parameter(1)",
       "  ROOT %s = f32[] add(f32[] %x, f32[] %y)", "}", "",
       "ENTRY %main (p: f32[8]) -> f32[8] {", "  %p = f32[8]{0} parameter(0)"]
for i in range(findings):
    hlo.append(f"  %ar{i} = f32[8]{{0}} all-reduce(f32[8]{{0}} %p), "
               "replica_groups={{0,0}}, to_apply=%add")
hlo += ["  ROOT %r = f32[8]{0} copy(f32[8]{0} %p)", "}", ""]
open(f"{out}/model.hlo", "w").write("\n".join(hlo))
with open(f"{out}/big-baseline.json", "w") as f:
    f.write('{\n  "version": 1,\n  "findings": [\n')
    for i in range(entries):
        sep = "," if i + 1 < entries else ""
        f.write('    {"rule": "hlo-duplicate-device-id", "file": '
                f'"tree/u{i % 9999:04}/model.hlo", "fingerprint": '
                f'"{i:016x}", "message": "{"m" * 200}"}}{sep}\n')
    f.write("  ]\n}\n")
PY
for n in $UNITS_LIST; do
  for ((i = 0; i < n; ++i)); do
    mkdir -p "$OUT/tree-$n/u$(printf %04d "$i")"
    cp "$OUT/model.hlo" "$OUT/tree-$n/u$(printf %04d "$i")/"
  done
done

# peak <label> <bin> <args...>: one line "label  peak MB  seconds".
peak() {
  local label=$1 bin=$2
  shift 2
  /usr/bin/time -v "$bin" check --quiet -j "$JOBS" "$@" >/dev/null \
    2>"$OUT/time.txt" || true
  awk -v l="$label" '/Maximum resident/ {kb=$NF}
    /Elapsed \(wall/ {t=$NF}
    END {printf "%-44s %7.1f MB  %s\n", l, kb/1024, t}' "$OUT/time.txt"
}

for bin_label in new old; do
  bin=$BIN
  if [ "$bin_label" = old ]; then
    [ -n "$OLD" ] || continue
    bin=$OLD
  fi
  echo "== $bin_label: $bin"
  for n in $UNITS_LIST; do
    for fmt in text json sarif github; do
      peak "$n units x $FINDINGS findings, $fmt" "$bin" --format "$fmt" \
        "$OUT/tree-$n"
    done
    peak "$n units x $FINDINGS findings, --write-baseline" "$bin" \
      --write-baseline "$OUT/written.json" "$OUT/tree-$n"
  done
  peak "--baseline of $ENTRIES entries ($(($(stat -c %s "$OUT/big-baseline.json") / 1000000)) MB)" \
    "$bin" --baseline "$OUT/big-baseline.json" "$OUT/model.hlo"
done
[ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"

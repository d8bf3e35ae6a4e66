# shellcheck shell=bash
# Shared by the benchmark scripts (sourced, not run): `measure`, with $OUT
# (the output directory) and $TIME (/usr/bin/time) set by the caller.
#
# measure NAME CMD...: runs CMD once under $TIME and appends
# "wall user sys maxrss_kb" to $OUT/NAME.times; wall is measured here with
# microsecond resolution ($EPOCHREALTIME; time's %e has 10 ms). CMD's stdout
# goes to a file, not /dev/null: GNU grep notices /dev/null and stops at the
# first match. Its exit status must be 0 or 1 (grep -c and topolint both use
# 1 for "found"; grep -c finds no `replica_groups` text in a binary module);
# anything else aborts.
measure() {
  local name=$1
  shift
  local rc=0 t0 t1
  t0=$EPOCHREALTIME
  "$TIME" -f "%U %S %M" -o "$OUT/.last" "$@" >"$OUT/.stdout" 2>"$OUT/.stderr" || rc=$?
  t1=$EPOCHREALTIME
  if [ "$rc" -gt 1 ]; then
    echo "${0##*/}: '$*' exited with $rc:" >&2
    cat "$OUT/.stderr" >&2
    exit 2
  fi
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b-a}') $(tail -n 1 "$OUT/.last")" \
    >>"$OUT/$name.times"
}

# require_clean_check BIN DIR: the benchmark's input must be checked clean:
# exit 0 (timings are of checking, not of rendering findings) and at least
# one file read. A check that skips everything (say every file ignored by a
# .gitignore above $OUT) would time nothing; it aborts the benchmark.
require_clean_check() {
  local bin=$1 dir=$2 rc=0
  "$bin" check "$dir" >"$OUT/.check.out" 2>"$OUT/.check.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "${0##*/}: topolint reports findings on $dir (exit $rc):" >&2
    head -n 20 "$OUT/.check.out" "$OUT/.check.err" >&2
    exit 2
  fi
  if grep -q -e "(0 files checked" -e "no HLO, def.json" "$OUT/.check.err"; then
    echo "${0##*/}: topolint read no file of $dir, nothing would be timed:" >&2
    cat "$OUT/.check.err" >&2
    exit 2
  fi
}

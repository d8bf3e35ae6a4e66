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

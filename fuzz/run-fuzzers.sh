#!/usr/bin/env bash
# fuzz/run-fuzzers.sh: builds the libFuzzer targets (fuzz/*_fuzz.cc) with clang-14,
# ASan and UBSan, then runs each for a bounded time on its seed corpus
# (made from fixtures/ by fuzz/make-corpus.sh) plus the committed
# regression inputs (fuzz/regressions/<target>/). Any crash, sanitizer
# report, timeout (-timeout) or memory blow-up (-rss_limit_mb) fails the
# job; the offending input is printed (base64) so it can be recovered from
# the log. Fuzzing time: 10 targets x FUZZ_SECONDS (default 40) <= 7 minutes;
# the clang build of the libraries takes about as long again on 2 cores
# unless FUZZ_BUILD_DIR names a tree that has them. CI runs it from
# .ci/jobs/10-sanitize-and-fuzz.sh on the tree of scripts/sanitize.sh;
# needs clang-14 and libclang-rt-14-dev (scripts/install-deps.sh with
# TOPOLINT_WITH_EXTRAS=1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-40}"
# FUZZ_BUILD_DIR: a build tree to reuse, e.g. build-asan from
# scripts/sanitize.sh (configured with TOPOLINT_FUZZ=ON); default build-fuzz,
# configured here with the test suite off.
build="${FUZZ_BUILD_DIR:-build-fuzz}"

for tool in clang-14 clang++-14; do
  command -v "$tool" > /dev/null || {
    echo "run-fuzzers: $tool not found (scripts/install-deps.sh with TOPOLINT_WITH_EXTRAS=1 installs it)" >&2
    exit 1
  }
done

if ! grep -qs '^TOPOLINT_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DTOPOLINT_FUZZ=ON -DTOPOLINT_SANITIZE=ON -DTOPOLINT_BUILD_TESTS=OFF
fi
cmake --build "$build" --target topolint_fuzzers -j2
fuzz/make-corpus.sh "$build/corpus"

# A smaller quarantine keeps ASan's own memory well under -rss_limit_mb.
export ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rm -rf "$build/artifacts"
mkdir -p "$build/artifacts"
failed=()
for bin in "$build"/fuzz/*_fuzz; do
  t="$(basename "$bin")"
  dict=fuzz/json.dict
  max_len=4096
  case "$t" in
    hlo_parser_fuzz | unit_fuzz) dict=fuzz/hlo.dict ;;
    stdin_fuzz) dict=fuzz/hlo.dict max_len=8192 ;;
    hlo_proto_fuzz | gzip_stream_fuzz) dict=fuzz/hlo_proto.dict ;;
    neff_archive_fuzz) max_len=16384 ;;
  esac
  # Regression inputs: every one must run clean.
  rm -rf "$build/regressions/$t"
  mkdir -p "$build/regressions/$t"
  if [ -d "fuzz/regressions/$t" ]; then
    find "fuzz/regressions/$t" -maxdepth 1 -type f \
      -exec cp {} "$build/regressions/$t/" \;
  fi
  corpora=("$build/corpus/$t" "$build/regressions/$t")
  echo "--- $t (${seconds}s)"
  set +e
  "$bin" "${corpora[@]}" -dict="$dict" -max_len="$max_len" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=512 \
    -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 \
    > "$build/artifacts/$t.log" 2>&1
  rc=$?
  set -e
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$build/artifacts/$t.log" || true
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    echo "run-fuzzers: $t FAILED (exit $rc); last lines of its log:"
    tail -n 60 "$build/artifacts/$t.log"
    for a in "$build/artifacts/$t"-*; do
      [ -f "$a" ] || continue
      echo "run-fuzzers: input $a (base64):"
      head -c 65536 "$a" | base64
    done
  fi
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "run-fuzzers: failing targets: ${failed[*]}" >&2
  exit 1
fi
echo "run-fuzzers: all targets ran ${seconds}s without a finding"

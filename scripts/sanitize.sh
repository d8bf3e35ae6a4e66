#!/usr/bin/env bash
# scripts/sanitize.sh: the whole test suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, built with clang-14 into build-asan/.
#
# The same build holds the libFuzzer targets (TOPOLINT_FUZZ=ON), so that
# fuzz/run-fuzzers.sh can reuse it (FUZZ_BUILD_DIR=build-asan) instead of
# compiling the libraries a third time: CI builds Release once (the README's
# test command) and this tree once. Needs clang-14 and libclang-rt-14-dev
# (TOPOLINT_WITH_EXTRAS=1 scripts/install-deps.sh).
#
# Environment: BUILD_DIR (default build-asan), JOBS (default 2) compile
# jobs; TEST_JOBS (default twice JOBS) ctest jobs: many tests wait on a
# child process (topolint, git, pre-commit), so more of them than CPUs
# keeps the CPUs busy.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build-asan}"
jobs="${JOBS:-2}"
for tool in clang-14 clang++-14; do
  command -v "$tool" > /dev/null || {
    echo "sanitize: $tool not found (TOPOLINT_WITH_EXTRAS=1 scripts/install-deps.sh installs it)" >&2
    exit 1
  }
done
# -O1 keeps the sanitized suite fast enough; no -g (symbolised stacks come
# from the frame pointers and symbols, and -g doubles compile and link time).
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1" -DCMAKE_C_FLAGS_DEBUG="-O1" \
  -DTOPOLINT_SANITIZE=ON -DTOPOLINT_FUZZ=ON -DTOPOLINT_BUILD_TESTS=ON
cmake --build "$build" -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Left out by default (SANITIZE_EXCLUDE='' runs them): tests of scale whose
# code paths smaller tests cover, and which the Release suite runs anyway
# (an 8,000-file commit through pre-commit, SARIF runs of 25,000 results, an
# installed-package build, a tree of 100,000 files), and the scaffold test
# that builds a copy of the tree with the system compiler (no sanitizer).
exclude="${SANITIZE_EXCLUDE-PreCommitTest.CommitOfEightThousandFiles|RenderSarifLimitTest|InstallTest|LargeTreeTest|NewRuleScriptTest.ARuleOfEveryFamily}"
ctest --test-dir "$build" --output-on-failure -j "${TEST_JOBS:-$((jobs * 2))}" \
  ${exclude:+-E "$exclude"}

#!/usr/bin/env bash
# CI job: the whole test suite under ASan + UBSan (clang-14), then every
# libFuzzer target for FUZZ_SECONDS on its seeds and regression inputs,
# reusing the same instrumented build. See docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
# One compile job per CPU, at most 4 (an instrumented compile takes ~1.5 GiB).
n=$(nproc)
JOBS=${JOBS:-$((n < 4 ? n : 4))} scripts/sanitize.sh
# A smoke run: each target's seeds and regression inputs, then 4 s of
# fuzzing (CI must stay within 30 minutes; longer runs: docs/reliability.md).
FUZZ_BUILD_DIR=build-asan FUZZ_SECONDS="${FUZZ_SECONDS:-4}" fuzz/run-fuzzers.sh

#!/usr/bin/env bash
# CI job: the whole test suite under ASan + UBSan (clang-14), then every
# libFuzzer target for FUZZ_SECONDS on its seeds and regression inputs,
# reusing the same instrumented build. See docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/sanitize.sh
FUZZ_BUILD_DIR=build-asan FUZZ_SECONDS="${FUZZ_SECONDS:-10}" fuzz/run-fuzzers.sh

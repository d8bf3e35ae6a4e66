#!/usr/bin/env bash
# Installs topolint's build and test dependencies from Debian packages.
# Idempotent: when every package is already installed it does nothing and
# takes well under a second. Must run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libabsl-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libarchive-dev zlib1g-dev libprotobuf-dev
  libre2-dev
  python3 python3-jsonschema
  # The Python package: pip install ./python in a venv (docs/integration.md,
  # "The Python package"); its build backend needs nothing else.
  python3-venv
)
if [ "${TOPOLINT_WITH_EXTRAS:-0}" = 1 ]; then
  # Extras for the integration and reliability jobs.
  PACKAGES+=(pre-commit clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14 time)
  # CI compiles the same Release objects twice (the test build, then the
  # Python package's own CMake build): ccache makes the second a copy.
  PACKAGES+=(ccache)
  # Headless browser for the explain --format html test (tests/explain).
  PACKAGES+=(chromium)
  # The completion and manual-page tests (tests/cli/flag_table_test.cc):
  # groff checks topolint.1, zsh parses the zsh completion.
  PACKAGES+=(groff-base man-db zsh)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2

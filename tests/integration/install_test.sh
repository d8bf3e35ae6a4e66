#!/usr/bin/env bash
# Installs a topolint build into a temporary prefix and builds and runs the
# consumer project (tests/integration/consumer) against it with
# find_package(topolint).
#
# usage: install_test.sh BUILD_DIR SOURCE_DIR CMAKE GENERATOR CXX CC [LDFLAGS]
# LDFLAGS: linker flags the consumer's executables need, e.g.
# -fsanitize=address,undefined when the build under test is sanitized (clang
# links the sanitizer runtimes into executables only).
set -euo pipefail

build=$1 src=$2 cmake=$3 generator=$4 cxx=$5 cc=$6 ldflags=${7:-}
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/topolint-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }

# 1. The layout: binary, static libraries, shared C library, headers, package.
find_one() {  # find_one NAME: the installed file called NAME
  local hit
  hit=$(find "$prefix" -name "$1" \( -type f -o -type l \) | head -n 1)
  [ -n "$hit" ] || { find "$prefix" >&2; fail "$1 is not installed"; }
  echo "$hit"
}
[ -x "$prefix/bin/topolint" ] || fail "bin/topolint is not installed"
for lib in diag json hlo neff config model rules core; do
  find_one "libtopolint_$lib.a" >/dev/null
done
find_one libtopolint_c.so >/dev/null
for f in topolintConfig.cmake topolintConfigVersion.cmake topolintTargets.cmake; do
  find_one "$f" >/dev/null
done
# The completions and the manual page, where bash-completion, zsh and man
# look under a prefix, printed by the installed command from its flag table.
for f in share/bash-completion/completions/topolint share/zsh/site-functions/_topolint \
    share/man/man1/topolint.1; do
  [ -s "$prefix/$f" ] || fail "$f is not installed"
done
"$prefix/bin/topolint" man | cmp -s - "$prefix/share/man/man1/topolint.1" ||
  fail "share/man/man1/topolint.1 differs from topolint man"
for h in topolint.h topolint_c.h; do
  [ -f "$prefix/include/topolint/$h" ] || fail "include/topolint/$h is not installed"
done
# The public headers are self-contained: standard headers only, and no
# engine headers installed next to them.
if grep -n '#include "' "$prefix"/include/topolint/*.h; then
  fail "an installed public header includes a project header"
fi
[ ! -e "$prefix/include/checker" ] || fail "engine headers were installed"
"$cc" -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only \
  -I"$prefix/include" -x c - <<<'#include "topolint/topolint_c.h"' ||
  fail "topolint_c.h does not compile as C99"

# 2. The installed checker runs.
"$prefix/bin/topolint" --version | grep -q '^topolint [0-9]' ||
  fail "installed topolint --version"
mkdir -p "$tmp/work/out"
printf '{"CCInfo": {"replica_groups": [[[0,1]], []]}}\n' >"$tmp/work/out/def.json"
rc=0
(cd "$tmp/work" && "$prefix/bin/topolint" check --color never out) \
  >"$tmp/cli.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/cli.out" >&2; fail "installed topolint exited $rc, expected 1"; }
grep -qF "[neff-empty-topology]" "$tmp/cli.out" || fail "installed topolint: no finding"

# 3. A consumer project finds the package and links both APIs.
"$cmake" -S "$src/tests/integration/consumer" -B "$tmp/consumer" \
  -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
  >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log" >&2; fail "configuring the consumer failed"; }
grep -qF "topolint executable: $prefix/bin/topolint" "$tmp/configure.log" ||
  { cat "$tmp/configure.log" >&2; fail "topolint::topolint is not the installed binary"; }
"$cmake" --build "$tmp/consumer" >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log" >&2; fail "building the consumer failed"; }

rc=0
"$tmp/consumer/consumer" >"$tmp/consumer.out" 2>&1 || rc=$?
cat "$tmp/consumer.out"
[ "$rc" -eq 1 ] || fail "consumer exited $rc, expected 1 (an error finding)"
grep -qF "out/def.json:1:41: error: Empty topology found at index 1, possible MPMD neff file" \
  "$tmp/consumer.out" || fail "consumer output lacks the finding"
grep -qF "[neff-empty-topology]" "$tmp/consumer.out" || fail "consumer output lacks the rule id"

"$tmp/consumer/consumer_c" >"$tmp/consumer_c.out" 2>&1 ||
  { cat "$tmp/consumer_c.out" >&2; fail "consumer_c failed"; }
cat "$tmp/consumer_c.out"
grep -qF '"rule": "neff-empty-topology"' "$tmp/consumer_c.out" ||
  fail "consumer_c output lacks the finding"
# It runs the installed shared library, not the build tree's.
if command -v ldd >/dev/null; then
  ldd "$tmp/consumer/consumer_c" | grep -F libtopolint_c | grep -qF "$prefix/" ||
    { ldd "$tmp/consumer/consumer_c" >&2; fail "consumer_c does not load the installed libtopolint_c"; }
fi

# 4. The C API through pkg-config, with the version macros.
pc=$(find_one topolint_c.pc)
export PKG_CONFIG_PATH="$(dirname "$pc")"
[ "$(pkg-config --modversion topolint_c)" = "$("$prefix/bin/topolint" --version | awk '{print $2}')" ] ||
  fail "pkg-config version differs from topolint --version"
# shellcheck disable=SC2046
"$cc" -std=c99 -Wall -Wextra -Werror -o "$tmp/pkgconfig_driver" \
  "$src/tests/integration/pkgconfig_driver.c" \
  $(pkg-config --cflags --libs topolint_c) $ldflags \
  -Wl,-rpath,"$(pkg-config --variable=libdir topolint_c)" ||
  fail "building a C driver with pkg-config failed"
"$tmp/pkgconfig_driver" || fail "pkgconfig_driver failed"

# 5. The shared library exports the C API only (no C++, Abseil or fmt).
lib=$(find_one "libtopolint_c.so")
exports=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
echo "exported: $(echo $exports)"
others=$(echo "$exports" | grep -v '^topolint_' || true)
[ -z "$others" ] || fail "libtopolint_c exports more than the C API: $others"
echo "$exports" | grep -qx topolint_check_json || fail "topolint_check_json not exported"
echo "$exports" | grep -qx topolint_check_text || fail "topolint_check_text not exported"

# 6. The installed Python package: imported from the prefix, it finds the
# installed library and command by itself. Not for a clang-sanitized build:
# its library needs the sanitizer runtimes from the executable, and the
# Python interpreter is not instrumented.
if [ -z "$ldflags" ] && command -v python3 >/dev/null; then
  pkg=$(dirname "$(find "$prefix" -path '*/topolint/__init__.py' | head -n 1)")
  [ -f "$pkg/_install.py" ] || fail "the Python package is not installed"
  (cd "$tmp" && env -u TOPOLINT_LIBRARY -u TOPOLINT_BINARY \
     PYTHONPATH="$(dirname "$pkg")" PATH="$prefix/bin:$PATH" \
     python3 -m unittest discover -s "$src/tests/python" -p '*_test.py') \
     >"$tmp/python.log" 2>&1 ||
    { cat "$tmp/python.log" >&2; fail "the installed Python package failed its tests"; }
  (cd "$tmp" && env -u TOPOLINT_LIBRARY PYTHONPATH="$(dirname "$pkg")" \
     python3 -c 'import topolint, sys; sys.exit(0 if topolint.library_path().startswith(sys.argv[1]) else 1)' "$prefix") ||
    fail "the installed Python package does not load the installed library"
  # `pip install ./python` builds the whole checker with CMake
  # (python/build_backend): too slow here; tests/python/build_backend_test.py
  # installs a wheel of this build, .ci/jobs/20-python-wheel.sh runs the
  # real build in fresh venvs.
fi

echo "install_test: OK"

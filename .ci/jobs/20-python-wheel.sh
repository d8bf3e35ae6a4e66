#!/usr/bin/env bash
# CI job: the Python package as a user installs it (docs/integration.md,
# "The Python package"), with the standard commands in PLAIN venvs
# (`python3 -m venv`: no system site-packages, pip's build isolation on)
# and no package index (PIP_NO_INDEX=1 makes any download attempt fail):
#   1. `pip install ./python`: the build backend (python/build_backend)
#      builds the checker with CMake; then the API, the console script,
#      `topolint.__version__` and `pip show` from the venv, nothing else
#      installed by hand;
#   2. `pip install .` at the repository root (pre-commit's `language:
#      python` and `pip install git+...` run it) in a second venv;
#   3. `pip wheel ./python`: the wheel holds LICENSE, py.typed, the version,
#      and its RECORD's hashes are right;
#   4. a missing C++ dependency fails in seconds, naming the Debian package
#      (no cmake on PATH; no pkg-config modules);
#   5. nothing was written into the source tree.
# One C++ build: the CMake build directory (TOPOLINT_WHEEL_BUILD_DIR) is
# kept across the installs, so 2 and 3 find it up to date; with ccache
# (CMAKE_CXX_COMPILER_LAUNCHER, set by .ci/run) the first is cache hits of
# the main build's objects.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
work=$(mktemp -d)
# The package's CMake build directory sits beside build/ (same depth), so
# that with .ci/run's CCACHE_BASEDIR its compile lines are the main build's
# and ccache answers them; the tree checks below leave it out.
wheel_build="$PWD/build-wheel"
trap 'rm -rf "$work" "$wheel_build"' EXIT
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
export TOPOLINT_WHEEL_BUILD_DIR="${TOPOLINT_WHEEL_BUILD_DIR:-$wheel_build}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
unset TOPOLINT_LIBRARY TOPOLINT_BINARY TOPOLINT_WHEEL_PREBUILT PYTHONPATH
version=$(cat VERSION)
fail() { echo "20-python-wheel: FAIL: $*" >&2; exit 1; }

# What pip could leave: anything new under python/ (tracked, untracked or
# ignored), or a new top-level entry such as build/.
tree_state() {
  git status --porcelain --ignored --untracked-files=all -- python/ |
    grep -v '__pycache__' | sort || true
  ls -A | grep -vx build-wheel || true
}
tree_state > "$work/before"

# 1. pip install ./python
"$PY" -m venv "$work/venv"
start=$(date +%s)
"$work/venv/bin/pip" install -v ./python > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "pip install ./python"; }
echo "pip install ./python (plain venv, no index): $(( $(date +%s) - start ))s"
# -v shows the backend's progress: each step announced, CMake's output.
grep -F "topolint build: configuring the C++ build" "$work/install.log" ||
  fail "pip install -v did not show the configure step"
grep -F "topolint build: building" "$work/install.log" | head -n 2
grep -qF "Successfully installed topolint-$version" "$work/install.log" ||
  fail "pip did not install topolint-$version"

venv_py="$work/venv/bin/python3"
(cd "$work" && "$venv_py" - "$version" <<'PY'
import os, sys, topolint
assert topolint.__version__ == sys.argv[1], topolint.__version__
assert topolint.version() == sys.argv[1], topolint.version()
lib = topolint.library_path()
assert lib.startswith(sys.prefix), lib
pkg = os.path.dirname(topolint.__file__)
assert os.path.isfile(os.path.join(pkg, "py.typed"))
PY
) || fail "the installed package"
"$venv_py" - <<'PY'
import topolint
findings = topolint.check(["fixtures/hlo-duplicate-device-id/fail-binary-module"])
print(findings)
assert [f.rule for f in findings] == ["hlo-duplicate-device-id"], findings
PY
"$venv_py" -c "import topolint; print(topolint.check(['fixtures/neff-empty-topology']))"
"$work/venv/bin/pip" show topolint > "$work/show.txt"
cat "$work/show.txt"
for want in "Name: topolint" "Version: $version" "Home-page: https://"; do
  grep -qF "$want" "$work/show.txt" || fail "pip show lacks: $want"
done
set +e
"$work/venv/bin/topolint" check -q fixtures/ > "$work/fixtures.txt"
rc=$?
set -e
if [ "$rc" -ne 1 ]; then
  fail "venv topolint check fixtures/ exited $rc, expected 1 (the fixtures hold deliberate mistakes)"
fi
[ "$("$venv_py" -m topolint --version)" = "topolint $version" ] ||
  fail "python -m topolint --version"

# 2. pip install . at the root, in another plain venv.
"$PY" -m venv "$work/venv2"
start=$(date +%s)
"$work/venv2/bin/pip" install . > "$work/install2.log" 2>&1 ||
  { cat "$work/install2.log" >&2; fail "pip install ."; }
echo "pip install . (root, same build directory): $(( $(date +%s) - start ))s"
[ "$(cd "$work" && "$work/venv2/bin/topolint" --version)" = "topolint $version" ] ||
  fail "topolint --version from the venv of pip install ."

# 3. The wheel.
"$work/venv/bin/pip" wheel -q ./python -w "$work/dist"
wheel=$(ls "$work"/dist/topolint-"$version"-py3-none-linux_*.whl)
"$venv_py" - "$wheel" "$version" LICENSE <<'PY'
import base64, csv, hashlib, io, sys, zipfile
path, version, license_path = sys.argv[1:]
info = "topolint-%s.dist-info/" % version
with zipfile.ZipFile(path) as z:
    names = set(z.namelist())
    for want in ["topolint/__init__.py", "topolint/py.typed",
                 "topolint/_install.py", "topolint/_bin/topolint",
                 "topolint/_lib/libtopolint_c.so", info + "METADATA",
                 info + "WHEEL", info + "RECORD", info + "entry_points.txt",
                 info + "licenses/LICENSE"]:
        assert want in names, want
    assert z.read(info + "licenses/LICENSE") == open(license_path, "rb").read()
    meta = z.read(info + "METADATA").decode()
    for want in ["Version: " + version, "License-Expression: Apache-2.0",
                 "License-File: LICENSE", "Project-URL: ",
                 "Classifier: Typing :: Typed"]:
        assert want in meta, want
    assert ('VERSION = "%s"' % version) in z.read("topolint/_install.py").decode()
    rows = list(csv.reader(io.StringIO(z.read(info + "RECORD").decode())))
    assert set(r[0] for r in rows) == names
    for name, digest, size in rows:
        if name == info + "RECORD":
            continue
        data = z.read(name)
        want = "sha256=" + base64.urlsafe_b64encode(
            hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert (digest, int(size)) == (want, len(data)), name
print("wheel: %s, %d files, RECORD hashes ok" % (path.split("/")[-1], len(names)))
PY

# 4. A missing dependency: the build stops before configuring, naming the
# Debian packages to install. The bound is generous (pip itself takes a
# few seconds); the point is not the 4-minute build.
expect_missing() {  # expect_missing LOG PACKAGES ENV...
  local log=$1 packages=$2
  shift 2
  local rc=0 start
  start=$(date +%s)
  env "$@" "$work/venv/bin/pip" install ./python > "$log" 2>&1 || rc=$?
  local took=$(( $(date +%s) - start ))
  [ "$rc" -ne 0 ] || { cat "$log" >&2; fail "the build succeeded without $packages"; }
  grep -qF "sudo apt-get install $packages" "$log" ||
    { cat "$log" >&2; fail "the failure does not name $packages"; }
  if grep -qF "configuring the C++ build" "$log"; then
    cat "$log" >&2; fail "the build configured CMake before failing"
  fi
  [ "$took" -lt 120 ] || fail "failing without $packages took ${took}s"
  echo "without $packages: failed in ${took}s, naming them"
}
expect_missing "$work/nocmake.log" "cmake build-essential pkg-config" \
  PATH="$work/venv/bin"
expect_missing "$work/nopc.log" "libarchive-dev libprotobuf-dev libre2-dev" \
  PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH=

# 5. Nothing written into the checkout.
tree_state > "$work/after"
if ! diff -u "$work/before" "$work/after"; then
  fail "pip install wrote into the source tree (above)"
fi
echo "python wheel: ok ($(wc -l < "$work/fixtures.txt") lines of findings)"

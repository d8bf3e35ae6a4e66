"""The PEP 517 build backend of the topolint Python package.

Builds the C++ command `topolint` and the shared library libtopolint_c with
CMake, from the repository root (the parent of python/), in a build
directory outside the source tree, and writes a wheel holding the Python
package with both inside it (topolint/_bin/topolint,
topolint/_lib/libtopolint_c.so), as ruff and cmake ship their binaries.
Nothing is written into the source tree: no build/, no *.egg-info.

It needs only the standard library (no setuptools, no wheel), so
`pip install ./python` works offline with pip's default build isolation.

Environment:
  TOPOLINT_WHEEL_BUILD_DIR     CMake build directory to use and keep (for
                               incremental rebuilds); default: a temporary
                               directory, removed afterwards
  CMAKE_BUILD_PARALLEL_LEVEL   parallel build jobs (CMake reads it)
  CMAKE_CXX_COMPILER_LAUNCHER  e.g. ccache (CMake reads it; also C)
  CMAKE_GENERATOR              e.g. Ninja (default: Ninja when installed)
  TOPOLINT_CMAKE_ARGS          extra configure arguments (split on blanks)
"""
import base64
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

NAME = "topolint"
HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
SOURCE_ROOT = os.path.dirname(PYTHON_DIR)
SUMMARY = "Collective-topology checker for XLA HLO and Neuron NEFFs"


def _version():
    """The project version, from the one place it is written:
    CMakeLists.txt's project(topolint VERSION x.y.z)."""
    path = os.path.join(SOURCE_ROOT, "CMakeLists.txt")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise RuntimeError(
            "topolint: the Python package is built from the repository "
            "(python/ next to CMakeLists.txt); %s is missing: %s" % (path, e))
    m = re.search(r"project\(\s*topolint\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        raise RuntimeError("topolint: no project VERSION in " + path)
    return m.group(1)


def _platform_tag():
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _dist_info_files(version):
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: %s\n"
        "Version: %s\n"
        "Summary: %s\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.7\n" % (NAME, version, SUMMARY))
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: topolint_build %s\n"
        "Root-Is-Purelib: false\n"
        "Tag: py3-none-%s\n" % (version, _platform_tag()))
    entry_points = "[console_scripts]\ntopolint = topolint.__main__:main\n"
    return {"METADATA": metadata, "WHEEL": wheel,
            "entry_points.txt": entry_points}


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory,
                                     config_settings=None):
    version = _version()
    name = "%s-%s.dist-info" % (NAME, version)
    out = os.path.join(metadata_directory, name)
    os.makedirs(out, exist_ok=True)
    for fname, text in _dist_info_files(version).items():
        with open(os.path.join(out, fname), "w") as f:
            f.write(text)
    return name


def _run(cmd, **kw):
    sys.stderr.write("topolint_build: %s\n" % " ".join(cmd))
    sys.stderr.flush()
    subprocess.run(cmd, check=True, **kw)


def _build_native(build_dir):
    """Configures and builds the two targets the package bundles."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("topolint: building the package needs cmake "
                           "(scripts/install-deps.sh installs it)")
    configure = [cmake, "-S", SOURCE_ROOT, "-B", build_dir,
                 "-DCMAKE_BUILD_TYPE=Release",
                 "-DTOPOLINT_BUILD_TESTS=OFF",
                 "-DTOPOLINT_INSTALL_PYTHON=OFF"]
    if not os.environ.get("CMAKE_GENERATOR") and shutil.which("ninja") and \
            not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        configure += ["-G", "Ninja"]
    for lang in ("C", "CXX"):
        launcher = os.environ.get("CMAKE_%s_COMPILER_LAUNCHER" % lang) or \
            os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER")
        if launcher:
            configure.append("-DCMAKE_%s_COMPILER_LAUNCHER=%s" %
                             (lang, launcher))
    configure += os.environ.get("TOPOLINT_CMAKE_ARGS", "").split()
    _run(configure)
    build = [cmake, "--build", build_dir, "--target", "topolint",
             "topolint_c"]
    if not os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL"):
        build += ["-j", str(os.cpu_count() or 1)]
    _run(build)
    binary = os.path.join(build_dir, "topolint")
    library = os.path.realpath(os.path.join(build_dir, "libtopolint_c.so"))
    for path in (binary, library):
        if not os.path.isfile(path):
            raise RuntimeError("topolint: the build did not produce " + path)
    return binary, library


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(
        hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d\n" % (arcname, digest, len(data))


def _write_wheel(path, version, binary, library):
    dist_info = "%s-%s.dist-info" % (NAME, version)
    members = []  # (arcname, bytes, executable)
    pkg_dir = os.path.join(PYTHON_DIR, NAME)
    for fname in sorted(os.listdir(pkg_dir)):
        if fname.endswith(".py"):
            with open(os.path.join(pkg_dir, fname), "rb") as f:
                members.append(("%s/%s" % (NAME, fname), f.read(), False))
    members.append(("%s/_install.py" % NAME, (
        b"# Written by the wheel build: paths relative to this package.\n"
        b'LIBRARY = "_lib/libtopolint_c.so"\n'
        b'BINARY = "_bin/topolint"\n'), False))
    with open(binary, "rb") as f:
        members.append(("%s/_bin/topolint" % NAME, f.read(), True))
    with open(library, "rb") as f:
        members.append(("%s/_lib/libtopolint_c.so" % NAME, f.read(), False))
    for fname, text in _dist_info_files(version).items():
        members.append(("%s/%s" % (dist_info, fname), text.encode(), False))
    record = "".join(_record_line(a, d) for a, d, _ in members)
    record += "%s/RECORD,,\n" % dist_info
    members.append(("%s/RECORD" % dist_info, record.encode(), False))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as whl:
        for arcname, data, executable in members:
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG |
                                  (0o755 if executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    keep = os.environ.get("TOPOLINT_WHEEL_BUILD_DIR")
    build_dir = os.path.abspath(keep) if keep else \
        tempfile.mkdtemp(prefix="topolint-wheel-")
    try:
        binary, library = _build_native(build_dir)
        name = "%s-%s-py3-none-%s.whl" % (NAME, version, _platform_tag())
        _write_wheel(os.path.join(wheel_directory, name), version, binary,
                     library)
        return name
    finally:
        if not keep:
            shutil.rmtree(build_dir, ignore_errors=True)

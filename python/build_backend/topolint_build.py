"""The build backend of the topolint Python package (PEP 517), standard
library only.

pyproject.toml (python/pyproject.toml for `pip install ./python`, the
repository root's for `pip install .`, `pip install git+...` and
pre-commit) names this module with `backend-path` and `requires = []`: pip
then needs nothing from a package index, not even setuptools or wheel, so
the standard commands work in a plain `python3 -m venv` of any Python 3
with no index reachable. The backend configures and builds the C++ checker
with CMake (targets `topolint` and `topolint_c` only, tests off) from the
repository root, and writes the wheel itself: the Python package
(python/topolint), the command as topolint/_bin/topolint and the shared
library as topolint/_lib/libtopolint_c.so (as ruff and cmake ship their
binaries), topolint/_install.py telling the package where they are, a
`topolint` console script, METADATA, LICENSE and RECORD.

Before configuring, it checks in about a second that the tools and the
Debian -dev packages the build needs are there (scripts/install-deps.sh
installs them), and fails naming the packages to `apt-get install`; a
configure error CMake reports anyway is mapped to a package too.

pip shows a backend's output only with `-v` (`pip install -v ./python`):
the CMake configure and build output is streamed there, each step
announced on standard error.

Environment:
  TOPOLINT_WHEEL_BUILD_DIR     CMake build directory to use and keep (for
                               incremental rebuilds); default: a temporary
                               directory, removed afterwards
  TOPOLINT_WHEEL_PREBUILT      a CMake build directory of this checkout
                               that already holds `topolint` and
                               libtopolint_c.so: package those, build
                               nothing (packagers, tests)
  TOPOLINT_SKIP_DEPENDENCY_CHECK=1  configure without the check above
                               (dependencies in places it does not look)
  CMAKE_BUILD_PARALLEL_LEVEL   parallel build jobs (CMake reads it; default:
                               all CPUs)
  CMAKE_CXX_COMPILER_LAUNCHER  e.g. ccache (CMake reads it; also for C)
  CMAKE_GENERATOR              e.g. Ninja (default: Ninja when installed)
  TOPOLINT_CMAKE_ARGS          extra configure arguments (split as a shell
                               would)

Hooks: get_requires_for_build_{wheel,sdist} (nothing), prepare_metadata_
for_build_wheel, build_wheel, build_sdist (the repository's source files
and PKG-INFO; the sdist builds again with this backend). There is no
build_editable (PEP 660): the package needs its native files next to it;
from a checkout, use PYTHONPATH=python with TOPOLINT_LIBRARY and
TOPOLINT_BINARY set to a build's (as ctest does).
"""
import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

NAME = "topolint"
SUMMARY = "Collective-topology checker for XLA HLO and Neuron NEFFs"
REQUIRES_PYTHON = ">=3.7"
URL = "https://github.com/topolint/topolint"
PROJECT_URLS = [
    ("Homepage", URL),
    ("Documentation", URL + "/blob/main/docs/integration.md"),
    ("Changelog", URL + "/blob/main/CHANGELOG.md"),
    ("Issues", URL + "/issues"),
]
CLASSIFIERS = [
    "Development Status :: 3 - Alpha",
    "Environment :: Console",
    "Intended Audience :: Developers",
    "Operating System :: POSIX :: Linux",
    "Programming Language :: C++",
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3 :: Only",
    "Topic :: Scientific/Engineering :: Artificial Intelligence",
    "Topic :: Software Development :: Quality Assurance",
    "Typing :: Typed",
]
LICENSE_EXPRESSION = "Apache-2.0"
CONSOLE_SCRIPTS = [("topolint", "topolint.__main__:main")]

# python/build_backend/topolint_build.py: python/ and the repository root.
PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_ROOT = os.path.dirname(PYTHON_DIR)

# Where the bundled files go inside the package (read by _install.py).
BINARY_IN_PACKAGE = "_bin/topolint"
LIBRARY_IN_PACKAGE = "_lib/libtopolint_c.so"


def _log(message):
    sys.stderr.write("topolint build: %s\n" % message)
    sys.stderr.flush()


def _fail(message):
    """Ends the hook: pip prints the message with the build's output."""
    sys.stderr.flush()
    raise SystemExit("topolint build: error: " + message)


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _version():
    """The project version, from the one place it is written."""
    path = os.path.join(SOURCE_ROOT, "VERSION")
    if not os.path.isfile(path):
        _fail("%s is missing: the package is built from a topolint checkout "
              "(its python/ directory or its root), not from python/ alone. "
              "pip older than 21.3 copies python/ elsewhere before building: "
              "upgrade pip, or run `pip install .` at the repository root."
              % path)
    version = _read(path).strip()
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*", version):
        _fail("VERSION holds %r, not a version" % version)
    return version


def _dist_info(version):
    return "%s-%s.dist-info" % (NAME, version)


# --- Metadata (core metadata 2.4, with PEP 639's license fields) ----------

def _metadata(version):
    lines = [
        "Metadata-Version: 2.4",
        "Name: " + NAME,
        "Version: " + version,
        "Summary: " + SUMMARY,
        "Home-page: " + URL,
        "License-Expression: " + LICENSE_EXPRESSION,
        "License-File: LICENSE",
        "Requires-Python: " + REQUIRES_PYTHON,
    ]
    lines += ["Project-URL: %s, %s" % u for u in PROJECT_URLS]
    lines += ["Classifier: " + c for c in CLASSIFIERS]
    readme = os.path.join(SOURCE_ROOT, "README.md")
    body = ""
    if os.path.isfile(readme):
        lines.append("Description-Content-Type: text/markdown")
        body = _read(readme)
    return ("\n".join(lines) + "\n\n" + body).encode("utf-8")


def _entry_points():
    text = "[console_scripts]\n"
    text += "".join("%s = %s\n" % s for s in CONSOLE_SCRIPTS)
    return text.encode("utf-8")


def _wheel_tag():
    """py3-none-<platform>: the Python code is pure and runs on any Python
    3; the bundled files are a standalone executable (exec'd) and a shared
    library loaded with ctypes, not an extension module, so they do not
    depend on the interpreter's version or ABI (a cpXY-cpXY tag would
    needlessly tie the wheel to one Python). They do depend on the machine
    and on the system libraries they link (Debian's Abseil, fmt, RE2,
    protobuf-lite, zlib, libarchive): the plain platform tag (e.g.
    linux_x86_64), not a manylinux one, which would promise more."""
    platform = re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())
    return "py3-none-" + platform


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\n"
            "Generator: topolint_build (python/build_backend)\n"
            "Root-Is-Purelib: false\n"
            "Tag: %s\n" % tag).encode("utf-8")


def _dist_info_files(version, tag=None):
    """(name inside the .dist-info, bytes), RECORD aside."""
    files = [("METADATA", _metadata(version)),
             ("entry_points.txt", _entry_points())]
    with open(os.path.join(SOURCE_ROOT, "LICENSE"), "rb") as f:
        files.append(("licenses/LICENSE", f.read()))
    if tag is not None:
        files.append(("WHEEL", _wheel_file(tag)))
    return files


# --- Dependencies: checked before configuring ----------------------------

# Debian packages (scripts/install-deps.sh) by what the build needs.
COMPILER_PACKAGE = "build-essential"
HEADERS = [  # header found on the compiler's search path -> package
    ("absl/base/config.h", "Abseil", "libabsl-dev"),
    ("fmt/core.h", "fmt", "libfmt-dev"),
    ("nlohmann/json.hpp", "nlohmann_json", "nlohmann-json3-dev"),
    ("zlib.h", "zlib", "zlib1g-dev"),
]
PKG_CONFIG_MODULES = [  # what CMakeLists.txt's pkg_check_modules asks for
    ("libarchive", "libarchive-dev"),
    ("protobuf-lite", "libprotobuf-dev"),
    ("re2", "libre2-dev"),
]
# Lines of a failed CMake configure -> package, should the check miss one.
CONFIGURE_ERRORS = [
    (r'provided by\s+"absl"', "libabsl-dev"),
    (r'provided by\s+"fmt"', "libfmt-dev"),
    (r'provided by\s+"nlohmann_json"', "nlohmann-json3-dev"),
    (r"No package 'libarchive' found", "libarchive-dev"),
    (r"No package 'protobuf-lite' found", "libprotobuf-dev"),
    (r"No package 're2' found", "libre2-dev"),
    (r"Could NOT find ZLIB", "zlib1g-dev"),
    (r"Could NOT find PkgConfig", "pkg-config"),
    (r"No CMAKE_CXX_COMPILER could be found", COMPILER_PACKAGE),
    (r"No CMAKE_C_COMPILER could be found", COMPILER_PACKAGE),
    (r"CMake ([0-9.]+) or higher is required", "cmake"),
]
MIN_CMAKE = (3, 25)  # CMakeLists.txt's cmake_minimum_required


def _cmake_args():
    return shlex.split(os.environ.get("TOPOLINT_CMAKE_ARGS", ""))


def _compiler(env_name, names):
    """The compiler CMake would pick: $CC / $CXX, else the usual names."""
    words = shlex.split(os.environ.get(env_name, ""))
    if words:
        found = shutil.which(words[0])
        return [found] + words[1:] if found else None
    for name in names:
        found = shutil.which(name)
        if found:
            return [found]
    return None


def _include_dirs(cxx):
    """The compiler's #include <...> search path, plus <prefix>/include of
    each CMAKE_PREFIX_PATH (environment or TOPOLINT_CMAKE_ARGS)."""
    dirs = []
    flags = shlex.split(os.environ.get("CXXFLAGS", ""))
    try:
        r = subprocess.run(cxx + flags + ["-x", "c++", "-E", "-v", "-"],
                           stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        inside = False
        for line in r.stderr.splitlines():
            if line.startswith("#include <...> search starts here"):
                inside = True
            elif line.startswith("End of search list"):
                inside = False
            elif inside:
                dirs.append(line.strip().split(" (")[0])
    except (OSError, subprocess.SubprocessError):
        pass
    prefixes = os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep)
    for arg in _cmake_args():
        if arg.startswith("-DCMAKE_PREFIX_PATH"):
            prefixes += arg.split("=", 1)[-1].split(";")
    dirs += [os.path.join(p, "include") for p in prefixes if p]
    return dirs


def _cmake_version(cmake):
    try:
        out = subprocess.run([cmake, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             universal_newlines=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"version ([0-9]+)\.([0-9]+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def missing_dependencies():
    """[(what is missing, Debian package)], in a second or so."""
    missing = []
    cmake = shutil.which("cmake")
    if cmake is None:
        missing.append(("cmake", "cmake"))
    else:
        have = _cmake_version(cmake)
        if have is not None and have < MIN_CMAKE:
            found = "cmake >= %d.%d (found %d.%d)" % (MIN_CMAKE + have)
            missing.append((found, "cmake"))
    cxx = _compiler("CXX", ("c++", "g++", "clang++"))
    if cxx is None:
        missing.append(("a C++17 compiler", COMPILER_PACKAGE))
    if _compiler("CC", ("cc", "gcc", "clang")) is None:
        missing.append(("a C compiler", COMPILER_PACKAGE))
    if cxx is not None:
        dirs = _include_dirs(cxx)
        for header, what, package in HEADERS:
            if not any(os.path.isfile(os.path.join(d, header)) for d in dirs):
                missing.append(("%s (<%s>)" % (what, header), package))
    pkg_config = shutil.which("pkg-config") or shutil.which("pkgconf")
    if pkg_config is None:
        missing.append(("pkg-config", "pkg-config"))
    else:
        for module, package in PKG_CONFIG_MODULES:
            r = subprocess.run([pkg_config, "--exists", module],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                missing.append(("%s (pkg-config module %s)" % (module, module),
                                package))
    return missing


def _fail_missing(missing, how_found):
    packages = []
    for _, package in missing:
        if package not in packages:
            packages.append(package)
    _fail("the C++ build of topolint needs what is missing here (%s):\n%s\n"
          "Install it with:\n    sudo apt-get install %s\n"
          "(scripts/install-deps.sh installs every build dependency; set "
          "TOPOLINT_SKIP_DEPENDENCY_CHECK=1 if they are installed where this "
          "check does not look)"
          % (how_found,
             "".join("  - %s: Debian package %s\n" % m for m in missing),
             " ".join(packages)))


# --- The C++ build --------------------------------------------------------

def _run_streamed(cmd, what):
    """Runs cmd with its output copied to standard error line by line (pip
    shows it with -v, and after a failure); returns (returncode, text)."""
    _log("%s: %s" % (what, " ".join(shlex.quote(c) for c in cmd)))
    kept = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace") as p:
        for line in p.stdout:
            sys.stderr.write(line)
            sys.stderr.flush()
            kept.append(line)
    return p.returncode, "".join(kept)


def _cache_home(build_dir):
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.isfile(cache):
        return None
    m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", _read(cache),
                  re.MULTILINE)
    return m.group(1) if m else None


def _build_native(build_dir):
    """Configures and builds the two targets the package bundles; returns
    the paths of the command and the library."""
    if not os.path.isfile(os.path.join(SOURCE_ROOT, "CMakeLists.txt")):
        _fail("no CMakeLists.txt in %s: the package is built from a topolint "
              "checkout" % SOURCE_ROOT)
    home = _cache_home(build_dir)
    if home is not None and os.path.realpath(home) != os.path.realpath(
            SOURCE_ROOT):
        _fail("TOPOLINT_WHEEL_BUILD_DIR=%s was configured for the source tree "
              "%s, not %s: give another directory, or remove it"
              % (build_dir, home, SOURCE_ROOT))
    if os.environ.get("TOPOLINT_SKIP_DEPENDENCY_CHECK") != "1":
        start = time.time()
        missing = missing_dependencies()
        if missing:
            _fail_missing(missing, "checked before configuring")
        _log("build dependencies found (%.1f s)" % (time.time() - start))
    cmake = shutil.which("cmake") or "cmake"
    configure = [cmake, "-S", SOURCE_ROOT, "-B", build_dir,
                 "-DCMAKE_BUILD_TYPE=Release", "-DTOPOLINT_BUILD_TESTS=OFF",
                 "-DTOPOLINT_INSTALL_PYTHON=OFF"]
    if (home is None and not os.environ.get("CMAKE_GENERATOR") and
            shutil.which("ninja")):
        configure += ["-G", "Ninja"]
    for lang in ("C", "CXX"):
        launcher = (os.environ.get("CMAKE_%s_COMPILER_LAUNCHER" % lang) or
                    os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER"))
        if launcher:
            configure.append("-DCMAKE_%s_COMPILER_LAUNCHER=%s" %
                             (lang, launcher))
    configure += _cmake_args()
    rc, out = _run_streamed(configure, "configuring the C++ build")
    if rc != 0:
        missing = [("see the CMake error above", package)
                   for pattern, package in CONFIGURE_ERRORS
                   if re.search(pattern, out)]
        if missing:
            _fail_missing(missing, "CMake's configure failed")
        _fail("CMake's configure failed (exit %d; output above)" % rc)
    build = [cmake, "--build", build_dir, "--target", "topolint",
             "topolint_c"]
    if not os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL"):
        build += ["-j", str(os.cpu_count() or 1)]
    _log("building the `topolint` command and libtopolint_c (about 170 "
         "compile steps: minutes on 2 cores for a first build, seconds with "
         "a warm ccache or a kept TOPOLINT_WHEEL_BUILD_DIR)")
    start = time.time()
    rc, _ = _run_streamed(build, "building")
    if rc != 0:
        _fail("the C++ build failed (exit %d; output above)" % rc)
    _log("built in %.0f s" % (time.time() - start))
    return _built_files(build_dir)


def _built_files(build_dir):
    binary = os.path.join(build_dir, "topolint")
    library = os.path.realpath(os.path.join(build_dir, "libtopolint_c.so"))
    for path in (binary, library):
        if not os.path.isfile(path):
            _fail("%s holds no %s" % (build_dir, os.path.basename(path)))
    return binary, library


class _NativeFiles(object):
    """The command and the library to bundle: prebuilt, or built in a kept
    or a temporary directory (removed on close)."""

    def __init__(self):
        self._scratch = None
        prebuilt = os.environ.get("TOPOLINT_WHEEL_PREBUILT")
        if prebuilt:
            _log("packaging the build in TOPOLINT_WHEEL_PREBUILT=" + prebuilt)
            self.binary, self.library = _built_files(os.path.abspath(prebuilt))
            return
        keep = os.environ.get("TOPOLINT_WHEEL_BUILD_DIR")
        if keep:
            build_dir = os.path.abspath(keep)
        else:
            build_dir = self._scratch = tempfile.mkdtemp(
                prefix="topolint-cmake-")
        try:
            self.binary, self.library = _build_native(build_dir)
        except BaseException:
            self.close()
            raise

    def close(self):
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


# --- Writing the wheel ----------------------------------------------------

def _zip_time():
    """SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    t = time.gmtime(int(epoch)) if epoch else time.localtime()
    return max(t[:6], (1980, 1, 1, 0, 0, 0))


def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _package_files():
    """(path inside the wheel, path on disk) of python/topolint's sources
    and its py.typed marker; never an _install.py left in the tree."""
    out = []
    package = os.path.join(PYTHON_DIR, NAME)
    for name in sorted(os.listdir(package)):
        path = os.path.join(package, name)
        if (os.path.isfile(path) and name != "_install.py" and
                (name.endswith(".py") or name == "py.typed")):
            out.append((NAME + "/" + name, path))
    return out


def _install_py(version):
    return ('# Written by the wheel build (python/build_backend): paths '
            'relative to this package.\n'
            'LIBRARY = "%s"\nBINARY = "%s"\nVERSION = "%s"\n'
            % (LIBRARY_IN_PACKAGE, BINARY_IN_PACKAGE, version)).encode()


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    tag = _wheel_tag()
    native = _NativeFiles()
    try:
        entries = []  # (arcname, bytes, mode)
        for arcname, path in _package_files():
            with open(path, "rb") as f:
                entries.append((arcname, f.read(), 0o644))
        entries.append((NAME + "/_install.py", _install_py(version), 0o644))
        with open(native.binary, "rb") as f:
            entries.append((NAME + "/" + BINARY_IN_PACKAGE, f.read(), 0o755))
        with open(native.library, "rb") as f:
            entries.append((NAME + "/" + LIBRARY_IN_PACKAGE, f.read(),
                            0o755))
    finally:
        native.close()
    dist_info = _dist_info(version)
    entries += [(dist_info + "/" + name, data, 0o644)
                for name, data in _dist_info_files(version, tag)]
    record = "".join("%s,%s,%d\n" % (arcname, _record_hash(data), len(data))
                     for arcname, data, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), 0o644))

    name = "%s-%s-%s.whl" % (NAME, version, tag)
    os.makedirs(wheel_directory, exist_ok=True)
    final = os.path.join(wheel_directory, name)
    partial = final + ".part"
    date_time = _zip_time()
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in entries:
            info = zipfile.ZipInfo(arcname, date_time)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(partial, final)
    _log("wrote %s" % final)
    return name


def prepare_metadata_for_build_wheel(metadata_directory,
                                     config_settings=None):
    version = _version()
    dist_info = os.path.join(metadata_directory, _dist_info(version))
    for name, data in _dist_info_files(version):
        path = os.path.join(dist_info, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return os.path.basename(dist_info)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


# --- The sdist: the repository's sources ----------------------------------

# Never in an sdist: VCS data, build trees (.gitignore's), caches.
_SKIP_DIRS = re.compile(r"^(\.git|build[^/]*|out|dist|bench/out|"
                        r"fuzz/corpus-[^/]*|.*/__pycache__|__pycache__|"
                        r".*\.egg-info)$")


def _source_files():
    """Paths relative to the root: git's tracked and not-ignored files in a
    checkout, else every file outside build trees (an unpacked sdist)."""
    # .git: a directory, or a file in a `git worktree`.
    if (os.path.exists(os.path.join(SOURCE_ROOT, ".git")) and
            shutil.which("git")):
        r = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=SOURCE_ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            names = sorted(set(n.decode() for n in r.stdout.split(b"\0") if n))
            return [n for n in names
                    if os.path.lexists(os.path.join(SOURCE_ROOT, n))]
    out = []
    for top, dirs, files in os.walk(SOURCE_ROOT):
        rel_top = os.path.relpath(top, SOURCE_ROOT)
        rel_top = "" if rel_top == "." else rel_top + "/"
        dirs[:] = sorted(d for d in dirs
                         if not _SKIP_DIRS.match(rel_top + d))
        out += [rel_top + f for f in sorted(files)
                if not f.endswith(".pyc") and rel_top + f != "PKG-INFO"]
    return out


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    base = "%s-%s" % (NAME, version)
    names = _source_files()
    for needed in ("pyproject.toml", "CMakeLists.txt", "VERSION", "LICENSE"):
        if needed not in names:
            _fail("%s is not in the source file list of %s" %
                  (needed, SOURCE_ROOT))
    epoch = os.environ.get("SOURCE_DATE_EPOCH")

    def normalize(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        if epoch:
            info.mtime = int(epoch)
        return info

    os.makedirs(sdist_directory, exist_ok=True)
    name = base + ".tar.gz"
    final = os.path.join(sdist_directory, name)
    partial = final + ".part"
    with tarfile.open(partial, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata(version)
        info = normalize(tarfile.TarInfo(base + "/PKG-INFO"))
        info.size = len(pkg_info)
        info.mode = 0o644
        if not epoch:
            info.mtime = int(time.time())
        tar.addfile(info, io.BytesIO(pkg_info))
        for rel in names:
            tar.add(os.path.join(SOURCE_ROOT, rel), arcname=base + "/" + rel,
                    recursive=False, filter=normalize)
    os.replace(partial, final)
    _log("wrote %s (%d files)" % (final, len(names) + 1))
    return name

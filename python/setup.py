"""The topolint Python package, with the checker built and bundled.

`pip install --no-build-isolation ./python` (in a venv made with
`--system-site-packages`, so that Debian's setuptools and wheel are seen)
runs this with setuptools: build_py builds the C++ command `topolint` and
the shared library libtopolint_c with CMake, from the repository root (the
parent of python/), and copies both into the package
(topolint/_bin/topolint, topolint/_lib/libtopolint_c.so), as ruff and cmake
ship their binaries. setuptools' own build and egg-info directories are put
in a temporary directory: nothing is written into the source tree.

Environment:
  TOPOLINT_WHEEL_BUILD_DIR     CMake build directory to use and keep (for
                               incremental rebuilds); default: a temporary
                               directory, removed afterwards
  CMAKE_BUILD_PARALLEL_LEVEL   parallel build jobs (CMake reads it; default:
                               all CPUs)
  CMAKE_CXX_COMPILER_LAUNCHER  e.g. ccache (CMake reads it; also for C)
  CMAKE_GENERATOR              e.g. Ninja (default: Ninja when installed)
  TOPOLINT_CMAKE_ARGS          extra configure arguments (split on blanks)
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # the wheel package (Debian's python3-wheel); absent: no bdist_wheel
    from wheel.bdist_wheel import bdist_wheel
except ImportError:
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(HERE)


def _scratch(prefix):
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


def _version():
    """The project version, from the one place it is written."""
    version_file = os.path.join(SOURCE_ROOT, "VERSION")
    if os.path.exists(version_file):
        with open(version_file) as f:
            return f.read().strip()
    with open(os.path.join(SOURCE_ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(\s*topolint\s+VERSION\s+([0-9][0-9.]*)",
                      f.read())
    if not m:
        raise RuntimeError("topolint: no version in VERSION or CMakeLists.txt")
    return m.group(1)


def _run(cmd):
    sys.stderr.write("topolint setup.py: %s\n" % " ".join(cmd))
    sys.stderr.flush()
    subprocess.run(cmd, check=True)


def _build_native(build_dir):
    """Configures and builds the two targets the package bundles."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("topolint: building the package needs cmake "
                           "(scripts/install-deps.sh installs it)")
    configure = [cmake, "-S", SOURCE_ROOT, "-B", build_dir,
                 "-DCMAKE_BUILD_TYPE=Release", "-DTOPOLINT_BUILD_TESTS=OFF",
                 "-DTOPOLINT_INSTALL_PYTHON=OFF"]
    fresh = not os.path.exists(os.path.join(build_dir, "CMakeCache.txt"))
    if fresh and not os.environ.get("CMAKE_GENERATOR") and shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    for lang in ("C", "CXX"):
        launcher = (os.environ.get("CMAKE_%s_COMPILER_LAUNCHER" % lang) or
                    os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER"))
        if launcher:
            configure.append("-DCMAKE_%s_COMPILER_LAUNCHER=%s" % (lang, launcher))
    configure += os.environ.get("TOPOLINT_CMAKE_ARGS", "").split()
    _run(configure)
    build = [cmake, "--build", build_dir, "--target", "topolint", "topolint_c"]
    if not os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL"):
        build += ["-j", str(os.cpu_count() or 1)]
    _run(build)
    binary = os.path.join(build_dir, "topolint")
    library = os.path.realpath(os.path.join(build_dir, "libtopolint_c.so"))
    for path in (binary, library):
        if not os.path.isfile(path):
            raise RuntimeError("topolint: the build did not produce " + path)
    return binary, library


class BuildPyWithChecker(build_py):
    """build_py, then the C++ checker built and copied into the package."""

    def run(self):
        super().run()
        keep = os.environ.get("TOPOLINT_WHEEL_BUILD_DIR")
        build_dir = os.path.abspath(keep) if keep else _scratch("topolint-cmake-")
        binary, library = _build_native(build_dir)
        package = os.path.join(self.build_lib, "topolint")
        for sub, src, name in (("_bin", binary, "topolint"),
                               ("_lib", library, "libtopolint_c.so")):
            self.mkpath(os.path.join(package, sub))
            self.copy_file(src, os.path.join(package, sub, name))
        with open(os.path.join(package, "_install.py"), "w") as f:
            f.write("# Written by the wheel build: paths relative to this "
                    "package.\nLIBRARY = \"_lib/libtopolint_c.so\"\n"
                    "BINARY = \"_bin/topolint\"\n")


COMMANDS = {"build_py": BuildPyWithChecker}
if bdist_wheel is not None:

    class PlatformWheel(bdist_wheel):
        """A platform wheel for any Python 3: the bundled files are native,
        but loaded through ctypes and exec, not as extension modules."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return "py3", "none", super().get_tag()[2]

    COMMANDS["bdist_wheel"] = PlatformWheel


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


_SCRATCH = _scratch("topolint-setuptools-")

setup(
    name="topolint",
    version=_version(),
    description="Collective-topology checker for XLA HLO and Neuron NEFFs",
    license="Apache-2.0",
    packages=["topolint"],
    python_requires=">=3.7",
    entry_points={"console_scripts": ["topolint = topolint.__main__:main"]},
    cmdclass=COMMANDS,
    distclass=BinaryDistribution,
    # setuptools' build/ and *.egg-info go outside the source tree.
    options={"build": {"build_base": os.path.join(_SCRATCH, "build")},
             "egg_info": {"egg_base": _SCRATCH}},
)

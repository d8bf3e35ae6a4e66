"""The package's build backend (python/build_backend/topolint_build.py),
run by ctest as python.PackageTest: the metadata, the wheel (contents,
RECORD hashes), the sdist, the dependency check, and `pip install ./python`
and `pip install .` in a plain venv with no package index.

The wheels package the ctest build's command and library
(TOPOLINT_WHEEL_PREBUILT): the CMake build the backend drives is exercised
by .ci/jobs/20-python-wheel.sh. Skipped where TOPOLINT_BINARY is not set
(tests/integration/install_test.sh runs these tests against an installed
prefix)."""
import base64
import csv
import hashlib
import importlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import venv
import zipfile

SOURCE = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), os.pardir, os.pardir))
BACKEND_DIR = os.path.join(SOURCE, "python", "build_backend")


def _read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


VERSION = _read(os.path.join(SOURCE, "VERSION")).strip()


def _backend():
    if BACKEND_DIR not in sys.path:
        sys.path.insert(0, BACKEND_DIR)
    return importlib.import_module("topolint_build")


def _build_dir():
    binary = os.environ.get("TOPOLINT_BINARY")
    return os.path.dirname(os.path.abspath(binary)) if binary else None


def _installed_env(**extra):
    """The environment of a program run from a venv: nothing pointing at the
    build tree or the checkout, no package index."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TOPOLINT_LIBRARY", "TOPOLINT_BINARY", "PYTHONPATH",
                        "TOPOLINT_WHEEL_PREBUILT", "TOPOLINT_WHEEL_BUILD_DIR")}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(extra)
    return env


def _metadata_fields(text):
    head = text.split("\n\n", 1)[0]
    fields = {}
    for line in head.splitlines():
        key, _, value = line.partition(": ")
        fields.setdefault(key, []).append(value)
    return fields


class MetadataTest(unittest.TestCase):
    def test_metadata_names_version_license_urls_and_classifiers(self):
        backend = _backend()
        with tempfile.TemporaryDirectory() as d:
            name = backend.prepare_metadata_for_build_wheel(d)
            self.assertEqual(name, "topolint-%s.dist-info" % VERSION)
            dist_info = os.path.join(d, name)
            fields = _metadata_fields(_read(os.path.join(dist_info,
                                                         "METADATA")))
            self.assertEqual(fields["Name"], ["topolint"])
            self.assertEqual(fields["Version"], [VERSION])
            self.assertEqual(fields["License-Expression"], ["Apache-2.0"])
            self.assertEqual(fields["License-File"], ["LICENSE"])
            self.assertEqual(
                _read(os.path.join(dist_info, "licenses", "LICENSE")),
                _read(os.path.join(SOURCE, "LICENSE")))
            urls = dict(u.split(", ", 1) for u in fields["Project-URL"])
            self.assertIn("Homepage", urls)
            self.assertIn("Changelog", urls)
            self.assertIn("Typing :: Typed", fields["Classifier"])
            self.assertTrue(fields["Requires-Python"][0].startswith(">=3"))
            self.assertIn("topolint = topolint.__main__:main",
                          _read(os.path.join(dist_info, "entry_points.txt")))
        # Nothing to install before building: no index needed.
        self.assertEqual(backend.get_requires_for_build_wheel(), [])
        self.assertEqual(backend.get_requires_for_build_sdist(), [])

    def test_package_version_is_the_version_file(self):
        import topolint
        self.assertEqual(topolint.__version__, VERSION)
        self.assertIn("__version__", topolint.__all__)
        self.assertTrue(os.path.isfile(os.path.join(
            os.path.dirname(topolint.__file__), "py.typed")))


class DependencyCheckTest(unittest.TestCase):
    """Missing C++ build dependencies are named as Debian packages."""

    def _missing(self, **env):
        backend = _backend()
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            return backend.missing_dependencies()
        finally:
            for k, v in saved.items():
                if v is None:
                    del os.environ[k]
                else:
                    os.environ[k] = v

    def test_this_machine_has_everything(self):
        self.assertEqual(self._missing(), [])

    def test_pkg_config_modules(self):
        missing = self._missing(PKG_CONFIG_LIBDIR="/nonexistent",
                                PKG_CONFIG_PATH="")
        self.assertEqual(sorted(p for _, p in missing),
                         ["libarchive-dev", "libprotobuf-dev", "libre2-dev"])

    def test_headers(self):
        missing = self._missing(CXXFLAGS="-nostdinc")
        self.assertEqual(sorted(p for _, p in missing),
                         ["libabsl-dev", "libfmt-dev", "nlohmann-json3-dev",
                          "zlib1g-dev"])

    def test_tools(self):
        with tempfile.TemporaryDirectory() as empty:
            missing = self._missing(PATH=empty, CC="", CXX="")
        self.assertEqual(sorted(set(p for _, p in missing)),
                         ["build-essential", "cmake", "pkg-config"])

    def test_build_stops_naming_the_packages(self):
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run(
                [sys.executable, "-c",
                 "import sys; sys.path.insert(0, sys.argv[1]); "
                 "import topolint_build as b; b.build_wheel(sys.argv[2])",
                 BACKEND_DIR, d],
                env=_installed_env(PKG_CONFIG_LIBDIR="/nonexistent",
                                   PKG_CONFIG_PATH=""),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                universal_newlines=True)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("sudo apt-get install libarchive-dev "
                          "libprotobuf-dev libre2-dev", r.stdout)
            # It stopped before configuring: nothing was built.
            self.assertNotIn("configuring the C++ build", r.stdout)
            self.assertEqual(os.listdir(d), [])


@unittest.skipUnless(_build_dir(), "TOPOLINT_BINARY is not set")
class WheelTest(unittest.TestCase):
    def _wheel(self, directory):
        backend = _backend()
        os.environ["TOPOLINT_WHEEL_PREBUILT"] = _build_dir()
        try:
            name = backend.build_wheel(directory)
        finally:
            del os.environ["TOPOLINT_WHEEL_PREBUILT"]
        return os.path.join(directory, name)

    def test_contents_and_record(self):
        with tempfile.TemporaryDirectory() as d:
            path = self._wheel(d)
            self.assertRegex(os.path.basename(path),
                             r"^topolint-%s-py3-none-linux_[a-z0-9_]+\.whl$"
                             % VERSION.replace(".", r"\."))
            dist_info = "topolint-%s.dist-info" % VERSION
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                for want in ["topolint/__init__.py", "topolint/__main__.py",
                             "topolint/_api.py", "topolint/py.typed",
                             "topolint/_install.py", "topolint/_bin/topolint",
                             "topolint/_lib/libtopolint_c.so",
                             dist_info + "/METADATA", dist_info + "/WHEEL",
                             dist_info + "/entry_points.txt",
                             dist_info + "/licenses/LICENSE",
                             dist_info + "/RECORD"]:
                    self.assertIn(want, names)
                self.assertFalse([n for n in names if "__pycache__" in n])
                mode = z.getinfo("topolint/_bin/topolint").external_attr >> 16
                self.assertTrue(mode & 0o111, oct(mode))
                wheel = z.read(dist_info + "/WHEEL").decode()
                self.assertIn("Root-Is-Purelib: false", wheel)
                self.assertIn("Tag: py3-none-linux_", wheel)
                install = z.read("topolint/_install.py").decode()
                self.assertIn('VERSION = "%s"' % VERSION, install)
                self.assertEqual(z.read("topolint/_bin/topolint"),
                                 _read(os.path.join(_build_dir(), "topolint"),
                                       "rb"))
                # RECORD lists every other file with its hash and size.
                rows = list(csv.reader(io.StringIO(
                    z.read(dist_info + "/RECORD").decode())))
                self.assertEqual(sorted(r[0] for r in rows), sorted(names))
                for name, digest, size in rows:
                    if name == dist_info + "/RECORD":
                        self.assertEqual((digest, size), ("", ""))
                        continue
                    data = z.read(name)
                    want = "sha256=" + base64.urlsafe_b64encode(
                        hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual((digest, int(size)), (want, len(data)),
                                     name)
                # The dist-info is what prepare_metadata_for_build_wheel
                # promised pip.
                with tempfile.TemporaryDirectory() as m:
                    _backend().prepare_metadata_for_build_wheel(m)
                    for name in ("METADATA", "entry_points.txt",
                                 "licenses/LICENSE"):
                        self.assertEqual(
                            z.read(dist_info + "/" + name),
                            _read(os.path.join(m, dist_info, name), "rb"))

    def test_sdist_holds_the_sources_and_builds_again(self):
        backend = _backend()
        with tempfile.TemporaryDirectory() as d:
            name = backend.build_sdist(d)
            self.assertEqual(name, "topolint-%s.tar.gz" % VERSION)
            base = "topolint-%s/" % VERSION
            with tarfile.open(os.path.join(d, name)) as tar:
                names = tar.getnames()
                for want in ["PKG-INFO", "pyproject.toml", "CMakeLists.txt",
                             "VERSION", "LICENSE", "python/pyproject.toml",
                             "python/build_backend/topolint_build.py",
                             "python/topolint/__init__.py",
                             "python/topolint/py.typed",
                             "include/topolint/topolint_c.h"]:
                    self.assertIn(base + want, names)
                self.assertFalse([n for n in names if n.startswith(base + "build")
                                  or "__pycache__" in n or "/.git/" in n])
                fields = _metadata_fields(
                    tar.extractfile(base + "PKG-INFO").read().decode())
                self.assertEqual(fields["Version"], [VERSION])
                tar.extractall(d)
            # The unpacked sdist is a source tree the backend builds from
            # (its own copy of the backend, found through pyproject.toml's
            # backend-path), with the same metadata; and its sdist is the
            # same list of files.
            unpacked = os.path.join(d, base)
            self.assertIn('backend-path = ["python/build_backend"]',
                          _read(os.path.join(unpacked, "pyproject.toml")))
            script = ("import os, sys; sys.path.insert(0, os.path.join("
                      "'python', 'build_backend')); import topolint_build as b;"
                      " print(b.build_wheel(sys.argv[1]));"
                      " print(b.build_sdist(sys.argv[2]))")
            r = subprocess.run(
                [sys.executable, "-c", script, os.path.join(d, "wheel"),
                 os.path.join(d, "sdist2")],
                cwd=unpacked, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                universal_newlines=True,
                env=_installed_env(TOPOLINT_WHEEL_PREBUILT=_build_dir()))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("py3-none-linux_", r.stdout)
            with tarfile.open(os.path.join(d, "sdist2", name)) as tar:
                self.assertEqual(sorted(tar.getnames()), sorted(names))


@unittest.skipUnless(_build_dir(), "TOPOLINT_BINARY is not set")
class PipInstallTest(unittest.TestCase):
    """`pip install ./python` and `pip install .` in a plain venv (no
    system site-packages, build isolation on) with no package index."""

    def _run(self, cmd, cwd=None, **env):
        r = subprocess.run(cmd, cwd=cwd, env=_installed_env(**env),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        self.assertEqual(r.returncode, 0, "%s:\n%s" % (cmd, r.stdout))
        return r.stdout

    def test_plain_venv_offline(self):
        with tempfile.TemporaryDirectory() as d:
            venv.EnvBuilder(with_pip=True).create(os.path.join(d, "venv"))
            bindir = os.path.join(d, "venv", "bin")
            pip = [os.path.join(bindir, "python"), "-m", "pip"]
            prebuilt = _build_dir()
            for where in ("./python", "."):
                out = self._run(pip + ["install", "--force-reinstall", where],
                                cwd=SOURCE, TOPOLINT_WHEEL_PREBUILT=prebuilt)
                self.assertIn("Successfully installed topolint-" + VERSION,
                              out)
            out = self._run([os.path.join(bindir, "python"), "-c",
                             "import sys, topolint; print(topolint.__version__);"
                             " print(topolint.library_path().startswith("
                             "sys.prefix))"], cwd=d)
            self.assertEqual(out.split(), [VERSION, "True"])
            out = self._run(pip + ["show", "topolint"], cwd=d)
            self.assertIn("Version: " + VERSION, out)
            self.assertIn("Home-page: https://", out)
            out = self._run([os.path.join(bindir, "topolint"), "--version"],
                            cwd=d)
            self.assertEqual(out, "topolint %s\n" % VERSION)
            # Nothing written into the checkout by either build.
            self.assertFalse(os.path.exists(os.path.join(
                SOURCE, "python", "topolint", "_install.py")))
            shutil.rmtree(os.path.join(d, "venv"))


if __name__ == "__main__":
    unittest.main()

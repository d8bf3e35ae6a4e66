# `pip install --no-build-isolation ./python` (offline: uses the installed
# setuptools) installs the pure-Python package; it loads libtopolint_c from
# $TOPOLINT_LIBRARY or the system library path (`cmake --install` puts it
# there and also installs this package, see docs/integration.md).
import os

from setuptools import setup


def _version():
    # The one source of the version: VERSION at the repository root (or
    # beside this file when a source distribution copied it there).
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "..", "VERSION"),
                 os.path.join(here, "VERSION")):
        if os.path.exists(path):
            with open(path) as f:
                return f.read().strip()
    raise RuntimeError("VERSION not found beside or above setup.py")


setup(
    name="topolint",
    version=_version(),
    description="Collective-topology checker for XLA HLO and Neuron NEFFs",
    license="Apache-2.0",
    packages=["topolint"],
    python_requires=">=3.7",
)

# `pip install --no-build-isolation ./python` (offline: uses the installed
# setuptools) installs the pure-Python package; it loads libtopolint_c from
# $TOPOLINT_LIBRARY or the system library path (`cmake --install` puts it
# there and also installs this package, see docs/integration.md).
from setuptools import setup

setup(
    name="topolint",
    version="0.1.0",
    description="Collective-topology checker for XLA HLO and Neuron NEFFs",
    license="Apache-2.0",
    packages=["topolint"],
    python_requires=">=3.7",
)

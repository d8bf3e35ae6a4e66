"""topolint from Python: check XLA HLO, NEFF def.json / .neff and component
configs for collective-topology errors, in process.

    import topolint
    findings = topolint.check(["models/", "/var/tmp/neuron-compile-cache"])
    findings = topolint.check_module(proto.SerializeToString(),
                                     name="out/model.hlo_module.pb", lnc=2)
    findings = topolint.check(texts={"model.hlo": hlo_text,
                                     "def.json": def_json_text})
    for f in findings:
        print(f.rule, f.severity, f.message, f.location)
    findings = topolint.check_text(big_hlo_text, name="out/model.hlo")
    info = topolint.explain(["out/model.hlo"])   # list of dicts

`python3 -m topolint ...` and the `topolint` console script run the
`topolint` command with the same arguments (see `topolint --help`).

Findings are `Finding` dataclasses (with a `Fix` of `Edit`s when the rule is
certain of one: what `topolint check --fix` would write); `Finding.to_dict()`
gives the object
`topolint check --format json` prints, as docs/findings.schema.json
describes (`FINDINGS_SCHEMA_VERSION`).

`pip install ./python` (docs/integration.md, "The Python package") builds
the checker and bundles libtopolint_c and the `topolint` command inside the
package. `topolint.__version__` is the package's version (the repository's
VERSION); `topolint.version()` that of the library it loads.

The checks run in the shared library libtopolint_c (its C API,
loaded with ctypes), which exports only its `topolint_*` functions, so it loads next to
JAX or PyTorch without symbol clashes. All functions may be called from
several threads at once.
"""
from topolint._api import (  # noqa: F401
    Edit,
    Finding,
    Fix,
    Location,
    Note,
    TopolintError,
    FINDINGS_SCHEMA_VERSION,
    check,
    check_module,
    check_text,
    explain,
    library_path,
    version,
)


def _package_version() -> str:
    """VERSION, as the build that installed the package wrote it into
    _install.py (the wheel, `cmake --install`), else read from the
    checkout the package is imported from (PYTHONPATH=python)."""
    try:
        from topolint import _install  # type: ignore

        written = getattr(_install, "VERSION", None)
        if written:
            return str(written)
    except ImportError:
        pass
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        os.pardir, os.pardir, "VERSION")
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return "0+unknown"


__version__: str = _package_version()

__all__ = [
    "__version__",
    "Edit",
    "Finding",
    "Fix",
    "Location",
    "Note",
    "TopolintError",
    "FINDINGS_SCHEMA_VERSION",
    "check",
    "check_module",
    "check_text",
    "explain",
    "library_path",
    "version",
]

"""topolint from Python: check XLA HLO, NEFF def.json / .neff and component
configs for collective-topology errors, in process.

    import topolint
    findings = topolint.check(["out/model.hlo", "out/def.json"], lnc=2)
    findings = topolint.check(texts={"model.hlo": hlo_text,
                                     "def.json": def_json_text})
    for f in findings:
        print(f.rule, f.severity, f.message, f.location)
    info = topolint.explain(["out/model.hlo"])   # list of dicts

`python3 -m topolint ...` runs the `topolint` command with the same
arguments (see `python3 -m topolint --help`).

The checks run in the shared library libtopolint_c (its C API, loaded with
ctypes), which exports only its `topolint_*` functions, so it loads next to
JAX or PyTorch without symbol clashes. All functions may be called from
several threads at once.
"""
from topolint._api import (  # noqa: F401
    Finding,
    Location,
    Note,
    TopolintError,
    check,
    explain,
    library_path,
    version,
)

__all__ = [
    "Finding",
    "Location",
    "Note",
    "TopolintError",
    "check",
    "explain",
    "library_path",
    "version",
]

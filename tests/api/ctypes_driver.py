#!/usr/bin/env python3
"""A compiler driver calling topolint through its C API with ctypes.

usage: ctypes_driver.py PATH/TO/libtopolint_c.so

Checks an in-memory def.json and an HLO module / def.json pair, and a bad
request, and verifies the findings. Exits 0 and prints "ctypes_driver: OK"
when everything is as expected; docs/integration.md shows the same code.
"""
import ctypes
import json
import re
import sys


class Topolint:
    """Thin wrapper over libtopolint_c: check(request) -> list of findings."""

    def __init__(self, path):
        self._lib = ctypes.CDLL(path)
        self._lib.topolint_check_json.argtypes = [ctypes.c_char_p]
        # c_void_p, not c_char_p: the pointer must reach topolint_free intact.
        self._lib.topolint_check_json.restype = ctypes.c_void_p
        self._lib.topolint_free.argtypes = [ctypes.c_void_p]
        self._lib.topolint_free.restype = None
        self._lib.topolint_version.restype = ctypes.c_char_p

    def version(self):
        return self._lib.topolint_version().decode()

    def check(self, request):
        ptr = self._lib.topolint_check_json(json.dumps(request).encode())
        if not ptr:
            raise MemoryError("topolint_check_json returned NULL")
        try:
            response = json.loads(ctypes.string_at(ptr).decode())
        finally:
            self._lib.topolint_free(ptr)
        if isinstance(response, dict):
            raise ValueError(response["error"])
        return response


HLO = """HloModule m, replica_count=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%add
}
"""


def expect(cond, what):
    if not cond:
        print("ctypes_driver: FAIL:", what, file=sys.stderr)
        sys.exit(1)


def main():
    expect(len(sys.argv) == 2, "usage: ctypes_driver.py LIBRARY")
    topolint = Topolint(sys.argv[1])
    expect(re.fullmatch(r"\d+\.\d+\.\d+", topolint.version()),
           "version " + topolint.version())

    # 1. An in-memory def.json whose topology 1 is empty.
    findings = topolint.check({"files": [{
        "name": "out/def.json",
        "text": '{"CCInfo": {"replica_groups": [[[0,1]], []]}}'}]})
    expect(len(findings) == 1, "one finding expected: %r" % findings)
    f = findings[0]
    expect(f["rule"] == "neff-empty-topology", f)
    expect(f["severity"] == "error", f)
    expect(f["message"].startswith(
        "Empty topology found at index 1, possible MPMD neff file"), f)
    expect((f["file"], f["line"], f["column"]) == ("out/def.json", 1, 41), f)

    # 2. An HLO module and its def.json, cross-checked as one unit; the same
    # request with the rule disabled is clean.
    unit = {"files": [
        {"name": "out/model.hlo", "text": HLO},
        {"name": "out/def.json", "kind": "def_json",
         "text": '{"CCInfo": {"replica_groups": [[[0,2],[1,3]]]}}'}]}
    findings = topolint.check(unit)
    expect([x["rule"] for x in findings] == ["xref-topology-mismatch"],
           findings)
    expect(findings[0]["notes"][0]["file"] == "out/def.json", findings)
    unit["options"] = {"rules": "-xref-*"}
    expect(topolint.check(unit) == [], "rules option ignored")

    # 3. A bad request is an error, not a crash.
    try:
        topolint.check({"options": {"lnc": 0}, "files": []})
        expect(False, "lnc 0 accepted")
    except ValueError as e:
        expect("lnc" in str(e), str(e))

    print("ctypes_driver: OK")


if __name__ == "__main__":
    main()

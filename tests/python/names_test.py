"""Paths and display names the library cannot carry as they are: bytes,
`os.fsdecode` text of bytes that are not UTF-8, NUL. Each is checked or
refused with TopolintError, never a raw TypeError / UnicodeEncodeError,
and never passed on changed. Run as python.PackageTest (unittest
discover)."""
import os
import shutil
import tempfile
import unittest

import topolint

HLO = """HloModule m, replica_count=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,0}}, to_apply=%add
}
"""
RULES = ["hlo-duplicate-device-id"]


class NamesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name: bytes) -> bytes:
        path = os.path.join(os.fsencode(self.dir), name)
        with open(path, "wb") as f:
            f.write(HLO.encode())
        return path

    def test_a_utf8_bytes_path_is_checked(self):
        path = self.write("m\u00e9.hlo".encode())
        for call in (lambda: topolint.check(path),
                     lambda: topolint.check([path])):
            findings = call()
            self.assertEqual([f.rule for f in findings], RULES)
            self.assertEqual(findings[0].location.file, os.fsdecode(path))

    def test_a_path_that_is_not_utf8_is_refused(self):
        path = self.write(b"m\xff.hlo")
        for value in (path, os.fsdecode(path)):
            for call in (lambda: topolint.check(value),
                         lambda: topolint.check([value]),
                         lambda: topolint.check(paths=[value],
                                                texts={"a.hlo": HLO}),
                         lambda: topolint.explain([value]),
                         lambda: topolint.check_text(HLO, paths=[value]),
                         lambda: topolint.check(texts={"a.hlo": HLO},
                                                config=value)):
                with self.assertRaises(topolint.TopolintError) as e:
                    call()
                self.assertEqual(e.exception.code, "invalid_argument")
                self.assertIn("not UTF-8", str(e.exception))

    def test_a_path_of_the_wrong_type_is_a_topolint_error(self):
        for value in (3, [3], object()):
            with self.assertRaises(topolint.TopolintError):
                topolint.check(value)

    def test_a_name_with_nul_is_refused_not_cut(self):
        # C would read "a\0b.hlo" as "a": refused, never renamed.
        for call in (lambda: topolint.check_text(HLO, name="a\0b.hlo"),
                     lambda: topolint.check(texts={"a\0b.hlo": HLO}),
                     lambda: topolint.check_module(HLO, name="a\0b.hlo"),
                     lambda: topolint.check(os.path.join(self.dir, "a\0b"))):
            with self.assertRaises(topolint.TopolintError) as e:
                call()
            self.assertEqual(e.exception.code, "invalid_argument")
            self.assertIn("NUL", str(e.exception))

    def test_names_that_are_not_utf8_are_refused_or_kept(self):
        # An os.fsdecode name (surrogate escapes) or bytes that are not
        # UTF-8: refused. UTF-8 bytes: decoded and kept.
        for name in ("m\udcff.hlo", b"m\xff.hlo"):
            with self.assertRaises(topolint.TopolintError):
                topolint.check_text(HLO, name=name)
            with self.assertRaises(topolint.TopolintError):
                topolint.check(texts={name: HLO})
        findings = topolint.check_text(HLO, name="m\u00e9.hlo".encode())
        self.assertEqual(findings[0].location.file, "m\u00e9.hlo")

    def test_text_decoded_with_surrogate_escapes_is_checked_as_its_bytes(self):
        # Module text read with errors="surrogateescape": its bytes are
        # checked (a comment holding a byte that is not UTF-8).
        text = (HLO + "// \xff\n").encode("latin-1").decode(
            "utf-8", "surrogateescape")
        self.assertEqual([f.rule for f in topolint.check_text(
            text, name="m.hlo")], RULES)
        self.assertEqual([f.rule for f in topolint.check(
            texts={"m.hlo": text})], RULES)
        with self.assertRaises(topolint.TopolintError):
            topolint.check_text("\ud800" + HLO, name="m.hlo")


if __name__ == "__main__":
    unittest.main()

"""topolint.check_text: one large in-memory input handed to the library in
place (topolint_check_text). Run as python.PackageTest (unittest discover)."""
import resource
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


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class CheckTextTest(unittest.TestCase):
    def test_every_buffer_type_gives_the_findings_of_check(self):
        want = [f.to_dict() for f in topolint.check(texts={"m.hlo": HLO})]
        self.assertEqual([f["rule"] for f in want],
                         ["hlo-duplicate-device-id"])
        data = HLO.encode()
        for value in (HLO, data, bytearray(data), memoryview(data),
                      memoryview(bytearray(data)),
                      HLO + "// \u00e9\n"):  # a non-ASCII str
            got = [f.to_dict() for f in topolint.check_text(value,
                                                            name="m.hlo")]
            self.assertEqual([f["rule"] for f in got], [w["rule"] for w in
                                                        want], repr(value))
            self.assertEqual(got[0]["line"], want[0]["line"])

    def test_settings_and_other_inputs(self):
        self.assertEqual(topolint.check_text(
            HLO, name="m.hlo", rules="-hlo-duplicate-device-id"), [])
        findings = topolint.check_text(
            HLO, name="out/m.hlo",
            texts={"out/def.json": {"CCInfo": {"replica_groups":
                                               [[[0, 2], [1, 3]]]}}})
        self.assertIn("xref-topology-mismatch", [f.rule for f in findings])
        with self.assertRaises(topolint.TopolintError) as e:
            topolint.check_text(HLO, name="")
        self.assertEqual(e.exception.code, "invalid_request")
        with self.assertRaises(topolint.TopolintError):
            topolint.check_text(HLO, kind="text")
        with self.assertRaises(TypeError):
            topolint.check_text(HLO, lcn=2)

    def test_a_large_text_is_not_copied(self):
        # 200 MB of ASCII str and of bytes: the call adds bounded working
        # memory, never a copy (generous bound: 64 MiB).
        line = "  %%a%d = f32[8]{0} add(f32[8]{0} %%p, f32[8]{0} %%p)\n"
        body = "".join(line % i for i in range(4000))
        head, tail = HLO.split("  ROOT %ar")
        text = head + body * (200 * 2**20 // len(body)) + "  ROOT %ar" + tail
        data = text.encode()
        for value in (text, data):
            before = peak_rss_bytes()
            findings = topolint.check_text(value, name="big.hlo")
            grown = peak_rss_bytes() - before
            self.assertEqual([f.rule for f in findings],
                             ["hlo-duplicate-device-id"])
            self.assertLess(grown, 64 * 2**20, type(value))


if __name__ == "__main__":
    unittest.main()

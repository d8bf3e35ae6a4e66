"""Tests of the topolint Python package (python/topolint), run by ctest with
PYTHONPATH=python, TOPOLINT_LIBRARY and TOPOLINT_BINARY set to the build's,
and by tests/integration/install_test.sh against an installed prefix (then
with neither variable set)."""
import json
import os
import subprocess
import sys
import tempfile
import threading
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
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%add
}
"""
TRANSPOSED_DEF = {"CCInfo": {"replica_groups": [[[0, 2], [1, 3]]]}}
GOOD_DEF = '{"CCInfo": {"replica_groups": [[[0,1],[2,3]]]}}'
EMPTY_TOPOLOGY_DEF = '{"CCInfo": {"replica_groups": [[[0,1]], []]}}'


def data_neff_prefix(fixtures):
    """The first bytes of a fixture .neff, cut inside its tar payload."""
    path = os.path.join(fixtures,
                        "neff-graphs-disagree/fail-rank-differs/model.neff")
    with open(path, "rb") as f:
        data = f.read()
    return data[:len(data) - 40]


class PackageTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(topolint.version(), r"^\d+\.\d+\.\d+$")
        self.assertTrue(os.path.exists(topolint.library_path()))

    def test_in_memory_unit_is_checked_across_files(self):
        findings = topolint.check(texts={"out/model.hlo": HLO,
                                         "out/def.json": TRANSPOSED_DEF})
        self.assertEqual([f.rule for f in findings],
                         ["xref-topology-mismatch"])
        f = findings[0]
        self.assertEqual(f.severity, "error")
        self.assertEqual(f.location.file, "out/model.hlo")
        self.assertEqual((f.location.line, f.location.column), (11, 56))
        self.assertTrue(f.notes)
        self.assertEqual(f.notes[0].location.file, "out/def.json")
        self.assertIn("out/model.hlo:11:56: error:", str(f))
        self.assertTrue(f.fingerprint)
        # The same inputs, agreeing: no findings.
        self.assertEqual(topolint.check(texts={"out/model.hlo": HLO,
                                               "out/def.json": GOOD_DEF}), [])

    def test_files_on_disk_and_settings(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "def.json")
            with open(path, "w") as out:
                out.write(EMPTY_TOPOLOGY_DEF)
            findings = topolint.check([path])
            self.assertEqual([f.rule for f in findings],
                             ["neff-empty-topology"])
            self.assertEqual(findings[0].location.file, path)
            # Severity override, rule selection, baseline.
            f = topolint.check([path],
                               severity={"neff-empty-topology": "warning"})
            self.assertEqual(f[0].severity, "warning")
            self.assertEqual(topolint.check([path], rules="-neff-*"), [])
            baseline = os.path.join(d, "baseline.json")
            subprocess.run([os.environ.get("TOPOLINT_BINARY", "topolint"),
                            "check", "-q", "--write-baseline", baseline, path],
                           check=False, capture_output=True)
            self.assertTrue(os.path.exists(baseline))
            self.assertEqual(topolint.check([path], baseline=baseline), [])

    def test_config_dict_is_a_component_config(self):
        config = {"tensor_parallel_size": 8, "data_parallel_size": 4,
                  "neuron_config": {"attention_dp_size": 4,
                                    "mlp_dp_szie": 2}}
        findings = topolint.check(texts={"vllm_config.json": config})
        typo = [f for f in findings if f.rule == "config-unknown-key"]
        self.assertEqual(len(typo), 1, findings)
        self.assertIn("did you mean 'mlp_dp_size'?", typo[0].message)
        self.assertEqual(typo[0].severity, "warning")
        self.assertEqual(typo[0].location.file, "vllm_config.json")

    def test_binary_inputs_from_memory(self):
        # A .neff and a binary HLO module as bytes: the same findings as the
        # files on disk.
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "fixtures")
        for rel, rule in [
                ("neff-graphs-disagree/fail-rank-differs/model.neff",
                 "neff-graphs-disagree"),
                ("hlo-duplicate-device-id/fail-binary-module/"
                 "model.hlo_module.pb", "hlo-duplicate-device-id")]:
            path = os.path.join(fixtures, rel)
            with open(path, "rb") as f:
                data = f.read()
            name = os.path.basename(path)
            mem = topolint.check(texts={name: data})
            disk = topolint.check([path])
            self.assertIn(rule, [x.rule for x in mem], rel)
            self.assertEqual([(x.rule, x.message) for x in mem],
                             [(x.rule, x.message) for x in disk], rel)
            self.assertTrue(mem[0].location.file.startswith(name))
        # kind "neff" for a name that does not say so; a cut-off archive is
        # a neff-schema finding, not an exception.
        cut = topolint.check(texts={"buf": data_neff_prefix(fixtures)},
                             kinds={"buf": "neff"})
        self.assertEqual([x.rule for x in cut][:1], ["neff-schema"])
        self.assertIn("truncated", cut[0].message)

    def test_errors_have_codes(self):
        with self.assertRaises(topolint.TopolintError) as e:
            topolint.check(texts={"m.hlo": HLO}, rules="no-such-rule-*")
        self.assertEqual(e.exception.code, "invalid_argument")
        with self.assertRaises(topolint.TopolintError) as e:
            topolint.check(["/nonexistent/def.json"])
        self.assertEqual(e.exception.code, "not_found")
        with self.assertRaises(topolint.TopolintError) as e:
            topolint.check(texts={"m.hlo": HLO}, lnc=0)
        self.assertEqual(e.exception.code, "invalid_argument")

    def test_explain_gives_dicts(self):
        units = topolint.explain(texts={"m.hlo": HLO,
                                        "def.json": TRANSPOSED_DEF})
        self.assertIsInstance(units, list)
        self.assertIsInstance(units[0], dict)
        ar = units[0]["hlo_modules"][0]["collectives"][0]
        self.assertEqual(ar["groups"], [[0, 1], [2, 3]])
        self.assertFalse(units[0]["neff"][0]["topology0_matches"][0]["equal"])
        text = json.dumps(units)
        self.assertIn("%ar", text)

    def test_threads(self):
        want = topolint.check(texts={"model.hlo": HLO,
                                     "def.json": TRANSPOSED_DEF})
        errors = []

        def worker():
            try:
                for _ in range(20):
                    got = topolint.check(texts={"model.hlo": HLO,
                                                "def.json": TRANSPOSED_DEF})
                    if got != want:
                        errors.append(got)
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_module_runs_the_cli(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "def.json"), "w") as out:
                out.write(EMPTY_TOPOLOGY_DEF)
            r = subprocess.run([sys.executable, "-m", "topolint", "check",
                                "--color", "never", "def.json"], cwd=d,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("def.json:1:41: error: Empty topology", r.stdout)
            r = subprocess.run([sys.executable, "-m", "topolint",
                                "--no-such-flag"], capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 2)


SOURCE_DIR = os.environ.get(
    "TOPOLINT_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(SOURCE_DIR, "fixtures")
WORKDIR = os.path.join(FIXTURES, "layouts", "compiler-workdir")
BAD_PAIR = "model.MODULE_2b3c4d5e6f7a8b9c0d1e+d41d8cd9"


def rooted(findings):
    """`findings` (dicts) with every file named relative to the source tree,
    as the CLI names them (relative to the repository root, issue 47); the
    library keeps the paths its caller gave."""
    root = os.path.abspath(SOURCE_DIR)

    def norm(path):
        full = os.path.normpath(os.path.join(os.getcwd(), path))
        rel = os.path.relpath(full, root)
        return path if rel.startswith("..") else rel

    out = json.loads(json.dumps(findings))
    for f in out:
        f["file"] = norm(f["file"])
        for n in f.get("notes", []):
            n["file"] = norm(n["file"])
        for e in f.get("fix", {}).get("edits", []):
            e["file"] = norm(e["file"])
    return out


def cli_json(*args, cwd=None):
    """`topolint check --format json ARGS` as Python data."""
    r = subprocess.run([os.environ.get("TOPOLINT_BINARY", "topolint"),
                        "check", "--format", "json", "-q"] + list(args),
                       capture_output=True, text=True, cwd=cwd)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


class DiscoveryTest(unittest.TestCase):
    """check(paths) finds units as `topolint check PATH...` does."""

    def test_directories_and_compile_caches_as_the_cli(self):
        for rel in ["hlo-duplicate-device-id", "layouts/compile-cache",
                    "layouts/compiler-workdir", "layouts"]:
            path = os.path.join(FIXTURES, rel)
            got = [f.to_dict() for f in topolint.check([path])]
            self.assertEqual(rooted(got), cli_json(path), rel)
            self.assertTrue(got, rel)
        # A workdir holds one pair whose NEFF disagrees with its module.
        rules = {(f.rule, os.path.basename(f.location.file))
                 for f in topolint.check([WORKDIR])}
        self.assertEqual(rules, {("xref-topology-mismatch",
                                  BAD_PAIR + ".hlo_module.pb")})

    def test_config_filters_apply(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "fixtures"))
            with open(os.path.join(d, "fixtures", "def.json"), "w") as out:
                out.write(EMPTY_TOPOLOGY_DEF)
            self.assertEqual(len(topolint.check([d])), 1)
            with open(os.path.join(d, ".topolint.json"), "w") as out:
                out.write('{"exclude": "^fixtures/"}')
            self.assertEqual(topolint.check([d]), [])

    def test_paths_with_texts_stay_one_unit(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "def.json")
            with open(path, "w") as out:
                out.write(json.dumps(TRANSPOSED_DEF))
            findings = topolint.check([path], texts={"m.hlo": HLO})
            self.assertEqual([f.rule for f in findings],
                             ["xref-topology-mismatch"])
            with self.assertRaises(topolint.TopolintError) as e:
                topolint.check([d], texts={"m.hlo": HLO})
            self.assertIn("use \"search\"", str(e.exception))


class CheckModuleTest(unittest.TestCase):
    def test_module_bytes_alone_and_with_its_neff(self):
        with open(os.path.join(WORKDIR, BAD_PAIR + ".hlo_module.pb"),
                  "rb") as f:
            module = f.read()
        with open(os.path.join(WORKDIR, BAD_PAIR + ".neff"), "rb") as f:
            neff = f.read()
        self.assertEqual(topolint.check_module(module, name="m.pb"), [])
        findings = topolint.check_module(module, name="out/m.hlo_module.pb",
                                         neff=neff)
        self.assertEqual([f.rule for f in findings],
                         ["xref-topology-mismatch"])
        f = findings[0]
        self.assertEqual(f.location.file, "out/m.hlo_module.pb")
        self.assertIsNotNone(f.location.byte_offset)
        self.assertIn("op %", f.location.logical_location)
        self.assertIn("op %", str(f))
        self.assertTrue(f.notes[0].location.file.startswith("out/m.neff"))

    def test_module_with_config_and_settings(self):
        with open(os.path.join(
                FIXTURES, "hlo-duplicate-device-id", "fail-binary-module",
                "model.hlo_module.pb"), "rb") as f:
            module = f.read()
        findings = topolint.check_module(module)
        self.assertEqual(findings[0].rule, "hlo-duplicate-device-id")
        self.assertEqual(findings[0].location.file, "module.hlo_module.pb")
        self.assertEqual(
            topolint.check_module(module, rules="-hlo-duplicate-device-id"),
            [])
        # The module records no device count: given, it is compared ...
        typo = topolint.check_module(
            module, neuron_config={"tp_degree": 2}, num_partitions=4)
        self.assertIn("config-world-size", [f.rule for f in typo])
        # ... and not given, it is derived from the ids its groups list
        # (0..4: 5 devices; docs/rules/config-world-size.md).
        derived = [f for f in topolint.check_module(
            module, neuron_config={"tp_degree": 2})
            if f.rule == "config-world-size"]
        self.assertEqual(len(derived), 1)
        self.assertIn("runs on 5 devices (the device ids its collectives "
                      "list, 0..4", derived[0].message)
        self.assertNotIn(
            "config-world-size",
            [f.rule for f in topolint.check_module(
                module, neuron_config={"tp_degree": 5})])


class SchemaTest(unittest.TestCase):
    """docs/findings.schema.json describes the CLI's JSON and the Python
    objects."""

    @classmethod
    def setUpClass(cls):
        import jsonschema  # python3-jsonschema (scripts/install-deps.sh)
        with open(os.path.join(SOURCE_DIR, "docs",
                               "findings.schema.json")) as f:
            cls.schema = json.load(f)
        cls.validator = jsonschema.Draft7Validator(cls.schema)
        jsonschema.Draft7Validator.check_schema(cls.schema)

    def test_version(self):
        self.assertEqual(self.schema["version"],
                         topolint.FINDINGS_SCHEMA_VERSION)

    def test_cli_output_over_fixtures_validates(self):
        out = cli_json(FIXTURES)
        self.assertGreater(len(out), 100)
        errors = list(self.validator.iter_errors(out))
        self.assertEqual(errors, [], errors[:1])
        # Both kinds of location occur, and fixes of every edit kind.
        self.assertTrue(any("byte_offset" in f for f in out))
        self.assertTrue(any(f["notes"] for f in out))
        kinds = {e["kind"] for f in out if "fix" in f
                 for e in f["fix"]["edits"]}
        self.assertEqual(kinds, {"replace", "remove_line_comment",
                                 "replace_integer_array"})

    def test_python_findings_validate_and_match_the_cli(self):
        findings = topolint.check([FIXTURES])
        dicts = [f.to_dict() for f in findings]
        self.assertEqual(list(self.validator.iter_errors(dicts)), [])
        self.assertEqual(rooted(dicts), cli_json(FIXTURES))

    def test_fixes_are_what_check_fix_writes(self):
        # Each edit of a fix in the JSON is one --diff shows: the fix of an
        # unused suppression removes that comment's line.
        case = os.path.join(FIXTURES, "unused-suppression",
                            "fail-stale-comment")
        findings = topolint.check([case])
        fixed = [f for f in findings if f.fix is not None]
        self.assertTrue(fixed)
        fix = fixed[0].fix
        self.assertIsInstance(fix, topolint.Fix)
        self.assertEqual(fix.applied_by, "--fix")
        edit = fix.edits[0]
        self.assertIsInstance(edit, topolint.Edit)
        self.assertEqual(edit.kind, "remove_line_comment")
        with open(edit.file if os.path.isabs(edit.file)
                  else os.path.join(SOURCE_DIR, edit.file)) as f:
            line = f.read().split("\n")[edit.line - 1]
        self.assertTrue(line[edit.column - 1:].startswith("//"), line)
        self.assertIn("topolint:", line[edit.column - 1:])
        diff = subprocess.run(
            [os.environ.get("TOPOLINT_BINARY", "topolint"), "check", "--diff",
             case], capture_output=True, text=True)
        self.assertIn("-" + line, diff.stdout)

    def test_schema_rejects_drift(self):
        bad = [{"rule": "x", "severity": "fatal", "message": "m",
                "file": "f", "line": 1, "column": 1, "notes": [],
                "fingerprint": "0123456789abcdef"}]
        self.assertTrue(list(self.validator.iter_errors(bad)))
        extra = cli_json(os.path.join(FIXTURES, "hlo-duplicate-device-id"))
        extra[0]["new_field"] = 1
        self.assertTrue(list(self.validator.iter_errors(extra)))


if __name__ == "__main__":
    unittest.main()

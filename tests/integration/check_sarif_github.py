"""Checks a SARIF log the way GitHub code scanning reads it.

usage: check_sarif_github.py LOG SCHEMA REPO_ROOT

Validates LOG against the SARIF 2.1.0 SCHEMA, then GitHub's documented
requirements for placing results: every result has a ruleId and a message
text, and every location an artifactLocation whose uri is relative to the
repository root (uriBaseId %SRCROOT%, declared in originalUriBaseIds), names
a file that exists under REPO_ROOT, and has a region.startLine >= 1. A rule's
helpUri, when present, is an absolute URL. Then GitHub's upload limits and
display rules ("SARIF support for code scanning", "SARIF results exceed
limits" on docs.github.com): at most 20 runs, 25,000 results and 25,000
rules a run, 1,000 locations a result (of which GitHub uses the first of
at most 10 `locations`); a rule's name at most 255 characters, its
shortDescription and fullDescription non-empty and at most 1,024, help.text
non-empty; every rule id unique; tool.driver.semanticVersion, when present,
a Semantic Versioning 2.0.0 version; every related location an id that is a
non-negative integer, unique in its result; every embedded link of a
message ("[text](N)") naming exactly one related location, every related
location linked from the message (GitHub shows related locations only
through such links), and "[", "]" inside link text escaped. Exits 1 with
a message on the first problem.
"""
import json
import os
import re
import sys
import urllib.parse

import jsonschema

SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
# A plain text message's embedded link (SARIF 2.1.0 3.11.6): link text of
# escaped or other characters, then (destination).
LINK = re.compile(r"\[((?:\\.|[^\\\[\]])*)\]\(([^)]*)\)")


def fail(msg):
    print("check_sarif_github: " + msg, file=sys.stderr)
    sys.exit(1)


def check_limits(run):
    driver = run["tool"]["driver"]
    rules = driver.get("rules", [])
    if len(rules) > 25000 or len(run["results"]) > 25000:
        fail("more than 25,000 rules or results in a run")
    version = driver.get("semanticVersion")
    if version is not None and not SEMVER.match(version):
        fail("semanticVersion %r is not a semantic version" % version)
    ids = [r["id"] for r in rules]
    if len(set(ids)) != len(ids):
        fail("a rule id is listed twice")
    for rule in rules:
        if len(rule.get("name", "")) > 255:
            fail("rule %s: name over 255 characters" % rule["id"])
        for key in ("shortDescription", "fullDescription"):
            text = rule.get(key, {}).get("text", "")
            if not text or len(text) > 1024:
                fail("rule %s: %s.text empty or over 1,024 characters (%d)"
                     % (rule["id"], key, len(text)))
        if not rule.get("help", {}).get("text"):
            fail("rule %s: no help.text" % rule["id"])
    for result in run["results"]:
        if len(result.get("locations", [])) > 10:
            fail("result %s: more than 10 locations" % result["ruleId"])
        related = result.get("relatedLocations", [])
        if len(related) + len(result.get("locations", [])) > 1000:
            fail("result %s: more than 1,000 locations" % result["ruleId"])
        rel_ids = [loc.get("id") for loc in related]
        for i in rel_ids:
            if not isinstance(i, int) or i < 0:
                fail("related location id %r is not a non-negative integer"
                     % (i,))
        if len(set(rel_ids)) != len(rel_ids):
            fail("result %s: related location ids repeat" % result["ruleId"])
        text = result["message"]["text"]
        linked = set()
        for m in LINK.finditer(text):
            dest = m.group(2)
            if not dest.isdigit() or int(dest) not in rel_ids:
                fail("message %r links to %r, no related location" %
                     (text, dest))
            linked.add(int(dest))
        if linked != set(rel_ids):
            fail("message %r does not link every related location %r" %
                 (text, rel_ids))


def main():
    log_path, schema_path, root = sys.argv[1:4]
    doc = json.load(open(log_path))
    jsonschema.validate(doc, json.load(open(schema_path)))
    checked = 0
    if len(doc["runs"]) > 20:
        fail("more than 20 runs")
    for run in doc["runs"]:
        check_limits(run)
        bases = run.get("originalUriBaseIds", {})
        if "%SRCROOT%" not in bases:
            fail("run.originalUriBaseIds lacks %SRCROOT%")
        for rule in run["tool"]["driver"].get("rules", []):
            uri = rule.get("helpUri")
            if uri is not None and not urllib.parse.urlsplit(uri).scheme:
                fail("rule %s: helpUri %r is not absolute" % (rule["id"], uri))
        for result in run["results"]:
            if not result.get("ruleId") or not result["message"].get("text"):
                fail("a result lacks ruleId or message.text")
            locs = list(result.get("locations", []))
            locs += result.get("relatedLocations", [])
            if not result.get("locations"):
                fail("result %s has no location" % result["ruleId"])
            for loc in locs:
                pl = loc["physicalLocation"]
                al = pl["artifactLocation"]
                uri = al["uri"]
                if al.get("uriBaseId") != "%SRCROOT%":
                    fail("%s: no uriBaseId %%SRCROOT%%" % uri)
                parts = urllib.parse.urlsplit(uri)
                if parts.scheme or uri.startswith("/") or ".." in uri.split("/"):
                    fail("%s is not relative to the repository root" % uri)
                path = os.path.join(root, urllib.parse.unquote(parts.path))
                if not os.path.isfile(path):
                    fail("%s does not resolve from the root (%s)" % (uri, path))
                if pl.get("region", {}).get("startLine", 0) < 1:
                    fail("%s: no region.startLine" % uri)
                checked += 1
    print("check_sarif_github: %d locations resolve" % checked)


main()

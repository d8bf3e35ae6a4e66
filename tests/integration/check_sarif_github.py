"""Checks a SARIF log the way GitHub code scanning reads it.

usage: check_sarif_github.py LOG SCHEMA REPO_ROOT

Validates LOG against the SARIF 2.1.0 SCHEMA, then GitHub's documented
requirements for placing results: every result has a ruleId and a message
text, and every location an artifactLocation whose uri is relative to the
repository root (uriBaseId %SRCROOT%, declared in originalUriBaseIds), names
a file that exists under REPO_ROOT, and has a region.startLine >= 1. A rule's
helpUri, when present, is an absolute URL. Exits 1 with a message on the
first problem.
"""
import json
import os
import sys
import urllib.parse

import jsonschema


def fail(msg):
    print("check_sarif_github: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    log_path, schema_path, root = sys.argv[1:4]
    doc = json.load(open(log_path))
    jsonschema.validate(doc, json.load(open(schema_path)))
    checked = 0
    for run in doc["runs"]:
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

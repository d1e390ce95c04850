#!/usr/bin/env python3
"""Parses every report format written by report-formats.test and checks
that each agrees with the JSON report."""
import csv
import html.parser
import json
import os
import sys

d = sys.argv[1]
report = json.load(open(os.path.join(d, "r.json")))
assert report["schema"] == "warpscope-report/1"
assert report["complete"] is True
kernels = {k["mangled"]: k for k in report["kernels"]}
assert {"_Z9alternatePii", "_Z7collatzPKiPii", "_Z9per_blockPii"} <= set(kernels)
for k in report["kernels"]:
    for key in ("name", "mangled", "launches", "branches", "blocks",
                "simd_efficiency", "branch_efficiency"):
        assert key in k, key
    for b in k["branches"]:
        assert b["divergent"] <= b["visits"]
        assert b["taken_threads"] <= b["active_threads"]
    for b in k["blocks"]:
        assert b["warp_executions"] <= b["thread_executions"] <= 32 * b["warp_executions"]

only = json.load(open(os.path.join(d, "only.json")))
assert [k["mangled"] for k in only["kernels"]] == ["_Z9alternatePii"]

rows = list(csv.DictReader(open(os.path.join(d, "r.csv"))))
assert len(rows) == sum(len(k["branches"]) for k in report["kernels"])
for r in rows:
    k = kernels[r["mangled"]]
    match = [b for b in k["branches"] if b["line"] == int(r["line"])
             and b["column"] == int(r["column"]) and b["visits"] == int(r["visits"])
             and b["divergent"] == int(r["divergent"])]
    assert match, r

sarif = json.load(open(os.path.join(d, "r.sarif")))
assert sarif["version"] == "2.1.0"
run = sarif["runs"][0]
assert run["tool"]["driver"]["name"] == "WarpScope"
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
# One result per source branch: copies of one branch are one site.
divergent = [(k["mangled"], b["line"]) for k in report["kernels"]
             for b in k["branch_sites"] if b["divergent"] and b["rate"] >= 0.1]
assert len(run["results"]) == len(divergent), (run["results"], divergent)
for res in run["results"]:
    assert res["ruleId"] in rules
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("divergence.cu")
    assert res["level"] in ("warning", "note")


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.h2, self.src_lines, self._in_h2 = 0, [], 0, False

    def handle_starttag(self, tag, attrs):
        self.tables += tag == "table"
        self._in_h2 = tag == "h2"
        if tag == "span" and ("class", "l") in attrs:
            self.src_lines += 1

    def handle_data(self, data):
        if self._in_h2:
            self.h2.append(data)
            self._in_h2 = False


page = open(os.path.join(d, "r.html")).read()
assert "http://" not in page and "https://" not in page, "no network access"
t = Tables()
t.feed(page)
# One heading per kernel; an emulated run adds the memory view's section.
kernel_h2 = [h for h in t.h2 if h.startswith(("Kernel ", "Device function "))]
assert len(kernel_h2) == len(report["kernels"]), t.h2
assert "Memory view (emulator ground truth)" in t.h2, t.h2
assert t.tables >= 1 + len(report["kernels"])
assert t.src_lines > 20, "annotated source is missing"
print("ok: json, csv, sarif and html agree")

#!/usr/bin/env python3
"""report-branch-sites.test: the unrolled branch is one site of four copies
in JSON, one SARIF result and one HTML row."""
import json
import os
import re
import sys

d = sys.argv[1]
k = json.load(open(os.path.join(d, "r.json")))["kernels"][0]
assert k["mangled"] == "_Z8unrolledPi", k["mangled"]
probed = [b for b in k["branches"] if b["probed"]]
assert len(probed) == 4 and {b["line"] for b in probed} == {9}, probed
sites = k["branch_sites"]
assert len(sites) == 1, sites
s = sites[0]
assert s["copies"] == 4 and sorted(s["branch_ids"]) == sorted(b["id"] for b in probed), s
for field in ("visits", "divergent", "active_threads"):
    assert s[field] == sum(b[field] for b in probed), field
# 64 threads = 2 warps, every copy diverges on every visit.
assert s["visits"] == 8 and s["divergent"] == 8 and s["rate"] == 1.0, s
assert s["successor0_fraction"] is None, "copies need not share a polarity"
# Each copy knows which successor is the source's true side: half of the
# 4 x 64 thread visits have bit k set.
assert all(b["source_true_successor"] in (0, 1) for b in probed), probed
assert s["source_true_fraction"] == 0.5, s

run = json.load(open(os.path.join(d, "r.sarif")))["runs"][0]
assert len(run["results"]) == 1, run["results"]
r = run["results"][0]
assert r["properties"]["copies"] == 4 and r["properties"]["visits"] == 8, r
assert "4 copies" in r["message"]["text"], r["message"]["text"]

page = open(os.path.join(d, "r.html")).read()
rows = re.findall(r"<tr><td>unrolled\.cu:9:9</td><td class=\"n\">(\d+)</td>", page)
assert rows == ["4"], rows
print("ok: one site of 4 copies in json, sarif and html")

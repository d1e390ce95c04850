#!/usr/bin/env python3
"""report-source-true.test: the share of threads that take the source
condition's true side is the same at -O0 and -O2, although the compiled
branch's polarity differs; copies and CSV agree with the JSON."""
import csv
import json
import os
import sys

d = sys.argv[1]


def sites(name):
    k = json.load(open(os.path.join(d, name)))["kernels"][0]
    assert k["mangled"] == "_Z5guardPKiPii", k["mangled"]
    return k, {s["line"]: s for s in k["branch_sites"]}


k0, s0 = sites("r0.json")
k2, s2 = sites("r2.json")
# Line 9: `if (i >= n)`; 88 of 128 threads have i >= 40.
for k, s in ((k0, s0), (k2, s2)):
    assert s[9]["active_threads"] == 128, s[9]
    assert s[9]["source_true_fraction"] == 88 / 128, s[9]
    # Line 12: `if (v % 2 == 0)`, reached by the 40 threads with i < 40.
    assert s[12]["active_threads"] == 40, s[12]
    assert s[12]["source_true_fraction"] == 20 / 40, s[12]
    for b in k["branches"]:
        assert b["source_true_successor"] in (None, 0, 1), b
# At -O0 the plugin sees clang's own branches: it knows every side.
assert all(b["source_true_successor"] is not None
           for b in k0["branches"] if b["probed"]), k0["branches"]
# The optimiser inverted the guard: its compiled branch goes to the body
# first, which "to 1st succ" shows and the source's true share does not.
g0 = [b for b in k0["branches"] if b["line"] == 9 and b["probed"]]
g2 = [b for b in k2["branches"] if b["line"] == 9 and b["probed"]]
assert [b["source_true_successor"] for b in g0] == [0], g0
assert [b["source_true_successor"] for b in g2] == [1], g2
assert s0[9]["successor0_fraction"] == 88 / 128, s0[9]
assert s2[9]["successor0_fraction"] == 40 / 128, s2[9]

rows = [r for r in csv.DictReader(open(os.path.join(d, "b2.csv")))
        if r["line"] == "9" and r["probed"] == "true"]
assert [r["source_true_threads"] for r in rows] == ["88"], rows
print("ok: source true side 88/128 at -O0 and -O2")

#!/usr/bin/env python3
"""In a -warpscope-probe-all run, branches the divergence model proved
uniform are probed too: none of them may ever have diverged. With
--expect-some, at least one of them must have run (or the check proves
nothing; at -O0 nothing is provably uniform, every value lives in memory)."""
import json
import sys

expect_some = sys.argv[1] == "--expect-some"
report = json.load(open(sys.argv[-1]))
checked = 0
for k in report["kernels"]:
    for b in k["branches"]:
        assert b["probed"], ("probe-all left a branch unprobed", k["name"], b)
        if b["uniform"] and b["visits"]:
            checked += 1
            assert b["divergent"] == 0, ("a proven-uniform branch diverged",
                                         k["name"], b)
assert checked or not expect_some, "no proven-uniform branch ran"
print("ok: %d proven-uniform branches ran, none diverged" % checked)

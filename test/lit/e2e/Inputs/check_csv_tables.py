"""check_csv_tables.py DIR: kernels.csv, blocks.csv and branches.csv hold
the numbers of r.json (the JSON report of the same profile)."""
import csv
import json
import os
import sys

d = sys.argv[1]
report = json.load(open(os.path.join(d, "r.json")))
rows = lambda name: list(csv.DictReader(open(os.path.join(d, name))))


def close(text, value):
    return (text == "" and value is None) or abs(float(text) - value) < 1e-6


kernels = rows("kernels.csv")
assert [r["mangled"] for r in kernels] == [k["mangled"] for k in report["kernels"]]
for r, k in zip(kernels, report["kernels"]):
    assert r["kernel"] == k["name"] and r["kind"] == k["kind"], (r, k)
    for col in ("launches", "warp_executions", "thread_executions"):
        assert int(r[col]) == k[col], (col, r, k)
    assert int(r["branches_probed"]) == k["branches_probed"]
    assert int(r["branches_divergent"]) == k["branches_divergent"]
    assert close(r["simd_efficiency"], k["simd_efficiency"]), r
    assert close(r["branch_efficiency"], k["branch_efficiency"]), r
    probed = [b for b in k["branches"] if b["probed"]]
    assert int(r["visits"]) == sum(b["visits"] for b in probed)
    assert int(r["divergent"]) == sum(b["divergent"] for b in probed)

blocks = rows("blocks.csv")
want = [(k["mangled"], b) for k in report["kernels"] for b in k["blocks"]]
assert len(blocks) == len(want), (len(blocks), len(want))
for r, (mangled, b) in zip(blocks, want):
    assert r["mangled"] == mangled and int(r["block"]) == b["id"], (r, b)
    assert r["file"] == b["file"] and int(r["line"]) == b["line"]
    assert int(r["warp_executions"]) == b["warp_executions"], (r, b)
    assert int(r["thread_executions"]) == b["thread_executions"], (r, b)
    simd = (b["thread_executions"] / (32.0 * b["warp_executions"])
            if b["warp_executions"] else None)
    assert close(r["simd_efficiency"], simd), (r, b)
# The blocks of a kernel add up to its executions.
for k in report["kernels"]:
    mine = [r for r in blocks if r["mangled"] == k["mangled"]]
    assert sum(int(r["thread_executions"]) for r in mine) == k["thread_executions"]

branches = rows("branches.csv")
assert len(branches) == sum(len(k["branches"]) for k in report["kernels"])
print("ok:", len(kernels), "kernels,", len(blocks), "blocks,", len(branches),
      "branches")

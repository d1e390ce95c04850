#!/usr/bin/env python3
"""Checks the JSON report of cluster-ranks.test's job (stdin): ranks 0-2 of
4, rank 3 missing, rank 2 with three times the rounds deviating in
instructions, and the per-rank numbers summing to the report's totals."""
import json
import sys

report = json.load(sys.stdin)
r = report["ranks"]
assert r["ranks"] == [0, 1, 2], r["ranks"]
assert r["world_size"] == 4 and r["missing"] == [3], r
[k] = [k for k in r["kernels"] if k["name"] == "_Z7collatzPKiPiii"]
assert k["instructions_unit"] == "ptx"
per = {p["rank"]: p for p in k["per_rank"]}
assert sorted(per) == [0, 1, 2]
assert all(p["launches"] == 1 for p in per.values())
i0, i1, i2 = (per[n]["instructions"] for n in (0, 1, 2))
assert i0 == i1 and i2 > 2.5 * i0, (i0, i1, i2)
s = k["instructions"]
assert (s["min"], s["median"], s["max"], s["max_rank"]) == (i0, i1, i2, 2), s
assert s["ranks"] == 3
dev = {(d["rank"], d["metric"]) for d in k["deviating"]}
assert (2, "instructions") in dev and (0, "instructions") not in dev, dev
assert k["divergence"]["min"] <= k["divergence"]["median"] <= k["divergence"]["max"]
assert k["imbalance"] > 1.2, k["imbalance"]
# The sections above are the sum over the ranks.
[total] = [t for t in report["kernels"] if t["mangled"] == "_Z7collatzPKiPiii"]
assert total["thread_instructions"] == i0 + i1 + i2, (total, i0, i1, i2)
assert total["launches"] == 3
print("ok")

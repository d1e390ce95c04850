#!/usr/bin/env python3
"""Checks `warpscope features` rows per launch configuration (per-launch run)
against the rows of an aggregate run of the same program: every kernel's
per-configuration counts add up to its aggregate counts, and the kernel
named in argv[3] has one row per block size in argv[4] (comma-separated)."""
import csv
import sys

per = list(csv.DictReader(open(sys.argv[1])))
agg = list(csv.DictReader(open(sys.argv[2])))
summed = ["total_instructions", "warp_instructions", "divergent_visits",
          "global_bytes", "flops"]
for row in agg:
    rows = [r for r in per if r["mangled"] == row["mangled"]]
    assert rows, "no per-configuration row for " + row["mangled"]
    assert all(r["configurations"] == "1" for r in rows), rows
    for field in summed:
        total = sum(int(r[field]) for r in rows)
        assert total == int(row[field]), (row["mangled"], field, total, row[field])
    assert sum(int(r["launches"]) for r in rows) == int(row["launches"])
blocks = sorted(int(r["block_x"]) for r in per if r["mangled"] == sys.argv[3])
want = sorted(int(b) for b in sys.argv[4].split(","))
assert blocks == want, (blocks, want)
print("configurations ok: %d rows for %d kernels" % (len(per), len(agg)))

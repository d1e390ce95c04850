"""check_heldout.py HELD.csv ROWS PROGRAMS: every row of `warpscope train
--heldout-csv` has a finite positive prediction and its APE, the rows and
programs are those trained on, and the APE is |predicted - measured| /
measured."""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == int(sys.argv[2]), len(rows)
assert len({r["program"] for r in rows}) == int(sys.argv[3])
for r in rows:
    m, p, e = float(r["measured"]), float(r["predicted"]), float(r["ape_percent"])
    assert m > 0 and p > 0 and math.isfinite(p), r
    assert abs(100 * abs(p - m) / m - e) < 0.01 + 1e-4 * e, r
print("ok")

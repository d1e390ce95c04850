"""edit_csv.py IN OUT [--drop COL] [--set ROW COL VALUE] [--add COL VALUE]
[--all COL VALUE] [--scale-program PROGRAM:FACTOR]: a copy of a dataset CSV
(comment lines kept) with columns dropped, a cell of data row ROW (0-based)
set, a column added to every row, a column set on every row, or one
program's measured times (time_ns_mean) multiplied."""
import argparse
import csv

ap = argparse.ArgumentParser()
ap.add_argument("src")
ap.add_argument("dst")
ap.add_argument("--drop", action="append", default=[])
ap.add_argument("--set", nargs=3, action="append", default=[])
ap.add_argument("--add", nargs=2, action="append", default=[])
ap.add_argument("--all", nargs=2, action="append", default=[])
ap.add_argument("--scale-program", action="append", default=[])
a = ap.parse_args()
lines = open(a.src).readlines()
comments = [l for l in lines if l.startswith("#")]
rows = list(csv.DictReader([l for l in lines if not l.startswith("#")]))
cols = [c for c in rows[0] if c not in a.drop] + [c for c, _ in a.add]
for r in rows:
    for c, v in a.add + a.all:
        r[c] = v
for row, c, v in a.set:
    rows[int(row)][c] = v
for spec in a.scale_program:
    prog, factor = spec.split(":")
    for r in rows:
        if r["program"] == prog and r["time_ns_mean"]:
            r["time_ns_mean"] = "%.6g" % (float(r["time_ns_mean"]) * float(factor))
with open(a.dst, "w", newline="") as f:
    f.writelines(comments)
    w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

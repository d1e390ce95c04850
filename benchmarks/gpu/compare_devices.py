#!/usr/bin/env python3
"""Kernel times of one device against another's (both measured), from two
time-prediction datasets (make_dataset.py output).

  compare_devices.py BASE.csv OTHER.csv [-o OUT.csv] [--markdown OUT.md]

Rows are joined on (program, size_tag, mangled name, grid, block); only rows
complete (complete=1) in both take part. Per row: time_ratio = OTHER's mean
ns per launch / BASE's, each device's clock as ncu ran it (sm cycles per ns:
sm_cycles_elapsed_max_mean / time_ns_mean), cycles_ratio, and BASE's
requested global bytes per ns (features' global_bytes / launches / mean ns:
bytes the PTX loads and stores ask for, an upper bound of DRAM traffic only
where nothing is reused from a cache). Each row gets a class from BASE's
mean time per launch and that bandwidth: `short` (< 10 us), `streaming`
(>= 10 us and >= 1000 bytes/ns), `long` (the rest). --markdown prints per
class and size the launch-time-weighted ratio (sum of OTHER's ns / sum of
BASE's, over the class's launches), the median and range of row ratios, and
the rows of the `streaming` class and of kernels >= 100 us. Python 3
standard library only.
"""
import argparse
import csv
import math
import statistics
import sys
from collections import OrderedDict, defaultdict

KEY = ("program", "size_tag", "mangled", "grid_x", "grid_y", "grid_z",
       "block_x", "block_y", "block_z")


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    return OrderedDict((tuple(r[k] for k in KEY), r) for r in rows
                       if r.get("complete") == "1")


def short(kernel):
    if kernel.startswith("_Z"):
        i = 2
        while i < len(kernel) and kernel[i].isdigit():
            i += 1
        return kernel[i:i + int(kernel[2:i] or 0)] or kernel
    return kernel


def joined(base, other):
    out = []
    for k, a in base.items():
        b = other.get(k)
        if b is None:
            continue
        ta, tb = float(a["time_ns_mean"]), float(b["time_ns_mean"])
        ca, cb = float(a["sm_cycles_elapsed_max_mean"]), float(b["sm_cycles_elapsed_max_mean"])
        n = int(a["launches"])
        bw = float(a["global_bytes"] or 0) / n / ta
        cls = "short" if ta < 1e4 else ("streaming" if bw >= 1000 else "long")
        out.append(OrderedDict(
            program=k[0], size_tag=k[1], kernel=short(k[2]), mangled=k[2],
            grid="x".join(k[3:6]), block="x".join(k[6:9]), launches=n,
            base_time_ns_mean="%.1f" % ta, other_time_ns_mean="%.1f" % tb,
            time_ratio="%.4f" % (tb / ta), base_cycles_per_ns="%.4f" % (ca / ta),
            other_cycles_per_ns="%.4f" % (cb / tb), cycles_ratio="%.4f" % (cb / ca),
            base_requested_bytes_per_ns="%.1f" % bw, cls=cls))
    return out


def markdown(rows, base_name, other_name):
    o = ["| class | size | rows | launches | time-weighted %s/%s | median row ratio | range |\n"
         % (other_name, base_name), "|---|---|---:|---:|---:|---:|---:|\n"]
    groups = defaultdict(list)
    for r in rows:
        size = "small" if r["size_tag"] == "small" else (
            "large-1" if r["size_tag"] == "large-1" else "middle")
        groups[(r["cls"], size)].append(r)
        groups[(r["cls"], "all")].append(r)
    order = [(c, s) for c in ("short", "long", "streaming")
             for s in ("small", "middle", "large-1", "all")]
    for key in order:
        g = groups.get(key)
        if not g:
            continue
        ta = sum(float(r["base_time_ns_mean"]) * r["launches"] for r in g)
        tb = sum(float(r["other_time_ns_mean"]) * r["launches"] for r in g)
        rs = [float(r["time_ratio"]) for r in g]
        o.append("| %s | %s | %d | %d | %.3f | %.3f | %.3f–%.3f |\n" % (
            key[0], key[1], len(g), sum(r["launches"] for r in g), tb / ta,
            statistics.median(rs), min(rs), max(rs)))
    clk_a = [float(r["base_cycles_per_ns"]) for r in rows if float(r["base_time_ns_mean"]) >= 1e5]
    clk_b = [float(r["other_cycles_per_ns"]) for r in rows if float(r["base_time_ns_mean"]) >= 1e5]
    if clk_a:
        o.append("\nClock as ncu ran the kernels (sm cycles per ns, rows of >= 100 µs): "
                 "%s median %.3f (%.3f–%.3f), %s median %.3f (%.3f–%.3f); ratio %.3f.\n" % (
                     base_name, statistics.median(clk_a), min(clk_a), max(clk_a),
                     other_name, statistics.median(clk_b), min(clk_b), max(clk_b),
                     statistics.median(clk_a) / statistics.median(clk_b)))
    o.append("\n| program | size | kernel | launches | %s µs/launch | %s µs/launch | time ratio | cycles ratio | %s requested GB/s | class |\n"
             % (base_name, other_name, base_name))
    o.append("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n")
    agg = OrderedDict()
    for r in rows:
        if r["cls"] != "streaming" and float(r["base_time_ns_mean"]) < 1e5:
            continue
        agg.setdefault((r["program"], r["size_tag"], r["kernel"], r["cls"]), []).append(r)
    for (p, s, k, c), g in agg.items():
        n = sum(r["launches"] for r in g)
        ta = sum(float(r["base_time_ns_mean"]) * r["launches"] for r in g)
        tb = sum(float(r["other_time_ns_mean"]) * r["launches"] for r in g)
        ca = sum(float(r["base_time_ns_mean"]) * float(r["base_cycles_per_ns"]) * r["launches"] for r in g)
        cb = sum(float(r["other_time_ns_mean"]) * float(r["other_cycles_per_ns"]) * r["launches"] for r in g)
        bw = statistics.median(float(r["base_requested_bytes_per_ns"]) for r in g)
        o.append("| %s | %s | %s | %d | %.1f | %.1f | %.3f | %.3f | %.0f | %s |\n" % (
            p, s, k, n, ta / n / 1e3, tb / n / 1e3, tb / ta, cb / ca, bw, c))
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("other")
    ap.add_argument("-o", "--output")
    ap.add_argument("--markdown")
    ap.add_argument("--names", default="H100,H200", help="BASE,OTHER labels")
    a = ap.parse_args()
    rows = joined(load(a.base), load(a.other))
    if not rows:
        sys.exit("compare_devices.py: no complete row in both")
    if a.output:
        with open(a.output, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    names = a.names.split(",")
    text = markdown(rows, names[0], names[1])
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

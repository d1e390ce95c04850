#!/usr/bin/env python3
"""Probe overhead and power per benchmark from session.sh's overhead phase.

    overhead_power.py DIR [--csv OUT]

DIR holds `overhead.csv` (one row per run: program, variant plain|inst,
size, loading lazy|eager, pass, time_ms and the timed section's wall-clock
interval) and `power.csv` or `power.csv.gz` (power_sampler.py). Prints, per program, size and
loading, the plain and instrumented time_ms and their ratio, and where the
section spans whole NVML windows, each build's average power and energy.

NVML updates its energy counter every 100 ms (measured on the H200 of
2026-11-27): a counter step at time u covers (u - window, u]. A section's
power is the sum of the steps whose windows lie inside it over their
duration; a section shorter than one window has no power. The first
sample seeing a step is up to one sampling period late, which shifts the
windows by at most that.
"""
import argparse
import bisect
import csv
import gzip
import math
import os
import sys

WINDOW_NS = 100_000_000


def energy_steps(path):
    """[(time_ns, delta_mj)] where the energy counter changed."""
    steps, last = [], None
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for r in csv.DictReader(f):
            if not r["energy_mj"]:
                continue
            e, t = int(r["energy_mj"]), int(r["time_ns"])
            if last is not None and e != last:
                steps.append((t, e - last))
            last = e
    return steps


def section_power(steps, times, start, end):
    """(watts, windows) over [start, end], or (None, 0)."""
    i = bisect.bisect_left(times, start + WINDOW_NS)
    j = bisect.bisect_right(times, end)
    if j <= i:
        return None, 0
    mj = sum(d for _, d in steps[i:j])
    return mj / ((j - i) * WINDOW_NS / 1e6), j - i


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--csv")
    a = ap.parse_args(argv)
    try:
        runs = list(csv.DictReader(open(a.dir + "/overhead.csv")))
        steps = energy_steps(a.dir + "/power.csv")
    except (OSError, KeyError) as e:
        sys.exit("overhead_power.py: %s: not an overhead phase's folder (%s)"
                 % (a.dir, e))
    times = [t for t, _ in steps]
    by = {}
    for r in runs:
        key = (r["program"], r["size"], r["loading"])
        w = n = None
        if r["section_start_ns"] and r["section_end_ns"]:
            w, n = section_power(steps, times, int(r["section_start_ns"]),
                                 int(r["section_end_ns"]))
        ok = r["pass"] == "1" and r["time_ms"]
        by.setdefault(key, {})[r["variant"]] = (
            float(r["time_ms"]) if ok else None, w, n)
    header = ["program", "size", "loading", "plain_ms", "inst_ms", "overhead",
              "plain_w", "inst_w", "plain_windows", "inst_windows",
              "plain_j", "inst_j"]
    out = open(a.csv, "w", newline="") if a.csv else sys.stdout
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(header)
    ratios = {}
    for key in sorted(by):
        p, i = by[key].get("plain"), by[key].get("inst")
        if not p or not i:
            continue
        ov = i[0] / p[0] if p[0] and i[0] else None
        if ov:
            ratios.setdefault(key[1:], []).append(ov)
        f = lambda v, fmt: fmt % v if v is not None else ""
        wr.writerow([*key, f(p[0], "%.3f"), f(i[0], "%.3f"), f(ov, "%.3f"),
                     f(p[1], "%.1f"), f(i[1], "%.1f"), p[2] or 0, i[2] or 0,
                     f(p[1] * p[0] / 1e3 if p[1] and p[0] else None, "%.2f"),
                     f(i[1] * i[0] / 1e3 if i[1] and i[0] else None, "%.2f")])
    for (size, load), rs in sorted(ratios.items()):
        g = math.exp(sum(math.log(x) for x in rs) / len(rs))
        sys.stderr.write("%s %s: %d programs, geomean %.2fx, max %.2fx\n"
                         % (size, load, len(rs), g, max(rs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

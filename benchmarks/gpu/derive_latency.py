#!/usr/bin/env python3
"""The latency of a dependent DRAM access that a GPU's measured kernel
times show, derived through the timing model (issue 34).

  derive_latency.py DATASET.csv --build DIR --program P --size small|middle|large
                    --kernel K [--model-config C] [--values L0,L1]
                    [--model-clock base] [--timeout S] -o OUT

Runs P at the size twice, as calibrate.py runs it, with the configuration's
dram_latency set to L0 and to L1 cycles (dram_latency_ns removed), and
takes, per launch configuration (grid, block) of kernel K, the mean
modeled SM cycles of its launches without the launch's fixed cost. The
model is linear in the latency where the latency is on the critical path:
modeled(L) = a + b L, b being how many DRAM latencies the configuration's
critical path holds. The dataset's measured SM cycles (ncu's
sm__cycles_elapsed.max, per launch) then give, over the configurations,
measured - a = c + b L: the least-squares (and Theil-Sen) slope L is the
latency the GPU shows per dependent DRAM access in SM cycles at the clock
ncu ran at; c is what the model does not have per launch (ncu's fixed part
of the elapsed cycles). A kernel whose configurations differ in the number
of dependent DRAM accesses on their critical path (lu_step: one more chain
of 9 per 128 columns of the trailing matrix) gives a slope with a narrow
spread; the residuals say how linear it is. Prints L in cycles and in ns at
the measured clock, and writes OUT/configurations.csv (grid, b, a,
measured). Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import statistics
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calibrate  # noqa: E402  (runs a program as the calibration does)
from model_compare import theil_sen  # noqa: E402
import compare_devices  # noqa: E402  (the dataset reader)

DEFAULT_CONFIG = os.path.join(os.path.dirname(os.path.dirname(HERE)), "runtime", "emu",
                              "timing", "configs", "h100-sxm.json")


def die(msg):
    sys.exit("derive_latency.py: " + msg)


def config_with(base, cycles, path):
    """Writes base with dram_latency = cycles (and no dram_latency_ns)."""
    cfg = OrderedDict((k, v) for k, v in base.items() if k != "dram_latency_ns")
    cfg["dram_latency"] = OrderedDict(value=cycles, source="derive_latency.py")
    with open(path, "w") as f:
        json.dump(cfg, f, indent=1)


def modeled_cycles(d, kernel):
    """{(grid, block): mean modeled SM cycles without the fixed launch cost}
    of the kernel's launches in run directory d."""
    by = calibrate.read_launches(d, lambda m: m["cycles"] - m.get("launch_cycles", 0))
    return {(g, b): statistics.mean(v) for (k, g, b), v in by.items()
            if compare_devices.short(k) == kernel}


def measured(dataset, program, size_tag, kernel):
    """({(grid, block): measured SM cycles per launch}, median MHz) of the
    dataset's rows of the kernel that have cycles."""
    out, clocks = {}, []
    with open(dataset) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            if (r["program"], r["size_tag"]) != (program, size_tag) or \
                    compare_devices.short(r["mangled"]) != kernel:
                continue
            if not r["sm_cycles_elapsed_max_mean"] or not r["time_ns_mean"]:
                continue
            key = (tuple(int(r[k]) for k in ("grid_x", "grid_y", "grid_z")),
                   tuple(int(r[k]) for k in ("block_x", "block_y", "block_z")))
            out[key] = float(r["sm_cycles_elapsed_max_mean"])
            clocks.append(out[key] / float(r["time_ns_mean"]) * 1e3)
    return out, (statistics.median(clocks) if clocks else 0.0)


def least_squares(xs, ys):
    """(slope, intercept, r2) of ys on xs."""
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    icpt = my - slope * mx
    ss = sum((y - my) ** 2 for y in ys)
    res = sum((y - icpt - slope * x) ** 2 for x, y in zip(xs, ys))
    return slope, icpt, 1 - res / ss if ss else 1.0


def fit(points, l0, l1):
    """[(key, b, a, y)] and the fits from {key: (m0, m1, measured)}."""
    rows = []
    for key, (m0, m1, y) in sorted(points.items()):
        b = (m1 - m0) / (l1 - l0)
        if b > 0:
            rows.append((key, b, m0 - b * l0, y))
    if len(rows) < 3 or max(r[1] for r in rows) - min(r[1] for r in rows) < 1:
        die("fewer than 3 configurations, or all with the same number of DRAM "
            "latencies on their critical path: the kernel cannot separate the latency")
    xs = [r[1] for r in rows]
    ys = [r[3] - r[2] for r in rows]
    # Pairs of configurations at least one latency apart: b comes from
    # two runs' difference and repeats up to rounding.
    return rows, least_squares(xs, ys), theil_sen(xs, ys, min_dx=1)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset")
    ap.add_argument("--build", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--size", required=True, choices=("small", "middle", "large"))
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--model-config", default=DEFAULT_CONFIG)
    ap.add_argument("--model-clock", default="base")
    ap.add_argument("--values", default="480,960")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    l0, l1 = (float(v) for v in a.values.split(","))
    if l0 == l1:
        die("--values: two different latencies")
    if os.path.exists(a.output):
        die("%s exists: name a new output folder" % a.output)
    os.makedirs(a.output)
    with open(a.model_config) as f:
        base = json.load(f, object_pairs_hook=OrderedDict)
    runs = calibrate.runs({a.program}, [a.size])
    if not runs:
        die("%s is not in benchmarks/gpu/sizes.txt" % a.program)
    program, size, name = runs[0]
    mods = []
    for v in (l0, l1):
        cfg = os.path.join(a.output, "config-%g.json" % v)
        config_with(base, v, cfg)
        d = os.path.join(a.output, "value-%g" % v)
        rc, dt, _ = calibrate.run_one(a.build, d, program, size, cfg, a.model_clock, a.timeout)
        if rc != 0:
            die("%s %s with dram_latency %g: rc=%s after %.0f s" % (program, size, v, rc, dt))
        mods.append(modeled_cycles(d, a.kernel))
    meas, mhz = measured(a.dataset, program, name, a.kernel)
    points = {k: (mods[0][k], mods[1][k], y) for k, y in meas.items()
              if k in mods[0] and k in mods[1]}
    rows, (slope, icpt, r2), ts = fit(points, l0, l1)
    with open(os.path.join(a.output, "configurations.csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(["grid", "block", "dram_latencies", "modeled_rest_cycles", "measured_cycles"])
        for (g, bl), b, rest, y in rows:
            w.writerow(["x".join(map(str, g)), "x".join(map(str, bl)),
                        "%.3f" % b, "%.1f" % rest, "%.1f" % y])
    print("%s %s %s: %d configurations, %.1f-%.1f DRAM latencies on the critical path"
          % (program, name, a.kernel, len(rows), min(r[1] for r in rows),
             max(r[1] for r in rows)))
    print("dram latency: %.0f cycles (least squares, R^2 %.3f; fixed %+.0f cycles per "
          "launch), %.0f cycles (Theil-Sen)" % (slope, r2, icpt, ts))
    print("at the measured clock %.0f MHz: %.0f ns (least squares), %.0f ns (Theil-Sen)"
          % (mhz, slope / mhz * 1e3, ts / mhz * 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main())

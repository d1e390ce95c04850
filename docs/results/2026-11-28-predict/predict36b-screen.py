#!/usr/bin/env python3
"""The screen of docs/results/2026-11-28-predict.md, "Tried, measured held out,
not kept" (branch predict36b). Not the product: a quick look, with
scikit-learn, at whether a feature family or a loss could carry over to
held-out programs before building it into `warpscope train`.

  predict36b-screen.py stalls RUNS -o STALLS.csv
  predict36b-screen.py screen TRAIN.csv [--stalls STALLS.csv]

`stalls` reads RUNS/P-TAG/pcsamples-*.json of emulated runs made with
`warpscope run --emulate --stall-cycles` and writes each (program, size,
kernel)'s share of the exact stall cycles per reason, and the share of the
cycles its sub-partition issued nothing (not-issued twins over all).

`screen` predicts every row of TRAIN.csv (a dataset of
emulated_features.py join) from the other programs' rows, leave one program
out: the margin of docs/prediction.md (floor and clock measured on the
fold's training rows) plus a correction fitted on log(measured / margin)
with rows weighted so every program counts alike. It prints, per setting,
the figures by rows, per (program, size, kernel) and for nw, lu, gaussian.
"""
import argparse
import collections
import csv
import glob
import json
import math
import os

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler

REASONS = ["long_scoreboard", "short_scoreboard", "wait", "barrier",
           "selected", "not_selected", "math_pipe_throttle", "lg_throttle",
           "mio_throttle", "no_instructions", "branch_resolving", "drain",
           "membar"]
PREFIX = "smsp__pcsamp_warps_issue_stalled_"
# h100-sxm, as warpscope train reads it (docs/prediction.md, the analytic terms).
SMS, SUB, DRAM_GBPS, WARPS, CTAS, LATENCY = 132, 4, 3350, 64, 32, 8


def cmd_stalls(a):
    out = []
    for d in sorted(glob.glob(os.path.join(a.runs, "*"))):
        if not os.path.isdir(d):
            continue
        prog, tag = os.path.basename(d).rsplit("-", 1)
        if tag == "1":
            prog, tag = prog.rsplit("-", 1)[0], "large-1"
        acc = collections.defaultdict(collections.Counter)
        for f in glob.glob(os.path.join(d, "pcsamples-*.json")):
            for pc in json.load(open(f))["pcs"]:
                for k, v in pc.get("stall_cycles", {}).items():
                    acc[pc["function"]][k] += v
        for fn, c in acc.items():
            tot = sum(v for k, v in c.items() if not k.endswith("_not_issued"))
            idle = sum(v for k, v in c.items() if k.endswith("_not_issued"))
            row = {"program": prog, "size_tag": tag, "mangled": fn}
            for s in REASONS:
                row[s] = c[PREFIX + s] / tot if tot else 0
            row["not_issued"] = idle / tot if tot else 0
            out.append(row)
    with open(a.o, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["program", "size_tag", "mangled"] +
                           REASONS + ["not_issued"])
        w.writeheader()
        w.writerows(out)


def num(r, k):
    try:
        return float(r[k])
    except (KeyError, TypeError, ValueError):
        return float("nan")


def features(r, floor, clock, stalls):
    """Feature version 1 (PredictFeatures.cpp), the stall shares, the margin."""
    L = num(r, "launches")
    ctas = num(r, "grid_x") * num(r, "grid_y") * num(r, "grid_z")
    tpc = num(r, "block_x") * num(r, "block_y") * num(r, "block_z")
    wpc = math.ceil(tpc / 32)
    waves = ctas / (SMS * max(1, min(CTAS, math.floor(WARPS / wpc))))
    wi = num(r, "warp_instructions") / L
    warps = max(1, ctas * wpc)
    issue = wi / (max(1, min(ctas, SMS)) * SUB) / clock
    mem = num(r, "global_bytes") / L / (DRAM_GBPS * 1e3)
    lat = (wi / warps) * math.ceil(max(waves, 1e-9)) * LATENCY / clock
    top = max(issue, mem, lat, 1e-9)
    analytic = floor + top
    modeled = float("nan")
    if r["modeled_cycles"]:
        lc = num(r, "modeled_launch_cycles") if r["modeled_launch_cycles"] else 0
        modeled = floor + (num(r, "modeled_cycles") - lc) / L / clock
    threads = max(1, ctas * tpc)

    def per_thread(s):
        return math.log1p(s / L / threads)

    def ratio(n, d):
        return n / d if d > 0 else float("nan")
    v1 = [math.log(analytic), issue / top, mem / top, lat / top,
          math.log(max(waves, 1e-9)), tpc, math.log(max(wi / warps, 1e-9)),
          num(r, "simd_efficiency"), num(r, "branch_efficiency"),
          per_thread(num(r, "global_bytes")),
          per_thread(num(r, "shared_bytes_moved")), per_thread(num(r, "sync")),
          math.log(modeled / analytic) if modeled == modeled else float("nan"),
          ratio(num(r, "global_sectors"), num(r, "global_ideal_sectors")),
          ratio(num(r, "shared_wavefronts"), num(r, "shared_ideal_wavefronts")),
          ratio(num(r, "atomic_addresses"), num(r, "truth_warp_instructions"))]
    s = stalls.get((r["program"], r["size_tag"], r["mangled"]))
    shares = [num(s, k) if s and modeled == modeled else float("nan")
              for k in REASONS + ["not_issued"]]
    return v1, shares, math.log(modeled if modeled == modeled else analytic)


def calibrate(rows):
    floor = min(num(r, "time_ns_mean") / 1000 for r in rows)
    clocks = sorted(num(r, "sm_cycles_elapsed_max_mean") / num(r, "time_ns_mean")
                    * 1000 for r in rows if num(r, "time_ns_mean") >= 100000)
    return floor, clocks[len(clocks) // 2]


def screen(rows, stalls, tag, which, learner):
    pred = {}
    for p in sorted(set(r["program"] for r in rows)):
        train = [r for r in rows if r["program"] != p]
        test = [r for r in rows if r["program"] == p]
        floor, clock = calibrate(train)

        def matrix(rs):
            X, m = [], []
            for r in rs:
                v1, sh, margin = features(r, floor, clock, stalls)
                X.append({"v1": v1, "v1+stall": v1 + sh, "stall": sh}[which])
                m.append(margin)
            return np.nan_to_num(np.array(X), nan=-1.0), np.array(m)
        Xtr, mtr = matrix(train)
        Xte, mte = matrix(test)
        y = np.log([num(r, "time_ns_mean") / 1000 for r in train]) - mtr
        count = collections.Counter(r["program"] for r in train)
        w = np.array([1.0 / count[r["program"]] for r in train])
        corr = learner(Xtr, y, w, Xte) if learner else 0
        for r, v in zip(test, np.maximum(np.exp(mte + corr), floor)):
            pred[id(r)] = v
    ape = [abs(pred[id(r)] / (num(r, "time_ns_mean") / 1000) - 1) * 100
           for r in rows]
    by = collections.defaultdict(list)
    kernels = collections.defaultdict(lambda: [0.0, 0.0])
    for r, e in zip(rows, ape):
        by[r["program"]].append(e)
        k = kernels[(r["program"], r["size_tag"], r["kernel"])]
        k[0] += pred[id(r)] * num(r, "launches")
        k[1] += num(r, "time_ns_mean") / 1000 * num(r, "launches")
    kape = [abs(a / b - 1) * 100 for a, b in kernels.values()]
    print("%-34s rows %5.1f%% MAPE %5.1f%% %3.0f%% progs %5.1f%% | kernels "
          "%5.1f%% %3.0f%% | nw %.1f%% lu %.1f%% gaussian %.1f%%" % (
              tag, np.median(ape), np.mean(ape),
              100 * np.mean(np.array(ape) <= 15),
              np.median([np.median(v) for v in by.values()]), np.median(kape),
              100 * np.mean(np.array(kape) <= 15), np.median(by["nw"]),
              np.median(by["lu"]), np.median(by["gaussian"])))


def boosted(n, depth, loss):
    def fit(X, y, w, Xte):
        g = GradientBoostingRegressor(loss=loss, n_estimators=n,
                                      learning_rate=0.03, max_depth=depth,
                                      subsample=0.7, random_state=0,
                                      min_samples_leaf=5)
        return g.fit(X, y, sample_weight=w).predict(Xte)
    return fit


def ridge(alpha):
    def fit(X, y, w, Xte):
        s = StandardScaler().fit(X)
        return Ridge(alpha=alpha).fit(s.transform(X), y,
                                      sample_weight=w).predict(s.transform(Xte))
    return fit


def cmd_screen(a):
    with open(a.train) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    rows = [r for r in rows if r["complete"] != "0" and r["exact"] == "yes"]
    stalls = {}
    if a.stalls:
        for r in csv.DictReader(open(a.stalls)):
            stalls[(r["program"], r["size_tag"], r["mangled"])] = r
    screen(rows, stalls, "margin alone", "v1", None)
    settings = [("10 rounds depth 3", 10, 3), ("50 rounds of stumps", 50, 1),
                ("100 rounds depth 2", 100, 2)]
    for loss in ["huber", "absolute_error", "squared_error"]:
        for name, n, d in settings:
            screen(rows, stalls, "v1 %s %s" % (loss, name), "v1",
                   boosted(n, d, loss))
    for alpha in [10, 100, 1000]:
        screen(rows, stalls, "v1 ridge %g" % alpha, "v1", ridge(alpha))
    if not stalls:
        return
    for name, n, d in settings:
        for which in ["v1+stall", "stall"]:
            screen(rows, stalls, "%s huber %s" % (which, name), which,
                   boosted(n, d, "huber"))
    for alpha in [100, 1000]:
        screen(rows, stalls, "stall ridge %g" % alpha, "stall", ridge(alpha))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stalls")
    s.add_argument("runs")
    s.add_argument("-o", required=True)
    c = sub.add_parser("screen")
    c.add_argument("train")
    c.add_argument("--stalls")
    a = ap.parse_args()
    {"stalls": cmd_stalls, "screen": cmd_screen}[a.cmd](a)


if __name__ == "__main__":
    main()

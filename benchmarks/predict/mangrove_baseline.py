#!/usr/bin/python3
"""GPU Mangrove's method (Braun et al.) on a WarpScope training dataset,
leaving one program out at a time: the baseline of docs/prediction.md.

  mangrove_baseline.py TRAIN.csv -o HELDOUT.csv [--trees 512]
                       [--criterion absolute_error] [--cap 100] [--seed 0]

Uses Debian's python3-sklearn (hence /usr/bin/python3); not part of the
product. What it takes from the paper (section 3):

- features: its 12 (threads per CTA, CTAs, total instructions, special,
  logic, control, arithmetic and sync operations, global, param and shared
  memory volume, arithmetic intensity = arithmetic / (global + param
  volume)), per launch. The dataset has WarpScope's `features` columns, not
  CUDA Flux's opcode groups, so the groups are WarpScope's (docs/
  report-schema.md: e.g. its arithmetic counts int and fp classes, GPU
  Mangrove's also moves, compares and conversions);
- model: scikit-learn's ExtraTreesRegressor on log(time), with the
  hyperparameters its nested cross-validation chose for time on the four
  server GPUs (Table 4): MAE criterion, all features per split (`max`), 512
  trees;
- training samples: at most 100 per program, size and kernel, drawn at
  random (section 4.2.3, reduction of over-represented kernels).

Rows used: those `warpscope train` uses (complete = 1, exact = yes, a
positive time_ns_mean). Each program's rows are predicted by a forest
trained on the other programs' rows, the splits of `warpscope train`'s
leave-one-program-out. Writes program, kernel, grid, block, launches,
measured and predicted microseconds per launch, APE; prints the errors and
the time to predict one row alone (the last fold's forest, 50 rows, one
thread).
"""
import argparse
import csv
import math
import sys
import time

import numpy as np
from sklearn.ensemble import ExtraTreesRegressor


def rows_of(path):
    lines = [l for l in open(path) if not l.startswith("#")]
    out = []
    for r in csv.DictReader(lines):
        if r.get("complete", "1") == "0" or r["exact"] != "yes":
            continue
        if not r.get("time_ns_mean"):
            continue
        out.append(r)
    return out


def num(r, k):
    v = r.get(k, "")
    return float(v) if v not in ("", None) else 0.0


def features(r):
    n = num(r, "launches")
    arith, glob, param = (num(r, "arithmetic") / n, num(r, "global_bytes") / n,
                          num(r, "param_bytes") / n)
    ai = arith / (glob + param) if glob + param else 0.0
    return [num(r, "threads_per_cta"), num(r, "ctas"),
            num(r, "total_instructions") / n, num(r, "special") / n,
            num(r, "logic") / n, num(r, "control") / n, arith,
            num(r, "sync") / n, glob, param, num(r, "shared_bytes_moved") / n, ai]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("-o", required=True)
    ap.add_argument("--trees", type=int, default=512)
    ap.add_argument("--criterion", default="absolute_error")
    ap.add_argument("--cap", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rows = rows_of(a.dataset)
    X = np.array([features(r) for r in rows])
    y = np.array([num(r, "time_ns_mean") / 1000.0 for r in rows])
    prog = np.array([r["program"] for r in rows])
    group = np.array(["%s|%s|%s" % (r["program"], r.get("size_tag", ""),
                                    r["mangled"])
                      for r in rows])
    rng = np.random.RandomState(a.seed)
    pred = np.full(len(rows), np.nan)
    for p in sorted(set(prog)):
        train = np.where(prog != p)[0]
        keep = []
        for g in sorted(set(group[train])):
            idx = train[group[train] == g]
            if len(idx) > a.cap:
                idx = rng.choice(idx, a.cap, replace=False)
            keep.extend(idx)
        keep = np.array(sorted(keep))
        m = ExtraTreesRegressor(n_estimators=a.trees, criterion=a.criterion,
                                max_features=1.0, random_state=a.seed, n_jobs=1)
        m.fit(X[keep], np.log(y[keep]))
        test = prog == p
        pred[test] = np.exp(m.predict(X[test]))
    each = []
    for i in range(min(50, len(rows))):
        start = time.perf_counter()
        m.predict(X[i:i + 1])
        each.append(1000 * (time.perf_counter() - start))
    ape = np.abs(pred - y) / y * 100
    with open(a.o, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["program", "kernel", "grid_x", "grid_y", "grid_z", "block_x",
                    "block_y", "block_z", "launches", "measured", "predicted",
                    "ape_percent"])
        for r, m, pr, e in zip(rows, y, pred, ape):
            w.writerow([r["program"], r["kernel"]] +
                       [r[k] for k in ("grid_x", "grid_y", "grid_z", "block_x",
                                       "block_y", "block_z", "launches")] +
                       ["%.6g" % m, "%.6g" % pr, "%.2f" % e])
    print("GPU Mangrove's method, leave-one-program-out on %d programs (%d rows): "
          "median APE %.1f%%, MAPE %.1f%%, %.0f%% within 15%%"
          % (len(set(prog)), len(rows), np.median(ape), ape.mean(),
             100.0 * (ape <= 15).mean()), file=sys.stderr)
    print("prediction time, one row alone (%d trees): mean %.1f ms, median "
          "%.1f ms, largest %.1f ms (%d rows)" % (a.trees, np.mean(each),
                                                   np.median(each), max(each),
                                                   len(each)), file=sys.stderr)


if __name__ == "__main__":
    main()

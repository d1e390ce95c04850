#!/usr/bin/python3
"""The evaluation table of docs/results/<date>-prediction.md.

  evaluate.py TRAIN.csv --build BUILD [--mangrove HELDOUT.csv] [-o OUT.md]
              [--label TEXT] [--work DIR [--reuse]] [--name NAME]
              [--train-arg 'OPTION VALUE' ...]

On the rows `warpscope train` uses, with leave-one-program-out splits (no
kernel of the held-out program in training), for each method: MAPE, median
APE, share within ±15%, and the median over programs of each program's
median APE (every program counts once; the row figures are dominated by
the programs with many configurations). Methods:

- modeled time alone: the timing model's microseconds per launch as
  `warpscope report` shows them (its configuration's clock, no launch
  floor), on the rows that have them;
- WarpScope's margin alone: the analytic estimate, or the floor plus the
  modeled cycles at the measured clock where the row has them (`warpscope
  train --rounds 0`: no trees);
- GPU Mangrove's method (mangrove_baseline.py; its held-out CSV is made
  here unless --mangrove gives one);
- WarpScope's model (`warpscope train --heldout-csv`: its rounds, 0 to
  200, chosen by leave-one-program-out within each fold's training
  programs), the same trained without the emulator's figures, and the
  model of 200 rounds always (`--rounds 200`, the choice before nesting).

--work DIR keeps the models and held-out CSVs (DIR/model.json is
WarpScope's model trained on every row, named --name); by default a
temporary folder. Each row of the table is over the same rows: all rows, then only the rows
with modeled time; a third table counts each (program, size, kernel) once,
as benchmarks/gpu/calibrate.py does: the kernel's time summed over its
launch configurations (time per launch times launches), measured against
predicted (only kernels whose every row has the method's figure). Needs /usr/bin/python3 with python3-sklearn for the
baseline.
"""
import argparse
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def read(path):
    return list(csv.DictReader(open(path)))


def key(r):
    return tuple(r[k] for k in ("program", "kernel", "grid_x", "grid_y", "grid_z",
                                "block_x", "block_y", "block_z", "launches"))


def errors(pairs):
    """pairs: (program, measured, predicted)."""
    apes = [(p, 100 * abs(pr - m) / m) for p, m, pr in pairs]
    if not apes:
        return None
    a = [e for _, e in apes]
    by = {}
    for p, e in apes:
        by.setdefault(p, []).append(e)
    return {"rows": len(a), "programs": len(by), "mape": sum(a) / len(a),
            "median": statistics.median(a),
            "within15": 100 * sum(e <= 15 for e in a) / len(a),
            "program_median": statistics.median(statistics.median(v)
                                                for v in by.values())}


def train(build, dataset, out, extra, log, reuse=False):
    cmd = [os.path.join(build, "bin", "warpscope"), "train", dataset, "-o",
           os.path.join(out, "model.json"), "--heldout-csv",
           os.path.join(out, "heldout.csv")] + extra
    if reuse and os.path.exists(os.path.join(out, "heldout.csv")):
        log.append("$ " + " ".join(cmd) + "\n(reused: --reuse)\n")
        return read(os.path.join(out, "heldout.csv"))
    start = time.time()
    res = subprocess.run(cmd, capture_output=True, text=True)
    log.append("$ " + " ".join(cmd) + "\n" + res.stdout + res.stderr +
               "(%.0f s wall)\n" % (time.time() - start))
    if res.returncode:
        sys.exit(res.stderr)
    return read(os.path.join(out, "heldout.csv"))


def bare_dataset(dataset, path):
    """The dataset without the emulator's columns' values."""
    drop = {"modeled_cycles", "modeled_microseconds", "modeled_config",
            "modeled_fingerprint", "modeled_launch_cycles",
            "global_sectors", "global_ideal_sectors", "shared_wavefronts",
            "shared_ideal_wavefronts", "atomic_addresses",
            "truth_warp_instructions"}
    with open(dataset) as f, open(path, "w", newline="") as o:
        lines = f.readlines()
        head = [l for l in lines if l.startswith("#")]
        o.writelines(head)
        rd = csv.DictReader([l for l in lines if not l.startswith("#")])
        w = csv.DictWriter(o, fieldnames=rd.fieldnames, lineterminator="\n")
        w.writeheader()
        for r in rd:
            for c in drop & set(r):
                r[c] = ""
            w.writerow(r)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("--build", required=True)
    ap.add_argument("--mangrove")
    ap.add_argument("-o")
    ap.add_argument("--label", default="")
    ap.add_argument("--work")
    ap.add_argument("--name", default="model")
    ap.add_argument("--train-arg", action="append", default=[],
                    help="an option for warpscope train, e.g. "
                    "'--gpu-config FILE'")
    ap.add_argument("--reuse", action="store_true",
                    help="keep the held-out CSVs already in --work")
    a = ap.parse_args()
    tmp = a.work or tempfile.mkdtemp(prefix="ws-eval-")
    os.makedirs(tmp, exist_ok=True)
    log = []
    extra = [x for arg in a.train_arg for x in arg.split(None, 1)]
    ours = train(a.build, a.dataset, tmp, ["--name", a.name] + extra, log,
                 a.reuse)
    margin_dir = os.path.join(tmp, "margin")
    os.makedirs(margin_dir, exist_ok=True)
    margin = train(a.build, a.dataset, margin_dir, ["--rounds", "0"] + extra,
                   log, a.reuse)
    fixed_dir = os.path.join(tmp, "fixed")
    os.makedirs(fixed_dir, exist_ok=True)
    fixed = train(a.build, a.dataset, fixed_dir,
                  ["--rounds", "200", "--param", "num_parallel_tree=3"] + extra,
                  log, a.reuse)
    bare = os.path.join(tmp, "bare.csv")
    bare_dataset(a.dataset, bare)
    bare_dir = os.path.join(tmp, "bare")
    os.makedirs(bare_dir, exist_ok=True)
    trained_bare = train(a.build, bare, bare_dir, extra, log, a.reuse)
    mangrove_csv = a.mangrove or os.path.join(tmp, "mangrove.csv")
    if not a.mangrove:
        subprocess.check_call([os.path.join(HERE, "mangrove_baseline.py"),
                               a.dataset, "-o", mangrove_csv])
    mangrove = read(mangrove_csv)
    # The dataset's rows that train and the baseline use, in order (the
    # held-out CSVs list them in the dataset's order), and their modeled
    # microseconds (the timing model's own time).
    lines = [l for l in open(a.dataset) if not l.startswith("#")]
    used = [r for r in csv.DictReader(lines)
            if r.get("complete", "1") != "0" and r["exact"] == "yes"
            and r.get("time_ns_mean")]
    modeled = [float(r["modeled_microseconds"]) / float(r["launches"])
               if r.get("modeled_microseconds") else None for r in used]
    # Rows are matched by position; every list must be the same rows (the
    # configuration alone does not tell them apart: sizes share them).
    for name, other in (("margin", margin), ("bare", trained_bare),
                        ("fixed", fixed),
                        ("mangrove", mangrove), ("dataset", used)):
        if len(other) != len(ours):
            sys.exit("%s: %d rows, WarpScope's held-out CSV %d" %
                     (name, len(other), len(ours)))
        for i, (x, y) in enumerate(zip(ours, other)):
            if key(x) != key(y) or (
                    "measured" in y and abs(float(x["measured"]) -
                                            float(y["measured"])) >
                    1e-4 * float(x["measured"])):
                sys.exit("%s: row %d is not WarpScope's row %d" % (name, i, i))
    keys = list(range(len(ours)))
    with_modeled = [k for k in keys if modeled[k] is not None]
    methods = [
        ("modeled time alone (timing model, h100-sxm)",
         lambda k: modeled[k]),
        ("WarpScope's margin alone (analytic, or floor + modeled at the "
         "measured clock)", lambda k: float(margin[k]["predicted"])),
        ("GPU Mangrove's method (extra trees, its 12 features)",
         lambda k: float(mangrove[k]["predicted"])),
        ("WarpScope's model without the emulator's figures "
         "(trained and tested without them)",
         lambda k: float(trained_bare[k]["predicted"])),
        ("WarpScope's model, 200 rounds of 3 parallel trees always (no "
         "selection; the model shipped before)",
         lambda k: float(fixed[k]["predicted"])),
        ("WarpScope's model (XGBoost, rounds chosen by nested "
         "leave-one-program-out)", lambda k: float(ours[k]["predicted"])),
    ]
    def row_pairs(ks, f):
        return [(ours[k]["program"], float(ours[k]["measured"]), f(k))
                for k in ks if f(k) is not None]

    def kernel_pairs(ks, f):
        """One (program, measured, predicted) per (program, size, kernel):
        sums over its rows of the time per launch times the launches."""
        sums = {}
        for k in ks:
            g = (ours[k]["program"], used[k]["size_tag"], ours[k]["kernel"])
            n = float(ours[k]["launches"])
            p = f(k)
            m, pr = sums.get(g, (0.0, 0.0))
            sums[g] = (m + n * float(ours[k]["measured"]),
                       None if p is None or pr is None else pr + n * p)
        return [(g[0], m, pr) for g, (m, pr) in sums.items() if pr is not None]

    out = []
    for title, ks, pairs_of, unit in (
            ("all rows", keys, row_pairs, "rows"),
            ("rows with modeled time", with_modeled, row_pairs, "rows"),
            ("per (program, size, kernel), time summed over its launch "
             "configurations", keys, kernel_pairs, "kernels")):
        out.append("\n%s (%d rows, %d programs):\n" % (
            title, len(ks), len({ours[k]["program"] for k in ks})))
        out.append("| method | %s | MAPE | median APE | within ±15%% | "
                   "median of programs' median APE |" % unit)
        out.append("|---|---:|---:|---:|---:|---:|")
        for name, f in methods:
            e = errors(pairs_of(ks, f))
            if not e:
                out.append("| %s | 0 | | | | |" % name)
                continue
            out.append("| %s | %d | %.1f%% | %.1f%% | %.0f%% | %.1f%% |" % (
                name, e["rows"], e["mape"], e["median"], e["within15"],
                e["program_median"]))
    out.append("\nPer program, median APE (all rows): program (rows): "
               "GPU Mangrove / WarpScope's margin alone / WarpScope's model "
               "(rounds chosen)")
    progs = sorted({ours[k]["program"] for k in keys})
    for p in progs:
        ks = [k for k in keys if ours[k]["program"] == p]
        g, m, w = (statistics.median(float(src[k]["ape_percent"]) for k in ks)
                   for src in (mangrove, margin, ours))
        out.append("- %s (%d): %.1f%% / %.1f%% / %.1f%%" % (p, len(ks), g, m,
                                                            w))
    text = "\n".join(out) + "\n"
    if a.o:
        with open(a.o, "w") as f:
            f.write(text)
            f.write("\n<!-- commands:\n%s-->\n" % "".join(log))
    print(text)


if __name__ == "__main__":
    main()

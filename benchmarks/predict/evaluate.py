#!/usr/bin/python3
"""The evaluation table of docs/results/<date>-prediction.md.

  evaluate.py TRAIN.csv --build BUILD [--mangrove HELDOUT.csv] [-o OUT.md]
              [--label TEXT]

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
- WarpScope's model (`warpscope train --heldout-csv`), and the same model
  on inputs without the emulator's figures.

Each row of the table is over the same rows: all rows, then only the rows
with modeled time. Needs /usr/bin/python3 with python3-sklearn for the
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


def train(build, dataset, out, extra, log):
    cmd = [os.path.join(build, "bin", "warpscope"), "train", dataset, "-o",
           os.path.join(out, "model.json"), "--heldout-csv",
           os.path.join(out, "heldout.csv")] + extra
    res = subprocess.run(cmd, capture_output=True, text=True)
    log.append("$ " + " ".join(cmd) + "\n" + res.stdout + res.stderr)
    if res.returncode:
        sys.exit(res.stderr)
    return {key(r): r for r in read(os.path.join(out, "heldout.csv"))}


def bare_dataset(dataset, path):
    """The dataset without the emulator's columns' values."""
    drop = {"modeled_cycles", "modeled_microseconds", "modeled_config",
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
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ws-eval-")
    log = []
    ours = train(a.build, a.dataset, tmp, [], log)
    margin_dir = os.path.join(tmp, "margin")
    os.makedirs(margin_dir)
    margin = train(a.build, a.dataset, margin_dir, ["--rounds", "0"], log)
    bare = os.path.join(tmp, "bare.csv")
    bare_dataset(a.dataset, bare)
    bare_dir = os.path.join(tmp, "bare")
    os.makedirs(bare_dir)
    trained_bare = train(a.build, bare, bare_dir, [], log)
    mangrove_csv = a.mangrove or os.path.join(tmp, "mangrove.csv")
    if not a.mangrove:
        subprocess.check_call([os.path.join(HERE, "mangrove_baseline.py"),
                               a.dataset, "-o", mangrove_csv])
    mangrove = {key(r): r for r in read(mangrove_csv)}
    # The dataset's modeled microseconds (the timing model's own time).
    lines = [l for l in open(a.dataset) if not l.startswith("#")]
    modeled = {}
    for r in csv.DictReader(lines):
        r = dict(r)
        if r.get("modeled_microseconds"):
            modeled[key(r)] = float(r["modeled_microseconds"]) / float(r["launches"])
    keys = [k for k in ours if k in mangrove]
    with_modeled = [k for k in keys if k in modeled]
    methods = [
        ("modeled time alone (timing model, h100-sxm)",
         lambda k: modeled.get(k)),
        ("WarpScope's margin alone (analytic, or floor + modeled at the "
         "measured clock)", lambda k: float(margin[k]["predicted"])),
        ("GPU Mangrove's method (extra trees, its 12 features)",
         lambda k: float(mangrove[k]["predicted"])),
        ("WarpScope's model without the emulator's figures "
         "(trained and tested without them)",
         lambda k: float(trained_bare[k]["predicted"])),
        ("WarpScope's model (XGBoost)", lambda k: float(ours[k]["predicted"])),
    ]
    out = []
    for title, ks in (("all rows", keys), ("rows with modeled time", with_modeled)):
        out.append("\n%s (%d rows, %d programs):\n" % (
            title, len(ks), len({k[0] for k in ks})))
        out.append("| method | rows | MAPE | median APE | within ±15% | "
                   "median of programs' median APE |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for name, f in methods:
            pairs = [(k[0], float(ours[k]["measured"]), f(k)) for k in ks
                     if f(k) is not None]
            e = errors(pairs)
            if not e:
                out.append("| %s | 0 | | | | |" % name)
                continue
            out.append("| %s | %d | %.1f%% | %.1f%% | %.0f%% | %.1f%% |" % (
                name, e["rows"], e["mape"], e["median"], e["within15"],
                e["program_median"]))
    out.append("\nPer program, median APE (all rows): program (rows): "
               "GPU Mangrove / WarpScope")
    progs = sorted({k[0] for k in keys})
    for p in progs:
        ks = [k for k in keys if k[0] == p]
        g = statistics.median(float(mangrove[k]["ape_percent"]) for k in ks)
        w = statistics.median(float(ours[k]["ape_percent"]) for k in ks)
        out.append("- %s (%d): %.1f%% / %.1f%%" % (p, len(ks), g, w))
    text = "\n".join(out) + "\n"
    if a.o:
        with open(a.o, "w") as f:
            f.write(text)
            f.write("\n<!-- commands:\n%s-->\n" % "".join(log))
    print(text)


if __name__ == "__main__":
    main()

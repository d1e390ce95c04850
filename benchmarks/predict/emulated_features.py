#!/usr/bin/env python3
"""The emulator's figures for a time-prediction dataset, and the join.

  emulated_features.py run --build BUILD -o RUNS [--sizes SIZES] [-j N] [P-TAG ...]
  emulated_features.py summarize RUNS -o SUMMARY.csv [--assume-fingerprint FP]
  emulated_features.py join DATASET.csv SUMMARY.csv -o TRAIN.csv
                       [--commit TEXT] [--lower-bound PROGRAM:WHY ...]

`run` runs each plain benchmark of the size table (benchmarks/gpu/sizes.txt:
`small`, the middle N, `large 1`) on the emulator with the timing model's
default configuration, as a user would:

  WARPSCOPE_EMU_THREADS=1 warpscope run --emulate --mode per-launch \
      -o RUNS/P-TAG -- BUILD/benchmarks/P SIZE

(one emulator thread; its outputs in RUNS/P-TAG.out, a line per run in
RUNS/steps.log; -j N runs N at once, `large 1` first). Without P-TAG
arguments, every program and size.

`summarize` reads every RUNS/P-TAG/emu-*.json (ground truth, schema
warpscope-emu/1) into one CSV, a row per program, size tag, kernel and
launch configuration:

  program,size_tag,mangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,
  modeled_launches,modeled_cycles,modeled_microseconds,modeled_config,
  modeled_fingerprint,modeled_launch_cycles,global_sectors,global_ideal_sectors,shared_wavefronts,
  shared_ideal_wavefronts,atomic_addresses,truth_warp_instructions

modeled_* are sums over that configuration's launches (the timing model's
figures, never measurements); modeled_fingerprint is the timing model's
version that made them (ground truth `modeled.fingerprint`: its code and
configuration); runs from before warpscope recorded it get
--assume-fingerprint's, for runs known to come from the same timing model
(check: rerun one and compare its modeled cycles); the memory counts and warp instructions are
the kernel's over every launch of the run (the ground truth does not split
them by configuration), repeated on each of its rows.

`join` adds those columns to a dataset of benchmarks/gpu/make_dataset.py
(matching program, size tag, mangled name, grid and block) and writes a
training dataset for `warpscope train` (docs/prediction.md). modeled_* are
filled only where the emulated run launched the configuration as many times
as the dataset row counts (`launches`); otherwise they stay empty and the
comment block counts the rows. `--lower-bound P:WHY` sets `exact` to
`lower-bound` on every row of program P (features known to miss work), with
WHY in the comment block. A `device` column is added when the dataset has
none, from its `# device:` line.
"""
import argparse
import collections
import concurrent.futures
import csv
import glob
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "tools"))
import wsrun  # noqa: E402  (the run directory's one reader)

MEMORY = ["global_sectors", "global_ideal_sectors", "shared_wavefronts",
          "shared_ideal_wavefronts", "atomic_addresses"]
SUMMARY_COLUMNS = (["program", "size_tag", "mangled", "grid_x", "grid_y",
                    "grid_z", "block_x", "block_y", "block_z",
                    "modeled_launches", "modeled_cycles",
                    "modeled_microseconds", "modeled_config",
                    "modeled_fingerprint", "modeled_launch_cycles"] + MEMORY +
                   ["truth_warp_instructions"])
ADDED = ["modeled_cycles", "modeled_microseconds", "modeled_config",
         "modeled_fingerprint", "modeled_launch_cycles"] + MEMORY + [
    "truth_warp_instructions"]


def sizes(path):
    out = []
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith("#"):
            out.append((f[0], f[1], f[2]))
    return out


def cmd_run(a):
    os.makedirs(a.o, exist_ok=True)
    jobs = []
    for prog, _small, mid in sizes(a.sizes):
        jobs += [(prog, "small", ["small"]), (prog, mid, [mid]),
                 (prog, "large-1", ["large", "1"])]
    if a.runs:
        jobs = [j for j in jobs if "%s-%s" % (j[0], j[1]) in a.runs]
    ws = os.path.join(a.build, "bin", "warpscope")
    env = dict(os.environ, WARPSCOPE_EMU_THREADS="1")
    steps = threading.Lock()

    def one(job):
        prog, tag, args = job
        out = os.path.join(a.o, "%s-%s" % (prog, tag))
        start = time.time()
        with open(out + ".out", "w") as log:
            rc = subprocess.call([ws, "run", "--emulate", "--mode",
                                  "per-launch", "--force", "-o", out, "--",
                                  os.path.join(a.build, "benchmarks", prog)] +
                                 args, stdout=log, stderr=subprocess.STDOUT,
                                 env=env)
        with steps, open(os.path.join(a.o, "steps.log"), "a") as s:
            s.write("%s %s rc=%d %ds\n" % (prog, tag, rc, time.time() - start))

    # Each run is one emulator thread, so its modeled figures do not depend
    # on -j; longest first keeps the parallel runs' wall time short.
    jobs.sort(key=lambda j: j[1] != "large-1")
    with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as pool:
        list(pool.map(one, jobs))


def cmd_summarize(a):
    rows = {}
    for d in sorted(glob.glob(os.path.join(a.runs, "*"))):
        if not os.path.isdir(d):
            continue
        prog, tag = os.path.basename(d).rsplit("-", 1)
        if tag == "1":  # large-1
            prog, tag = prog.rsplit("-", 1)[0], "large-1"
        memory = collections.defaultdict(collections.Counter)
        for _, j in wsrun.truth(d):
            for fn in j.get("functions", []):
                m = memory[fn["name"]]
                for ins in fn["instructions"]:
                    if ins.get("instrumentation"):
                        continue
                    m["truth_warp_instructions"] += ins.get("warp_executions", 0)
                    for k in MEMORY:
                        m[k] += ins.get(k, 0)
            for l in j.get("launches", []):
                key = (prog, tag, l["kernel"]) + tuple(l["grid"]) + tuple(l["block"])
                r = rows.setdefault(key, {"modeled_launches": 0, "modeled_cycles": 0,
                                          "modeled_microseconds": 0.0,
                                          "modeled_config": "",
                                          "modeled_fingerprint": set(),
                                          "modeled_launch_cycles": 0})
                mo = l.get("modeled")
                if not mo:
                    continue
                r["modeled_launches"] += 1
                r["modeled_cycles"] += mo["cycles"]
                r["modeled_launch_cycles"] += mo.get("launch_cycles", 0)
                r["modeled_microseconds"] += mo["microseconds"]
                r["modeled_config"] = mo["config"]
                r["modeled_fingerprint"].add(mo.get("fingerprint") or
                                             a.assume_fingerprint)
        for key, r in rows.items():
            if key[:2] == (prog, tag):
                r.update({k: memory[key[2]][k] for k in MEMORY +
                          ["truth_warp_instructions"]})
    with open(a.o, "w", newline="") as out:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(SUMMARY_COLUMNS)
        for key in sorted(rows):
            r = rows[key]
            prints = r["modeled_fingerprint"]
            if len(prints) > 1:
                sys.exit("%s: launches of %s modeled by several timing-model "
                         "versions: %s" % (a.runs, key, sorted(prints)))
            w.writerow(list(key) + [r["modeled_launches"], r["modeled_cycles"],
                                    "%.3f" % r["modeled_microseconds"],
                                    r["modeled_config"],
                                    "".join(prints),
                                    r["modeled_launch_cycles"]] +
                       [r.get(k, "") for k in MEMORY + ["truth_warp_instructions"]])


def read_dataset(path):
    comments, lines = [], []
    with open(path) as f:
        for line in f:
            (comments if line.startswith("#") and not lines else lines).append(line)
    return comments, list(csv.DictReader(lines))


def cmd_join(a):
    comments, rows = read_dataset(a.dataset)
    summary = {}
    with open(a.summary) as f:
        for r in csv.DictReader(f):
            key = (r["program"], r["size_tag"], r["mangled"]) + tuple(
                r[k] for k in ("grid_x", "grid_y", "grid_z", "block_x",
                               "block_y", "block_z"))
            summary[key] = r
    lower = dict(x.split(":", 1) for x in a.lower_bound)
    device = next((c.split(":", 1)[1].strip() for c in comments
                   if c.lower().startswith("# device:")), "")
    columns = list(rows[0].keys())
    if "device" not in columns:
        columns = ["device"] + columns
    columns += [c for c in ADDED if c not in columns]
    stats = collections.Counter()
    for r in rows:
        r.setdefault("device", device)
        key = (r["program"], r["size_tag"], r["mangled"]) + tuple(
            r[k] for k in ("grid_x", "grid_y", "grid_z", "block_x", "block_y",
                           "block_z"))
        s = summary.get(key)
        for c in ADDED:
            r[c] = ""
        if r["program"] in lower and r["exact"] == "yes":
            r["exact"] = "lower-bound"
            stats["lower-bound"] += 1
        if not r["warp_instructions"]:
            continue
        if s is None:
            stats["not emulated"] += 1
            continue
        for c in MEMORY + ["truth_warp_instructions"]:
            r[c] = s[c]
        if s["modeled_config"] and s["modeled_launches"] == r["launches"]:
            for c in ("modeled_cycles", "modeled_microseconds", "modeled_config",
                      "modeled_fingerprint", "modeled_launch_cycles"):
                r[c] = s.get(c, "")
            stats["modeled"] += 1
        else:
            stats["modeled launches differ"] += 1
    with open(a.o, "w", newline="") as out:
        out.write("# WarpScope training dataset for `warpscope train` (docs/prediction.md)\n")
        out.write("# made by benchmarks/predict/emulated_features.py join %s %s\n"
                  % (os.path.basename(a.dataset), os.path.basename(a.summary)))
        if a.commit:
            out.write("# commit: %s\n" % a.commit)
        out.write("# added columns: modeled_cycles, modeled_microseconds, modeled_config, "
                  "modeled_fingerprint, modeled_launch_cycles (the timing model's figures, its version and the launches' fixed cost within the cycles, summed over the configuration's launches, "
                  "from an emulated run of the plain build; empty where its launch count "
                  "differs from `launches`), %s, truth_warp_instructions (the kernel's exact "
                  "memory counts and warp instructions over every launch of that run)\n"
                  % ", ".join(MEMORY))
        out.write("# rows with emulator figures: %d modeled, %d emulated with another "
                  "launch count, %d not emulated\n" % (stats["modeled"],
                  stats["modeled launches differ"], stats["not emulated"]))
        for p, why in sorted(lower.items()):
            out.write("# exact = lower-bound for every %s row: %s\n" % (p, why))
        out.write("# --- the source dataset's comment block:\n")
        out.writelines(comments)
        w = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("%s: %d rows; %s" % (a.o, len(rows), dict(stats)), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", required=True)
    r.add_argument("-o", required=True)
    r.add_argument("--sizes", default=os.path.join(os.path.dirname(__file__),
                                                  "..", "gpu", "sizes.txt"))
    r.add_argument("-j", type=int, default=1,
                   help="runs at once (each on one emulator thread)")
    r.add_argument("runs", nargs="*")
    s = sub.add_parser("summarize")
    s.add_argument("runs")
    s.add_argument("-o", required=True)
    s.add_argument("--assume-fingerprint", default="")
    j = sub.add_parser("join")
    j.add_argument("dataset")
    j.add_argument("summary")
    j.add_argument("-o", required=True)
    j.add_argument("--commit", default="")
    j.add_argument("--lower-bound", action="append", default=[])
    a = ap.parse_args()
    {"run": cmd_run, "summarize": cmd_summarize, "join": cmd_join}[a.cmd](a)


if __name__ == "__main__":
    main()

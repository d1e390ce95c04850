#!/usr/bin/env python3
"""Calibration and validation of the emulator's timing model against
measured kernel times (issue 34).

  calibrate.py run --build DIR -o MODELED [--model-config C]
                   [--model-clock base|boost|MHZ] [--sizes small,middle,large]
                   [--timeout S] [--only P,...]
      for each program of benchmarks/gpu/sizes.txt at each size (small, the
      middle N, `large 1`), as a user runs it:
        warpscope run --emulate --mode per-launch [--model-config C]
          [--model-clock K] -o MODELED/P-T -- DIR/benchmarks/P SIZE
      (T: small, N or large-1). Keeps the ground truth (emu-*.json) only;
      a run over --timeout seconds (default 600) is stopped and listed in
      MODELED/runs.csv (program, size, rc, seconds) like every other run.
  calibrate.py evaluate DATASET.csv MODELED [--split SPLIT] [--csv OUT]
                        [--markdown OUT] [--label TEXT]
      pairs each kernel of each run (program, size, kernel) with the
      measured kernel-time dataset (make_dataset.py's format) and prints
      the statistics of modeled against measured time: overall, per size,
      on the programs that fitted a parameter (`train` in SPLIT) and on the
      others (`test`), and on the atomic-heavy kernels.
  calibrate.py launches DATASET.csv MODELED [--programs P,...]
      per launch configuration (grid, block) of each kernel, the mean
      modeled against the mean measured time of its launches; the
      statistics per program and kernel over its configurations.
  calibrate.py fit DATASET.csv MODELED --split SPLIT [--config FILE]
      the figures the split's training programs give (see fit()): prints
      them, and with --config the current value next to each.

Pairing: a kernel of a run takes part when every configuration of it in
the dataset is complete (ncu profiled every launch) and the emulator ran as
many launches of it as ncu profiled; then measured = the sum of its
launches' times (time_ns_sum) and modeled = the sum of its launches'
modeled microseconds (ground truth launches[].modeled, at the clock the
run chose). Grids are not compared launch by launch: bfs's frontiers
depend on which thread wins an atomicCAS, so its grids differ run to run.

Statistics (stats()): n, median absolute percentage error, geometric mean
of modeled/measured, the share within +-30% and within a factor 2, and
Spearman's rank correlation. Python 3 standard library only.
"""
import argparse
import csv
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import OrderedDict, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_devices  # noqa: E402  (the dataset reader)
from model_compare import spearman  # noqa: E402  (ties averaged)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
import wsrun  # noqa: E402  (the run directory's one reader)

# An atomic-heavy kernel: atom/red are at least this share of its executed
# warp instructions (ground truth), the "atomic-heavy" class.
ATOMIC_HEAVY = 0.01


def die(msg):
    sys.exit("calibrate.py: " + msg)


def read_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def read_json(path):
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------- statistics

def stats(pairs):
    """pairs: [(modeled, measured)], both > 0. The issue's statistics."""
    if not pairs:
        return None
    ratio = [m / t for m, t in pairs]
    return OrderedDict(
        n=len(pairs),
        median_ape=statistics.median(abs(r - 1) for r in ratio),
        geomean=math.exp(statistics.mean(math.log(r) for r in ratio)),
        within30=sum(abs(r - 1) <= 0.30 for r in ratio) / len(ratio),
        within2x=sum(0.5 <= r <= 2.0 for r in ratio) / len(ratio),
        spearman=spearman([m for m, _ in pairs], [t for _, t in pairs]),
        ratio_min=min(ratio), ratio_max=max(ratio))


TARGETS = OrderedDict(median_ape=("<=", 0.15), geomean=("in", (0.9, 1.1)),
                      within30=(">=", 0.75), within2x=(">=", 0.95),
                      spearman=(">=", 0.95))


def meets(s):
    """{statistic: True/False} against the issue's targets."""
    out = OrderedDict()
    for k, (op, v) in TARGETS.items():
        x = s[k]
        if x is None:
            out[k] = False
        elif op == "<=":
            out[k] = x <= v
        elif op == ">=":
            out[k] = x >= v
        else:
            out[k] = v[0] <= x <= v[1]
    return out


# ---------------------------------------------------------------- run

def read_sizes(path=os.path.join(HERE, "sizes.txt")):
    """[(program, small, middle, large)] of sizes.txt."""
    out = []
    for line in read_lines(path):
        f = line.split("#")[0].split()
        if len(f) == 4:
            out.append(tuple(f))
    return out


def run_group(cmd, timeout):
    """(rc, output) of cmd in its own process group; past timeout seconds
    the whole group is killed (warpscope and the program it started: a
    timeout must not leave the emulated program running) and rc is
    "timeout"; a command that cannot start gives rc "error"."""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, start_new_session=True)
    except OSError as e:
        return "error", str(e)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", ""


def run_one(build, out, program, size, config=None, clock=None, timeout=600):
    """(rc, seconds, passed) of one modeled run into out (ground truth only)."""
    ws = os.path.join(build, "bin", "warpscope")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [ws, "run", "--emulate", "--mode", "per-launch", "-o", out]
    if config:
        cmd += ["--model-config", config]
    if clock:
        cmd += ["--model-clock", clock]
    cmd += ["--", os.path.join(build, "benchmarks", program)] + size.split()
    t0 = time.time()
    rc, text = run_group(cmd, timeout)
    dt = time.time() - t0
    wsrun.keep_only(out, wsrun.TRUTH)
    if rc != 0:
        shutil.rmtree(out, ignore_errors=True)
    return rc, dt, "PASS" in text


def runs(programs, tags):
    """[(program, size argument, run name)] of sizes.txt."""
    out = []
    for program, _, middle, _ in read_sizes():
        if programs is not None and program not in programs:
            continue
        for tag in tags:
            size, name = {"small": ("small", "small"), "middle": (middle, middle),
                          "large": ("large 1", "large-1")}[tag]
            out.append((program, size, name))
    return out


def run(a):
    only = set(a.only.split(",")) if a.only else None
    os.makedirs(a.output, exist_ok=True)
    for program, size, name in runs(only, a.sizes.split(",")):
        rc, dt, ok = run_one(a.build, os.path.join(a.output, "%s-%s" % (program, name)),
                             program, size, a.model_config, a.model_clock, a.timeout)
        with open(os.path.join(a.output, "runs.csv"), "a") as log:
            log.write("%s,%s,%s,%.1f\n" % (program, name, rc, dt))
        print("%s-%s: rc=%s %.1f s %s" % (program, name, rc, dt, "PASS" if ok else ""))


# ---------------------------------------------------------------- pairing

def read_modeled(d):
    """{kernel: {"us": [...], "cycles": [...], "launch_cycles": [...],
    "atomic_share": x}} of one run's ground truth."""
    out = defaultdict(lambda: defaultdict(list))
    for path, j in wsrun.truth(d):
        for l in j["launches"]:
            m = l.get("modeled")
            if not m:
                die("%s: a launch of %s has no modeled time" % (path, l["kernel"]))
            k = out[l["kernel"]]
            k["us"].append(m["microseconds"])
            k["cycles"].append(m["cycles"])
            k["launch_cycles"].append(m.get("launch_cycles", 0))
            k["clock_mhz"].append(m.get("clock_mhz", m["cycles"] / m["microseconds"]
                                        if m["microseconds"] else 0))
        for f in j["functions"]:
            if not f["kernel"] or f["name"] not in out:
                continue
            total = sum(i["warp_executions"] for i in f["instructions"])
            atom = sum(i["warp_executions"] for i in f["instructions"]
                       if i["opcode"].split(".")[0] in ("atom", "red"))
            out[f["name"]]["atomic_share"] = [atom / total if total else 0.0]
    return out


def pair(dataset, modeled_dir):
    """Rows (OrderedDict) per (program, size, kernel) with both sides, and
    [(program, size, kernel, why)] of kernels left out."""
    rows, skipped = [], []
    by = OrderedDict()
    with open(dataset) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            by.setdefault((r["program"], r["size_tag"], r["mangled"]), []).append(r)
    cache = {}
    for (program, size, kernel), rs in by.items():
        d = os.path.join(modeled_dir, "%s-%s" % (program, size))
        if not os.path.isdir(d):
            skipped.append((program, size, kernel, "not modeled"))
            continue
        if d not in cache:
            cache[d] = read_modeled(d)
        m = cache[d].get(kernel)
        if any(r["complete"] != "1" for r in rs):
            skipped.append((program, size, kernel, "measured incomplete"))
            continue
        n = sum(int(r["ncu_launches"]) for r in rs)
        if not m or len(m["us"]) != n:
            skipped.append((program, size, kernel, "launches differ: measured %d, modeled %d"
                            % (n, len(m["us"]) if m else 0)))
            continue
        t = sum(float(r["time_ns_sum"]) for r in rs)
        c = sum(float(r["sm_cycles_elapsed_max_mean"]) * int(r["ncu_launches"]) for r in rs)
        rows.append(OrderedDict(
            program=program, size_tag=size, kernel=compare_devices.short(kernel),
            launches=n, measured_ns=t, modeled_ns=1e3 * sum(m["us"]),
            measured_cycles=c, modeled_cycles=float(sum(m["cycles"])),
            modeled_launch_cycles=float(sum(m["launch_cycles"])),
            clock_mhz=statistics.median(m["clock_mhz"]),
            atomic_share=m["atomic_share"][0] if m["atomic_share"] else 0.0))
    return rows, skipped


def read_split(path):
    """{"train": set, "test": set, "derive": [(figure, program, kernel,
    size, how)]} from a split file (see calibration-split.txt)."""
    out = {"train": set(), "test": set(), "derive": []}
    for line in read_lines(path):
        f = line.split("#")[0].split()
        if not f:
            continue
        if f[0] in ("train:", "test:"):
            out[f[0][:-1]].update(f[1:])
        elif f[0] == "derive:":
            out["derive"].append(tuple(f[1:]))
        else:
            die("%s: cannot read %r" % (path, line.strip()))
    if out["train"] & out["test"]:
        die("%s: programs in both sets: %s" % (path, sorted(out["train"] & out["test"])))
    return out


# ---------------------------------------------------------------- evaluate

def subsets(rows, split):
    sets = [("all", rows)]
    for tag in ("small", "middle", "large-1"):
        rs = [r for r in rows if (r["size_tag"] == tag) or
              (tag == "middle" and r["size_tag"] not in ("small", "large-1"))]
        sets.append(("size " + tag, rs))
    if split:
        sets.append(("train (programs that fitted a figure)",
                     [r for r in rows if r["program"] in split["train"]]))
        sets.append(("test (held out)", [r for r in rows if r["program"] in split["test"]]))
    sets.append(("atomic-heavy kernels", [r for r in rows if r["atomic_share"] >= ATOMIC_HEAVY]))
    return sets


def stat_cells(s):
    if not s:
        return "0 | | | | | | "
    rho = "%.3f" % s["spearman"] if s["spearman"] is not None else "–"
    return "%d | %.1f%% | %.3f | %.0f%% | %.0f%% | %s | %.3f–%.2f" % (
        s["n"], 100 * s["median_ape"], s["geomean"], 100 * s["within30"],
        100 * s["within2x"], rho, s["ratio_min"], s["ratio_max"])


HEAD = ("| set | n | median APE | geomean modeled/measured | within ±30% | within 2x "
        "| Spearman ρ | ratio range |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")


def summary_table(rows, split, what="time"):
    o = [HEAD]
    for label, rs in subsets(rows, split):
        if what == "time":
            pairs = [(r["modeled_ns"], r["measured_ns"]) for r in rs]
        else:
            pairs = [(r["modeled_cycles"], r["measured_cycles"]) for r in rs]
        o.append("| %s | %s |\n" % (label, stat_cells(stats(pairs))))
    return "".join(o)


def kernel_table(rows, split):
    o = ["| program | size | kernel | set | launches | measured µs | modeled µs | "
         "modeled/measured | measured cycles | modeled cycles | atomics |\n",
         "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n"]
    for r in rows:
        s = ("train" if split and r["program"] in split["train"] else
             "test" if split and r["program"] in split["test"] else "")
        o.append("| %s | %s | %s | %s | %d | %.1f | %.1f | %.2f | %.0f | %.0f | %.1f%% |\n" % (
            r["program"], r["size_tag"], r["kernel"], s, r["launches"],
            r["measured_ns"] / 1e3, r["modeled_ns"] / 1e3,
            r["modeled_ns"] / r["measured_ns"], r["measured_cycles"],
            r["modeled_cycles"], 100 * r["atomic_share"]))
    return "".join(o)


def targets_line(label, rows):
    """The issue's targets, met or not, on rows' modeled against measured
    time."""
    s = stats([(r["modeled_ns"], r["measured_ns"]) for r in rows])
    if not s:
        return "\nTargets (%s): no rows.\n" % label
    return "\nTargets (%s): %s.\n" % (label, ", ".join(
        "%s %s" % (k, "met" if v else "not met") for k, v in meets(s).items()))


def evaluate(a):
    split = read_split(a.split) if a.split else None
    rows, skipped = pair(a.dataset, a.modeled)
    if not rows:
        die("nothing paired")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow(r)
    text = ["### %s\n\nModeled time (the run's clock) against measured time, per "
            "(program, size, kernel), sums over the kernel's launches:\n\n" % (a.label or a.modeled),
            summary_table(rows, split),
            "\nModeled cycles against `sm__cycles_elapsed.max` (measured):\n\n",
            summary_table(rows, split, "cycles")]
    text.append(targets_line("all rows", rows))
    if split:
        text.append(targets_line("held out", [r for r in rows if r["program"] in split["test"]]))
    if skipped:
        text.append("\nLeft out: " + "; ".join("%s %s %s (%s)" % x for x in skipped) + ".\n")
    if a.kernels:
        text.append("\n" + kernel_table(rows, split))
    out = "".join(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 0


# ---------------------------------------------------------------- per launch

def read_launches(d, figure=lambda m: m["microseconds"]):
    """{(kernel, grid, block): [figure(modeled)]} of one run's ground truth
    (by default the modeled microseconds)."""
    out = defaultdict(list)
    for _, l in wsrun.launches(d):
        if l.get("modeled"):
            key = (l["kernel"], tuple(l["grid"]), tuple(l["block"]))
            out[key].append(figure(l["modeled"]))
    return out


def launch_pairs(dataset, modeled, only=None):
    """{(program, kernel): [(modeled ns, measured ns)]}, one pair per launch
    configuration (grid, block) of each size: the mean modeled time of its
    launches and the mean measured (the dataset's rows are per
    configuration), where the dataset row is complete and the emulator ran
    as many launches of it as ncu profiled."""
    by = defaultdict(list)
    cache = {}
    with open(dataset) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            if only is not None and r["program"] not in only or r["complete"] != "1":
                continue
            d = os.path.join(modeled, "%s-%s" % (r["program"], r["size_tag"]))
            if not os.path.isdir(d):
                continue
            if d not in cache:
                cache[d] = read_launches(d)
            key = (r["mangled"], tuple(int(r[k]) for k in ("grid_x", "grid_y", "grid_z")),
                   tuple(int(r[k]) for k in ("block_x", "block_y", "block_z")))
            m = cache[d].get(key)
            if not m or len(m) != int(r["ncu_launches"]):
                continue
            by[(r["program"], compare_devices.short(r["mangled"]))].append(
                (statistics.mean(m) * 1e3, float(r["time_ns_sum"]) / len(m)))
    return by


def launches(a):
    """The statistics of launch_pairs() per program and kernel over its
    configurations, every size together."""
    by = launch_pairs(a.dataset, a.modeled,
                      set(a.programs.split(",")) if a.programs else None)
    if not by:
        die("no launch configuration paired")
    out = ["| program | kernel | configurations | median APE | geomean modeled/measured "
           "| within ±30% | within 2x | Spearman ρ | ratio range |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|\n"]
    for (program, kernel), pairs in sorted(by.items()):
        out.append("| %s | %s | %s |\n" % (program, kernel, stat_cells(stats(pairs))))
    sys.stdout.write("".join(out))
    return 0


# ---------------------------------------------------------------- fit

def fit_launch_overhead(rows):
    """The per-launch time (ns) that, added to every modeled launch, makes
    the mean |log(modeled / measured)| over rows least (golden-section
    search on [-5 us, 20 us]); returns the change to the current figure."""
    def loss(d):
        return statistics.mean(abs(math.log(max(r["modeled_ns"] + d * r["launches"], 1.0)
                                            / r["measured_ns"])) for r in rows)
    lo, hi = -5000.0, 20000.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if loss(x1) < loss(x2):
            hi = x2
        else:
            lo = x1
    return (lo + hi) / 2


def measured_clock(dataset, programs):
    """Median SM clock (MHz) ncu ran at: sm__cycles_elapsed.max per ns over
    the programs' configurations of at least 100 us per launch."""
    xs = []
    for r in compare_devices.load(dataset).values():
        if r["program"] in programs and float(r["time_ns_mean"]) >= 1e5:
            xs.append(1e3 * float(r["sm_cycles_elapsed_max_mean"]) / float(r["time_ns_mean"]))
    return statistics.median(xs) if xs else None


def derive(dataset, spec):
    """A figure from one measured kernel (split file `derive:` lines):
    dram_sustained_gbytes_per_s = requested global bytes / time (a kernel
    that streams each byte once from DRAM); atomic_same_address_ns = time /
    (launch elements x share on the hottest address)."""
    figure, program, size, kernel = spec[:4]
    arg = float(spec[4]) if len(spec) > 4 else 1.0
    rows = [r for r in compare_devices.load(dataset).values()
            if r["program"] == program and r["size_tag"] == size and
            compare_devices.short(r["mangled"]) == kernel]
    if not rows:
        return None
    t = sum(float(r["time_ns_sum"]) for r in rows)
    if figure == "dram_sustained_gbytes_per_s":
        return sum(float(r["global_bytes"]) for r in rows) / t
    if figure == "atomic_same_address_ns":
        return t / (float(rows[0]["size_n"]) * arg * len(rows))
    die("cannot derive %s" % figure)


def fit(a):
    split = read_split(a.split)
    rows, _ = pair(a.dataset, a.modeled)
    train = [r for r in rows if r["program"] in split["train"]]
    if not train:
        die("no training rows")
    cur = {}
    if a.config:
        cur = {k: (v["value"] if isinstance(v, dict) else v)
               for k, v in read_json(a.config).items() if k not in ("name", "description")}
    clock = statistics.median(r["clock_mhz"] for r in train)
    d = fit_launch_overhead(train)
    out = OrderedDict()
    out["base_clock_mhz"] = measured_clock(a.dataset, split["train"])
    now = cur.get("launch_overhead_ns", 0)
    out["launch_overhead_ns"] = now + d
    for spec in split["derive"]:
        out[spec[0]] = derive(a.dataset, spec)
    print("training programs: %s (%d kernel rows; the runs' clock %.0f MHz)"
          % (" ".join(sorted(split["train"])), len(train), clock))
    for k, v in out.items():
        print("%s: %s%s" % (k, "%.4g" % v if v is not None else "–",
                            " (now %g)" % cur[k] if k in cur else ""))
    return 0


def loss(rows):
    """Mean |log(modeled / measured)| over rows: what a fit makes least."""
    return statistics.mean(abs(math.log(r["modeled_ns"] / r["measured_ns"])) for r in rows)


def sweep(a):
    """Runs the training programs (or --programs, all of them training)
    with one figure of the configuration file set to each value; prints the
    loss on their rows per value."""
    split = read_split(a.split)
    programs = set(a.programs.split(",")) if a.programs else split["train"]
    if not programs <= split["train"]:
        die("sweep only on training programs: %s are not" % sorted(programs - split["train"]))
    with open(a.model_config) as f:
        base = json.load(f, object_pairs_hook=OrderedDict)
    os.makedirs(a.output, exist_ok=True)
    results = []
    for v in a.values.split(","):
        cfg = OrderedDict(base)
        cfg[a.figure] = float(v)
        path = os.path.join(a.output, "config-%s.json" % v)
        with open(path, "w") as f:
            json.dump(cfg, f, indent=1)
        d = os.path.join(a.output, "value-%s" % v)
        for program, size, name in runs(programs, a.sizes.split(",")):
            run_one(a.build, os.path.join(d, "%s-%s" % (program, name)), program, size,
                    path, a.model_clock, a.timeout)
        rows = [r for r in pair(a.dataset, d)[0] if r["program"] in programs]
        # The fixed cost per launch refitted for this value (it is additive:
        # no run needed), so that a figure is not judged against a fixed
        # cost fitted with another value.
        dl = fit_launch_overhead(rows)
        refit = [dict(r, modeled_ns=r["modeled_ns"] + dl * r["launches"]) for r in rows]
        results.append((loss(refit), v, len(rows), loss(rows), dl))
        print("%s = %s: mean |log ratio| %.4f over %d rows; %.4f with the launch "
              "overhead refitted (%+.0f ns)" % (a.figure, v, results[-1][3], len(rows),
                                                results[-1][0], dl))
    best = min(results)
    print("best: %s = %s (launch overhead %+.0f ns)" % (a.figure, best[1], best[4]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", required=True)
    r.add_argument("-o", "--output", required=True)
    r.add_argument("--model-config")
    r.add_argument("--model-clock")
    r.add_argument("--sizes", default="small,middle")
    r.add_argument("--timeout", type=float, default=600)
    r.add_argument("--only")
    e = sub.add_parser("evaluate")
    e.add_argument("dataset")
    e.add_argument("modeled")
    e.add_argument("--split")
    e.add_argument("--csv")
    e.add_argument("--markdown")
    e.add_argument("--label")
    e.add_argument("--kernels", action="store_true", help="add the per-kernel table")
    f = sub.add_parser("fit")
    f.add_argument("dataset")
    f.add_argument("modeled")
    f.add_argument("--split", required=True)
    f.add_argument("--config")
    p = sub.add_parser("launches")
    p.add_argument("dataset")
    p.add_argument("modeled")
    p.add_argument("--programs")
    w = sub.add_parser("sweep")
    w.add_argument("dataset")
    w.add_argument("--build", required=True)
    w.add_argument("--model-config", required=True, help="a configuration file")
    w.add_argument("--model-clock", default="base")
    w.add_argument("--figure", required=True)
    w.add_argument("--values", required=True)
    w.add_argument("--split", required=True)
    w.add_argument("--programs")
    w.add_argument("--sizes", default="small,middle")
    w.add_argument("--timeout", type=float, default=600)
    w.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.cmd == "run":
        run(a)
        return 0
    return {"evaluate": evaluate, "fit": fit, "sweep": sweep, "launches": launches}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

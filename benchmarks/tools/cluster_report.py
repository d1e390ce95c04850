#!/usr/bin/env python3
"""Times `warpscope report` over the profiles of a large MPI job (issue 38).

Builds one benchmark program (benchmarks/src/<name>.cu, default srad) with
the plugin, runs it once on the emulator as rank 0 of a job of --ranks, and
makes the other ranks' profiles from that one: the same modules and
databases, a pid and rank each, the counters of a few ranks doubled (their
kernels ran twice the work: load imbalance) and every rank's kernel times
jittered by up to 3% (0.5 ms per launch where the run timed nothing: an
aggregate run). Then runs `warpscope report DIR` in each --format
--repeat times, and prints the median wall time and the largest resident
memory (ru_maxrss) of the report, for --ranks and for fractions of it (so
that memory's growth with the number of ranks shows).

usage: cluster_report.py [--build DIR] [--bench NAME] [--ranks N]
                         [--repeat N] [--keep DIR]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAVY = (17, 500, 1000)  # ranks with twice the work


def seed_profile(build, bench, work):
    ws = os.path.join(build, "bin", "warpscope")
    cflags = subprocess.check_output([ws, "config", "--cflags"], text=True).split()
    ldflags = subprocess.check_output([ws, "config", "--ldflags"], text=True).split()
    exe = os.path.join(work, bench)
    src = os.path.join(ROOT, "benchmarks", "src", bench + ".cu")
    subprocess.check_call(["clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
                           "--cuda-path=/usr/local/cuda", "-O2", "-I",
                           os.path.dirname(src)] + cflags + [src] + ldflags +
                          ["-o", exe])
    seed = os.path.join(work, "seed")
    env = dict(os.environ, OMPI_COMM_WORLD_RANK="0", WARPSCOPE_QUIET="1")
    subprocess.check_call([ws, "run", "--emulate", "-o", seed, "--", exe],
                          env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    [(_, profile)] = wsrun.profiles(seed)
    return seed, profile


def write_job(seed_dir, profile, ranks, out):
    os.makedirs(out)
    for path in wsrun.paths(seed_dir, wsrun.DATABASE):
        shutil.copy(path, out)
    rng = random.Random(38)
    for r in range(ranks):
        p = json.loads(json.dumps(profile))
        p["pid"], p["rank"], p["world_size"] = 100000 + r, r, ranks
        k = 2 if r in HEAVY else 1
        for m in p["modules"]:
            m["counters"] = [c * k for c in m["counters"]]
        for l in p["launches"]:
            # An aggregate run times nothing: 0.5 ms per launch stands in.
            t = l.get("time_ms") or 0.5 * l["count"]
            l["time_ms"] = t * k * (1 + rng.uniform(-0.03, 0.03))
        with open(os.path.join(out, "profile-%d-rank%d.json" % (100000 + r, r)), "w") as f:
            json.dump(p, f)


def measure(build, d, fmt, repeat):
    ws = os.path.join(build, "bin", "warpscope")
    walls, rss = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen([ws, "report", d, "--format", fmt],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        if status != 0:
            raise SystemExit("warpscope report %s failed: %s" % (d, proc.stderr.read().decode()))
        rss = max(rss, usage.ru_maxrss)
    return statistics.median(walls), min(walls), max(walls), rss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--bench", default="srad")
    ap.add_argument("--ranks", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="write the job's directory here")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="ws-cluster-")
    try:
        seed_dir, profile = seed_profile(a.build, a.bench, work)
        kernels = sorted({l["kernel"] for l in profile["launches"]})
        counters = sum(m["num_counters"] for m in profile["modules"])
        print("program: benchmarks/src/%s.cu, %d kernels, %d launches, %d counters per rank"
              % (a.bench, len(kernels), sum(l["count"] for l in profile["launches"]), counters))
        for n in sorted({a.ranks // 4, a.ranks // 2, a.ranks}):
            d = os.path.join(work, "job%d" % n)
            write_job(seed_dir, profile, n, d)
            size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
            for fmt in ("text", "json"):
                med, lo, hi, rss = measure(a.build, d, fmt, a.repeat)
                print("%5d ranks (%.1f MB): report --format %-4s median %.3f s "
                      "(min %.3f, max %.3f) over %d runs, max RSS %.1f MB"
                      % (n, size / 1e6, fmt, med, lo, hi, a.repeat, rss))
            if n == a.ranks and a.keep:
                shutil.copytree(d, a.keep)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()

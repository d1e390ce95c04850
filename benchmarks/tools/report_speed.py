#!/usr/bin/env python3
"""Times `warpscope report` on a synthetic profile: a per-launch run of
--launches launches, each with its own launch configuration (so the profile
holds --launches launch groups, the worst case), over a module whose database
has --branches probed two-way branches. Prints the median
wall time of --repeat runs for the text and JSON formats.

usage: report_speed.py [--build DIR] [--launches N] [--branches N]
                       [--configs N] [--repeat N]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def synthesize(d, launches, branches, configs, per_function=100):
    functions, counters = [], []
    word = 0
    for f in range(branches // per_function):
        blocks, brs = [], []
        for b in range(per_function):
            blocks.append({"id": b, "name": "", "file": "k.cu", "line": b + 1,
                           "column": 1, "loop_depth": 0, "loop_header": False,
                           "counter": word, "derived_from": None})
            counters += [4, 128]
            word += 2
            brs.append({"id": b, "block": b, "kind": "br", "file": "k.cu",
                        "line": b + 1, "column": 5, "successors": [b, b],
                        "uniform": False, "probed": True,
                        "shares_block_counts": False, "counter": word})
            counters += [4, 1, 128, 64, 3]
            word += 5
        functions.append({"name": "_Z1k%dv" % f, "demangled": "k%d()" % f,
                          "kind": "kernel", "file": "k.cu", "line": 1,
                          "column": 0, "cfg_checksum": "0000000000000001",
                          "blocks": blocks, "branches": brs})
    mid = "00000000000000ab"
    db = {"schema": "warpscope-db/1", "abi_version": 1, "module_id": mid,
          "source_file": "k.cu", "target": "sm_90",
          "counters_symbol": "__warpscope_counters_" + mid,
          "num_counters": word, "functions": functions}
    # As the runtime writes a per-launch run: launch groups in the profile
    # (the runtime merges launches of one kernel and shape; --configs
    # shapes), one line per launch in launches-<pid>.jsonl.
    records = [{"module_id": mid, "kernel": "_Z1k%dv" % (i % len(functions)),
               "grid": [1 + i % configs, 1, 1], "block": [128, 1, 1], "shared_bytes": 0,
               "stream": 0, "count": 1, "time_ms": 0.01}
              for i in range(launches)]
    with open(os.path.join(d, "launches-1.jsonl"), "w") as f:
        for i, g in enumerate(records):
            f.write(json.dumps(dict(g, sequence=i, counters=[[0, 1], [1, 32]])) + "\n")
    merged = {}
    for g in records:
        key = (g["kernel"], g["grid"][0])
        if key in merged:
            merged[key]["count"] += 1
            merged[key]["time_ms"] += g["time_ms"]
        else:
            merged[key] = dict(g)
    groups = list(merged.values())
    prof = {"schema": "warpscope-profile/1", "pid": 1, "rank": None,
            "program": "synthetic", "device": "none", "mode": "per-launch",
            "modules": [{"module_id": mid, "database": "db-%s.json" % mid,
                         "num_counters": word, "counters": counters,
                         "complete": True}],
            "launches": groups, "launch_records": "launches-1.jsonl"}
    json.dump(db, open(os.path.join(d, "db-%s.json" % mid), "w"))
    json.dump(prof, open(os.path.join(d, "profile-1.json"), "w"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--launches", type=int, default=100000)
    ap.add_argument("--branches", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--configs", type=int, default=100,
                    help="distinct grid shapes (launches, for the worst case)")
    a = ap.parse_args()
    ws = os.path.join(a.build, "bin", "warpscope")
    d = tempfile.mkdtemp(prefix="wsspeed")
    synthesize(d, a.launches, a.branches, a.configs)
    size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    print("profile: %d launches in %d shapes, %d branches, %.1f MB on disk" % (
        a.launches, a.configs, a.branches, size / 1e6))
    for fmt in ("text", "json"):
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            subprocess.run([ws, "report", d, "--format", fmt, "-o", os.devnull],
                           check=True)
            times.append(time.perf_counter() - t)
        print("report --format %s: median %.3f s (min %.3f, max %.3f) over %d runs"
              % (fmt, statistics.median(times), min(times), max(times), a.repeat))


if __name__ == "__main__":
    main()

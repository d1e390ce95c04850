#!/usr/bin/env python3
"""Error of the timing model's representative-SM method on the suite.

Runs every benchmark (plain build, benchmarks/list.txt) on the emulator with
the timing model twice: simulating at most 8 SMs (the default) and every SM
the launch uses (WARPSCOPE_EMU_MODEL_SMS=1024), and compares the modeled
cycles summed over launches, and the worst single scaled launch. The
launch's fixed cost (launch_cycles, the same in both runs) is left out: the
comparison is of what the SMs do. Prints a markdown table
(docs/timing-model.md, "Large grids").

usage: timing_scaling.py [--build DIR] [--size "small"|"large 1"|N] [--only A,B]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def modeled(build, exe, size, sms):
    out = tempfile.mkdtemp(prefix="wsscale")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1",
               WARPSCOPE_EMU_MODEL="h100-sxm", WARPSCOPE_EMU_MODEL_SMS=str(sms))
    r = subprocess.run([exe] + size.split(), env=env, capture_output=True, text=True)
    if r.returncode or "PASS" not in r.stdout:
        raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
    launches = []
    for _, l in wsrun.launches(out):
        m = dict(l["modeled"])
        m["cycles"] -= m.get("launch_cycles", 0)
        launches.append(m)
    shutil.rmtree(out)
    return launches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    print("| program | launches | scaled | modeled cycles, 8 SMs | every SM | "
          "error | worst scaled launch |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        exe = os.path.join(a.build, "benchmarks", name)
        sub, full = modeled(a.build, exe, a.size, 8), modeled(a.build, exe, a.size, 1024)
        if len(sub) != len(full):
            print("| %s | launches differ between runs | | | | | |" % name)
            continue
        s, f = sum(l["cycles"] for l in sub), sum(l["cycles"] for l in full)
        worst = max([abs(x["cycles"] - y["cycles"]) / y["cycles"]
                     for x, y in zip(sub, full) if x["scaled"] and y["cycles"]] or [0])
        print("| %s | %d | %d | %d | %d | %+.1f%% | %.1f%% |"
              % (name, len(sub), sum(l["scaled"] for l in sub), s, f,
                 100 * (s - f) / f, 100 * worst))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

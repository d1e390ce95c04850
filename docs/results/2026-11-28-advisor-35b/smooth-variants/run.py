#!/usr/bin/env python3
"""smooth (benchmarks/advisor/pairs/occupancy_limiter) with advice applied
by hand: each VARIANT.patch here is a change to the pair's before.cu. Builds
before.cu, after.cu and each patched before.cu as
benchmarks/advisor/evaluate.py builds a plain pair program (clang++-22, -O2,
`warpscope config --cflags --no-instrument`), runs it under `warpscope run
--emulate`, and prints its checksum, the modeled cycles of kernel smooth and
the speedup over before.cu.

  run.py --build BUILD --work DIR [VARIANT.patch ...]   (default: all)"""
import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "tools"))
import wsrun  # noqa: E402  (the run directory's one reader)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("patches", nargs="*")
    a = ap.parse_args()
    ws = os.path.join(os.path.abspath(a.build), "bin", "warpscope")
    os.makedirs(a.work, exist_ok=True)
    pair = os.path.join(ROOT, "benchmarks", "advisor", "pairs",
                        "occupancy_limiter")
    sources = [os.path.join(pair, "before.cu"), os.path.join(pair, "after.cu")]
    for patch in a.patches or sorted(glob.glob(os.path.join(HERE, "*.patch"))):
        name = os.path.splitext(os.path.basename(patch))[0]
        src = os.path.join(os.path.abspath(a.work), name + ".cu")
        subprocess.run(["patch", "-s", "-o", src, sources[0], patch],
                       check=True)
        sources.append(src)

    def cfg(*flags):
        return subprocess.run([ws, "config"] + list(flags), check=True,
                              capture_output=True, text=True).stdout.split()

    base = None
    for src in sources:
        name = os.path.splitext(os.path.basename(src))[0]
        exe = os.path.abspath(os.path.join(a.work, name))
        r = subprocess.run(["clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_90",
                            "-Wno-unknown-cuda-version", "-O2",
                            "-gline-tables-only"] +
                           cfg("--cflags", "--no-instrument") +
                           ["-I", pair, src] + cfg("--ldflags") + ["-o", exe],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("cannot build %s: %s" % (src, r.stderr[-600:]))
        out = exe + ".out"
        r = subprocess.run([ws, "run", "--emulate", "--force", "-o", out,
                            "--", exe], capture_output=True, text=True,
                           env=dict(os.environ, WARPSCOPE_QUIET="1"))
        m = re.search(r"checksum (\S+)", r.stdout)
        if r.returncode or not m:
            sys.exit("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
        cycles = sum(l["modeled"]["cycles"] for _, l in wsrun.launches(out)
                     if "smooth" in l["kernel"])
        base = base or cycles
        print("%-14s checksum %s  %6d modeled cycles  %.3fx" %
              (name, m.group(1), cycles, base / cycles), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Instrumentation overhead without a GPU, and plugin compile time.

For every benchmark (benchmarks/list.txt), runs the plain and the
instrumented build at the small size on the emulator and sums the emulator's
thread- and warp-level PTX instruction executions (ground truth, emu-*.json):
the thread ratio is the proxy for run-time overhead named in the foundation
issue; the warp ratio is closer to issue slots on a GPU. Also times the
device compile of each source with and without the plugin (median of N).
Also the instrumented build's own (non-probe) instructions over the plain
build's: how far the code around the probes moved (instruction histograms
describe the instrumented build). And the thread ratio less the dead movs that
name blocks without a probe (derived counts): ptxas deletes them, so a GPU
never runs them (benchmarks/tools/dead_markers.py checks that). And the
modeled-cycles ratio: both builds run under the emulator's timing model
(WARPSCOPE_EMU_MODEL=h100-sxm, docs/timing-model.md) with the probes'
instructions modeled (WARPSCOPE_EMU_MODEL_PROBES=1; by default the model
treats them as free) and their modeled cycles, summed over launches, are
compared: the GPU-time proxy for the probes' overhead (modeled, not
measured). Prints a markdown table; exits
non-zero if a program fails.

usage: overhead.py [--build DIR] [--repeat N] [--only NAME,...]
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def instructions(out_dir):
    """(warp-level, thread-level, thread-level outside probe scopes,
    thread-level of dead marker movs) PTX instruction executions, and the
    modeled cycles of all launches."""
    warp = thread = program = dead = cycles = 0
    for _, doc in wsrun.truth(out_dir):
        cycles += sum(l["modeled"]["cycles"] for l in doc["launches"]
                      if "modeled" in l)
        for f in doc["functions"]:
            for i in f["instructions"]:
                warp += i["warp_executions"]
                thread += i["thread_executions"]
                if not i.get("instrumentation"):
                    program += i["thread_executions"]
                elif i.get("marker") and i["opcode"].startswith("mov"):
                    # A probe starts with activemask: a marked mov is the
                    # whole scope of a block whose counts are derived.
                    dead += i["thread_executions"]
    return warp, thread, program, dead, cycles


def run(build, exe, env_extra):
    out = tempfile.mkdtemp(prefix="wsovh")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1",
               WARPSCOPE_EMU_MODEL="h100-sxm", WARPSCOPE_EMU_MODEL_PROBES="1",
               **env_extra)
    r = subprocess.run([exe, "small"], env=env, capture_output=True, text=True)
    if r.returncode != 0 or "PASS" not in r.stdout:
        raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
    n = instructions(out)
    shutil.rmtree(out)
    return n


def compile_seconds(clang, src, extra, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([clang, "-x", "cuda", "--cuda-gpu-arch=sm_90",
                        "-Wno-unknown-cuda-version", "--cuda-device-only", "-O2",
                        "-S", "-I", os.path.join(ROOT, "benchmarks", "src"),
                        src, "-o", os.devnull] + extra, check=True,
                       capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-compile", action="store_true",
                    help="skip the compile-time measurement")
    a = ap.parse_args()
    cache = open(os.path.join(a.build, "CMakeCache.txt")).read()
    clang = [l.split("=", 1)[1] for l in cache.splitlines()
             if l.startswith("WARPSCOPE_CLANG:")][0]
    plugin = os.path.join(a.build, "lib", "libWarpScope.so")
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    rows, tratios, wratios, pratios, dratios, cratios, mratios = ([], [], [], [], [],
                                                                  [], [])
    for name in names:
        exe = os.path.join(a.build, "benchmarks", name)
        (pw, pt, _, _, pc), (iw, it, ip, idead, ic) = (
            run(a.build, exe, {}), run(a.build, exe + ".inst", {}))
        t0 = t1 = float("nan")
        if not a.no_compile:
            src = os.path.join(ROOT, "benchmarks", "src", name + ".cu")
            db = tempfile.mktemp(suffix=".json")
            t0 = compile_seconds(clang, src, [], a.repeat)
            t1 = compile_seconds(clang, src, ["-fpass-plugin=" + plugin, "-mllvm",
                                              "-warpscope-db-out=" + db], a.repeat)
            cratios.append(t1 / t0)
        tratios.append(it / pt)
        wratios.append(iw / pw)
        pratios.append(ip / pt)
        dratios.append((it - idead) / pt)
        mratios.append(ic / pc)
        rows.append((name, pt, it, it / pt, (it - idead) / pt, iw / pw, ip / pt,
                     ic / pc, t0, t1, t1 / t0))
        print("%s done" % name, file=sys.stderr)
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    # "program ratio": the instrumented build's own instructions (outside
    # probe scopes) over the plain build's: how much instrumenting changed
    # the code around the probes (what histograms describe vs the plain
    # program).
    print("| program | thread-instr. plain | instrumented | thread ratio | "
          "less dead markers | warp ratio | program ratio | "
          "modeled-cycles ratio | "
          "device compile plain (s) | with plugin (s) | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | "
              "%.3f |" % r)
    print("| **geomean** | | | **%.3f** | **%.3f** | **%.3f** | **%.3f** | "
          "**%.3f** | | | **%.3f** |"
          % (geo(tratios), geo(dratios), geo(wratios), geo(pratios), geo(mratios),
             geo(cratios)))


if __name__ == "__main__":
    main()

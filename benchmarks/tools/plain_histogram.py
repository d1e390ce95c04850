#!/usr/bin/env python3
"""The plain build's histogram on every benchmark (issue 22), checked.

For every benchmark (benchmarks/list.txt) this runs the instrumented build
under `warpscope run --emulate` and the plain build on the emulator (small
size, one host thread, so both run the same schedule), and per function
compares what `warpscope report` says of the plain build (`plain_build`:
same, mapped, not_mapped; docs/report-schema.md) with the emulator's ground
truth of the plain build: the plain histogram must equal the plain build's
per-opcode warp and thread counts exactly. Prints a markdown table per
program (functions same / mapped / not mapped, plain histograms exact) and a
row per function whose builds differ. Exits 1 if a plain histogram is wrong
or a program fails; 77 (skipped) without the emulator.

usage: plain_histogram.py [--build DIR] [--only NAME,...]
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def plain_truth(build, exe):
    """{function: {opcode: [warp, thread]}} of the plain build."""
    out = tempfile.mkdtemp(prefix="wsplain")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1", WARPSCOPE_EMU_THREADS="1")
    try:
        r = subprocess.run([exe, "small"], env=env, capture_output=True, text=True)
        if r.returncode != 0 or "PASS" not in r.stdout:
            raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
        h = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
        for _, f in wsrun.functions(out):
            for i in f["instructions"]:
                if i["warp_executions"]:
                    c = h[f["name"]][i["opcode"]]
                    c[0] += i["warp_executions"]
                    c[1] += i["active_threads"]
        return h
    finally:
        shutil.rmtree(out)


def instrumented_report(build, exe):
    out = tempfile.mkdtemp(prefix="wsplaininst")
    ws = os.path.join(build, "bin", "warpscope")
    env = dict(os.environ, WARPSCOPE_EMU_THREADS="1")
    try:
        r = subprocess.run([ws, "run", "--emulate", "-o", out, "--", exe, "small"],
                           env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s failed: %s" % (exe, r.stderr[-300:]))
        r = subprocess.run([ws, "report", out, "--format", "json"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("report of %s failed: %s" % (exe, r.stderr[-300:]))
        return json.loads(r.stdout)
    finally:
        shutil.rmtree(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    if not os.path.exists(os.path.join(a.build, "lib", "emu", "libcudart.so.13")):
        print("plain_histogram.py: no emulator in %s; skipped" % a.build, file=sys.stderr)
        return 77
    failed, wrong, rows, apart = [], [], [], []
    for name in names:
        exe = os.path.join(a.build, "benchmarks", name)
        try:
            truth = plain_truth(a.build, exe)
            report = instrumented_report(a.build, exe + ".inst")
        except RuntimeError as err:
            print(err, file=sys.stderr)
            failed.append(name)
            continue
        counts = collections.Counter()
        exact = 0
        for k in report["kernels"]:
            p = k["plain_build"]
            counts[p["status"]] += 1
            if p["status"] not in ("same", "mapped"):
                apart.append((name, k["mangled"], p["status"], p.get("note", ""), "", ""))
                continue
            ours = {op: [c["warp"], c["thread"]]
                    for op, c in p["instructions_by_opcode"].items() if c["warp"]}
            want = {op: c for op, c in truth.get(k["mangled"], {}).items()}
            if ours == want and p["instructions_exact"]:
                exact += 1
            else:
                wrong.append((name, k["mangled"]))
            if p["status"] == "mapped" and p["distance"]:
                top = ", ".join("%s: %d → %d" % (d["opcode"], d["plain"], d["instrumented"])
                                for d in p["differences"][:3])
                apart.append((name, k["mangled"], "mapped", "ratio %.4f, distance %.4f"
                              % (p["ratio"], p["distance"]), top, "exact" if ours == want else "WRONG"))
        rows.append((name, len(report["kernels"]), counts["same"], counts["mapped"],
                     counts["not_mapped"] + counts["unavailable"], exact))
        print("%s done" % name, file=sys.stderr)
    print("| program | functions | same | mapped | not mapped | plain histogram exact |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| %s | %d | %d | %d | %d | %d of %d |" % (r + (r[2] + r[3],)))
    print()
    print("| program | function | status | apart | largest differences (plain → instrumented) | plain histogram |")
    print("|---|---|---|---|---|---|")
    for r in apart:
        print("| %s | %s | %s | %s | %s | %s |" % r)
    for name, fn in wrong:
        print("WRONG plain histogram: %s %s" % (name, fn), file=sys.stderr)
    if failed:
        print("failed: %s" % ", ".join(failed), file=sys.stderr)
    return 1 if failed or wrong else 0


if __name__ == "__main__":
    sys.exit(main())

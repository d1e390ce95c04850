#!/usr/bin/env python3
"""How far the probes move the code around them, per kernel and per opcode.

For every benchmark (benchmarks/list.txt) this runs the plain build and the
instrumented build at the small size on the emulator (one host thread, so
both run the same schedule) and compares, per function and per PTX opcode,
the plain build's thread-level instruction executions (the emulator's ground
truth of the program as shipped) with the instrumented build's executions
outside probe scopes (what WarpScope's histograms describe). Equal counts for
every opcode mean the probes left code generation alone.

Prints a markdown table: per program the plain and non-probe totals, their
ratio, and the histogram distance (sum over function and opcode of
|instrumented - plain| over the plain total: 0 when identical, even where
differences cancel in the ratio); then per kernel that differs, its ratio,
distance and the opcodes that differ most. --json FILE also writes every
function's per-opcode counts. Exits 1 if a program fails, or with
--fail-above P if some program's ratio is more than P percent from 1.

usage: probe_perturbation.py [--build DIR] [--only NAME,...] [--json FILE]
                             [--fail-above PERCENT] [--top N]
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


def histograms(out_dir, probes_out):
    """{function: Counter(opcode -> thread executions)}; probe-scope
    instructions left out when probes_out."""
    h = collections.defaultdict(collections.Counter)
    for _, f in wsrun.functions(out_dir):
        c = h[f["name"]]
        for i in f["instructions"]:
            if probes_out and i.get("instrumentation"):
                continue
            if i["thread_executions"]:
                c[i["opcode"]] += i["thread_executions"]
    return h


def run(build, exe, probes_out):
    out = tempfile.mkdtemp(prefix="wsperturb")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1", WARPSCOPE_EMU_THREADS="1")
    r = subprocess.run([exe, "small"], env=env, capture_output=True, text=True)
    try:
        if r.returncode != 0 or "PASS" not in r.stdout:
            raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
        return histograms(out, probes_out)
    finally:
        shutil.rmtree(out)


def compare(plain, inst):
    """Per function: (plain total, instrumented total, sum |diff|,
    [(opcode, plain, inst)] of the opcodes that differ, largest first)."""
    rows = {}
    for fn in sorted(set(plain) | set(inst)):
        p, i = plain.get(fn, collections.Counter()), inst.get(fn, collections.Counter())
        diffs = [(op, p[op], i[op]) for op in set(p) | set(i) if p[op] != i[op]]
        diffs.sort(key=lambda d: (-abs(d[2] - d[1]), d[0]))
        rows[fn] = (sum(p.values()), sum(i.values()),
                    sum(abs(d[2] - d[1]) for d in diffs), diffs)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--fail-above", type=float, default=None)
    ap.add_argument("--top", type=int, default=4,
                    help="opcodes shown per differing kernel")
    a = ap.parse_args()
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        wanted = a.only.split(",")
        unknown = [n for n in wanted if n not in names]
        if unknown:
            sys.exit("probe_perturbation.py: no benchmark named %s in "
                     "benchmarks/list.txt" % ",".join(unknown))
        names = [n for n in names if n in wanted]
    results, failed = {}, []
    for name in names:
        exe = os.path.join(a.build, "benchmarks", name)
        for e in (exe, exe + ".inst"):
            if not os.access(e, os.X_OK):
                sys.exit("probe_perturbation.py: %s is not built (cmake --build "
                         "%s --target benchmarks)" % (e, a.build))
        try:
            results[name] = compare(run(a.build, exe, False),
                                    run(a.build, exe + ".inst", True))
        except RuntimeError as err:
            print(err, file=sys.stderr)
            failed.append(name)
            continue
        print("%s done" % name, file=sys.stderr)

    print("| program | plain thread-instr. | instrumented, non-probe | ratio | "
          "histogram distance | kernels differing |")
    print("|---|---:|---:|---:|---:|---:|")
    worst = 0.0
    for name, rows in results.items():
        p = sum(r[0] for r in rows.values())
        i = sum(r[1] for r in rows.values())
        d = sum(r[2] for r in rows.values())
        ratio = i / p if p else float("nan")
        worst = max(worst, abs(ratio - 1) * 100)
        differing = sum(1 for r in rows.values() if r[2])
        print("| %s | %d | %d | %.4f | %.4f | %d of %d |"
              % (name, p, i, ratio, d / p if p else 0, differing, len(rows)))
    print()
    print("| program | function | plain | non-probe | ratio | distance | "
          "largest differences (opcode: plain → instrumented) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, rows in results.items():
        for fn, (p, i, d, diffs) in rows.items():
            if not d:
                continue
            shown = ", ".join("%s: %d → %d" % x for x in diffs[:a.top])
            print("| %s | %s | %d | %d | %.4f | %.4f | %s |"
                  % (name, fn, p, i, i / p if p else float("inf"),
                     d / p if p else float("inf"), shown))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({n: {fn: {"plain": r[0], "non_probe": r[1],
                                "differences": [list(x) for x in r[3]]}
                           for fn, r in rows.items()}
                       for n, rows in results.items()}, f, indent=1)
    if failed:
        print("failed: %s" % ", ".join(failed), file=sys.stderr)
        return 1
    if a.fail_above is not None and worst > a.fail_above:
        print("a program's non-probe ratio is %.2f%% from 1 (limit %.2f%%)"
              % (worst, a.fail_above), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

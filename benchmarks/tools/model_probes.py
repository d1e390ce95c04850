#!/usr/bin/env python3
"""Modeled cycles of the suite: plain build, instrumented build with the
probes free (the timing model's default) and with the probes modeled
(WARPSCOPE_EMU_MODEL_PROBES=1).

For every benchmark (benchmarks/list.txt) runs the plain build once and the
instrumented build twice at the given size on the emulator with the timing
model (h100-sxm; docs/timing-model.md, "Probes") and modeled PC sampling
(default period), and sums the modeled
cycles of all launches (emu-*.json launches[].modeled.cycles). Also says
how the instrumented build's instructions outside probe scopes compare with
the plain build's (ground truth, per function, with their thread
executions; instructions never issued left out): `same` (the same
instructions in the same order), `same issued` (the same once the
instructions the model charges nothing are left out: a kernel's ld.param,
cvta.to.global, nop; docs/timing-model.md, "PTX is not SASS"), `reordered`
(the same opcodes and executions, in another order) or `differs`: only with
`same` or `same issued` can free probes give the plain build's cycles and
samples exactly. And whether the modeled samples of the plain run and
the probes-free run are equal at every program instruction (function,
PTX index; samples and stall reasons) and per source line (function,
file, line). Per line they differ wherever code inlined from clang's or
CUDA's headers ran: the instrumented build puts it on the calling line
(the plugin's `inlined-lines`, default toolkit), the plain build on the
header's.
With --no-registers the emulator gets no register counts from ptxas
(WARPSCOPE_PTXAS=/bin/false, no ptxas cache), so that occupancy is not limited by
registers, which the probes change (the instrumented kernel's ptxas
count); that isolates what else differs. All cycles are modeled, not
measured. Prints a markdown table; --json FILE also writes the rows.
Exits non-zero if a program fails.

usage: model_probes.py [--build DIR] [--size small] [--only A,B]
                       [--no-registers] [--json FILE]
"""
import argparse
import collections
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(a, exe, extra):
    """(modeled cycles summed over launches, per launch, the probes label,
    per function the program instructions issued: (opcode, warp and thread
    executions))."""
    out = tempfile.mkdtemp(prefix="wsmp")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(a.build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1",
               WARPSCOPE_EMU_MODEL="h100-sxm", WARPSCOPE_EMU_PC_SAMPLING="1",
               # One emulator thread: programs whose atomics race (bfs)
               # then run the same schedule every time.
               WARPSCOPE_EMU_THREADS="1")
    env.pop("WARPSCOPE_EMU_MODEL_PROBES", None)
    env.update(extra)
    if a.no_registers:  # and no cached ptxas report either
        env["WARPSCOPE_PTXAS"] = "/bin/false"
        env["XDG_CACHE_HOME"] = out
    r = subprocess.run([exe, a.size], env=env, capture_output=True, text=True)
    if r.returncode != 0 or "PASS" not in r.stdout:
        raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
    launches, labels, program = [], set(), {}
    for _, doc in wsrun.truth(out):
        for l in doc["launches"]:
            launches.append(l["modeled"]["cycles"])
            labels.add(l["modeled"].get("probes", ""))
        for f in doc["functions"]:
            # Instructions never issued cannot change modeled time.
            program[f["name"]] = [(i["opcode"], i["warp_executions"],
                                   i["thread_executions"], f["kernel"])
                                  for i in f["instructions"]
                                  if not i.get("instrumentation") and
                                  i["warp_executions"]]
    samples, lines = {}, {}
    for _, p in wsrun.pc_samples(out):
        samples[(p["function"], p["ptx_index"])] = (p["samples"], p["stalls"])
        at = lines.setdefault((p["function"], p["file"], p["line"]),
                              collections.Counter())
        at.update(p["stalls"])
    shutil.rmtree(out)
    return sum(launches), launches, labels, program, (samples, lines)


def charged(i):
    """Whether the model charges the instruction (opcode, warp, thread
    executions, in a kernel) anything."""
    op, _, _, kernel = i
    return not ((kernel and op.startswith("ld.param")) or
                op.startswith("cvta.to.global") or op == "nop")


def compare(plain, inst):
    if plain == inst:
        return "same"
    issued = lambda p: {k: [i for i in v if charged(i)] for k, v in p.items()}
    if issued(plain) == issued(inst):
        return "same issued"
    hist = lambda p: {k: collections.Counter(v) for k, v in p.items()}
    return "reordered" if hist(plain) == hist(inst) else "differs"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-registers", action="store_true")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    rows = []
    for name in names:
        exe = os.path.join(a.build, "benchmarks", name)
        plain, pl, plabels, pprog, psamples = run(a, exe, {})
        free, fl, flabels, fprog, fsamples = run(a, exe + ".inst", {})
        modeled, _, mlabels, _, _ = run(a, exe + ".inst",
                                        {"WARPSCOPE_EMU_MODEL_PROBES": "1"})
        if plabels != {""} or flabels != {"free"} or mlabels != {"modeled"}:
            raise RuntimeError("%s: probes labels %s / %s / %s" % (
                name, plabels, flabels, mlabels))
        same = compare(pprog, fprog)
        equal = sum(1 for p, f in zip(pl, fl) if p == f)
        rows.append({"program": name, "plain": plain, "free": free,
                     "modeled": modeled, "identical_program": same,
                     "launches": len(pl), "launches_equal": equal,
                     "samples": sum(n for n, _ in psamples[0].values()),
                     "samples_equal": psamples[0] == fsamples[0],
                     "line_samples_equal": psamples[1] == fsamples[1]})
        print("%s done" % name, file=sys.stderr)
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    print("| program | program instructions | plain (modeled cycles) | "
          "instrumented, probes free | ratio | launches equal | "
          "modeled samples (plain) | equal per instruction | per line | "
          "probes modeled | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|")
    for r in rows:
        print("| %s | %s | %d | %d | %.4f | %d of %d | %d | %s | %s | %d | %.4f |" % (
            r["program"], r["identical_program"], r["plain"],
            r["free"], r["free"] / r["plain"], r["launches_equal"], r["launches"],
            r["samples"], "yes" if r["samples_equal"] else "no",
            "yes" if r["line_samples_equal"] else "no",
            r["modeled"], r["modeled"] / r["plain"]))
    print("| **geomean** | | | | **%.4f** | | | | | | **%.4f** |" % (
        geo([r["free"] / r["plain"] for r in rows]),
        geo([r["modeled"] / r["plain"] for r in rows])))
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()

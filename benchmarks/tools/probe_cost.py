#!/usr/bin/env python3
"""The probes' cost without a GPU, calibrated on real SASS (issue 37).

Per benchmark (benchmarks/list.txt) and kernel, from this machine alone:

- registers, static shared memory and static SASS instructions of the plain
  and the instrumented build: each build's device PTX (clang 22, the
  benchmarks' flags, with and without the plugin) through `ptxas -v
  --gpu-name sm_90` (the ptxas of the GPU sessions, CUDA 13.0), the SASS
  instruction count being the kernel's .text section size / 16 (`readelf`;
  equal to nvdisasm's listings of the same PTX: 2026-11-27 H200 fixtures);
- the PTX instructions of each build, program and probe (inline asm scopes
  whose first line names a `ws:` marker), static and dynamic (warp
  executions on the emulator at the small size);
- modeled cycles per kernel (the emulator's timing model, h100-sxm, probes
  charged: WARPSCOPE_EMU_MODEL_PROBES=1) of both builds;
- occupancy (warps per SM) from registers, block size and shared memory by
  the rules of include/warpscope/Support/Occupancy.h (cuda_occupancy.h).

The proxy of the instrumented/plain time ratio of a kernel:

    issue = 1 + (modeled_inst / modeled_plain - 1) * (e_probe / e_prog)
    occ   = (min(W_plain, S) / min(W_inst, S)) ** BETA
    ratio = issue * occ

e_prog is the plain kernel's SASS per PTX instruction and e_probe the SASS
instructions the probes add per probe PTX instruction (static, this
kernel's): the timing model prices a probe's PTX instruction like a program
one, while its SASS costs e_probe / e_prog times more issue slots (64-bit
registered adds become IADD3/IMAD.X/SEL chains, each predicated atomic a
BSSY/BRA/BSYNC region). W is the warps per SM a full grid (size large) keeps
resident, or the grid's own (size small, from the launches); S and BETA
are the two calibrated constants: fitted to the H200's measured large-size
overheads of the build they measured (calibration rows kept in
docs/results/2026-11-28-probe-cost/), the error reported against the H200
(fit and leave-one-out) and the 2026-11-23 H100 figures. A program's ratio
weighs its kernels by their plain modeled cycles. Every figure is modeled.

usage: probe_cost.py collect [--build DIR] [--plugin SO] [--only A,B] -o FEATURES.csv
       probe_cost.py model FEATURES.csv [--calib CALIB.csv] [--measured CSV]
                     [--fit] [--size small|large] [--json OUT]
       probe_cost.py compare BEFORE.csv AFTER.csv
       probe_cost.py explain FEATURES.csv [--size small|large]
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PTXAS = os.environ.get("WARPSCOPE_PTXAS", "/usr/local/cuda/bin/ptxas")
NUM_SMS = 132  # H200 and H100 SXM

# Calibrated constants (fit of 2026-11-28 on the H200's large-size
# overheads of build a4a7785; docs/results/2026-11-28-probe-cost.md).
S_WARPS = 64.0
BETA = 0.35


# --- static features -------------------------------------------------------

def device_ptx(clang, name, plugin, out):
    src = os.path.join(ROOT, "benchmarks", "src", name + ".cu")
    cmd = [clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
           "-O2", "--cuda-device-only", "-S", "-I", os.path.join(ROOT, "include"),
           "-I", os.path.join(ROOT, "benchmarks", "src"), src, "-o", out]
    if plugin:
        db = out + ".db.json"
        cmd += ["-fpass-plugin=" + plugin, "-mllvm", "-warpscope-db-out=" + db]
    subprocess.run(cmd, check=True, capture_output=True)


def ptxas_kernels(ptx, cubin):
    """{entry: (registers, static shared bytes)} from ptxas -v."""
    r = subprocess.run([PTXAS, "-v", "--gpu-name", "sm_90", ptx, "-o", cubin],
                       check=True, capture_output=True, text=True)
    out, cur = {}, None
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = m.group(1)
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            smem = re.search(r"(\d+) bytes smem", line)
            out[cur] = (int(m.group(1)), int(smem.group(1)) if smem else 0)
            cur = None
    return out


def sass_sizes(cubin):
    """{function: static SASS instructions} from the cubin's .text sections."""
    r = subprocess.run(["readelf", "-SW", cubin], check=True, capture_output=True,
                       text=True)
    out = {}
    for line in r.stdout.splitlines():
        m = re.search(r"\.text\.(\S+)\s+PROGBITS\s+\S+\s+\S+\s+([0-9a-f]+)", line)
        if m:
            out[m.group(1)] = int(m.group(2), 16) // 16
    return out


def ptx_static(ptx):
    """{function: (program instructions, probe instructions)} of a PTX file,
    each function's counts with those of the functions it calls (ptxas
    inlines them: the kernel's SASS holds their code)."""
    own, calls = ptx_functions(ptx)

    def total(f, seen):
        n = list(own.get(f, (0, 0)))
        for c in calls.get(f, ()):
            if c not in seen:
                seen.add(c)
                t = total(c, seen)
                n[0] += t[0]
                n[1] += t[1]
        return n
    return {f: tuple(total(f, {f})) for f in own}


def callees(ptx):
    """{function: set of functions it calls} of a PTX file."""
    return ptx_functions(ptx)[1]


def ptx_functions(ptx):
    """({function: [program, probe instructions]}, {function: callees})."""
    out, calls, cur, depth, in_asm, probe_asm, first = ({}, {}, None, 0, False, False,
                                                        False)
    for raw in open(ptx):
        line = raw.strip()
        m = re.match(r"(?:\.(?:visible|weak|extern)\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)",
                     line)
        if m and cur is None:
            cur, depth = m.group(1), 0
            out.setdefault(cur, [0, 0])
            continue
        if cur is None:
            continue
        if line.startswith("// begin inline asm"):
            in_asm, first = True, True
            continue
        if line.startswith("// end inline asm"):
            in_asm = probe_asm = False
            continue
        if in_asm and first and line.startswith("//"):
            probe_asm = "ws:" in line
            first = False
            continue
        first = False
        code = line.split("//")[0].strip()
        if code == "{":
            depth += 1
            continue
        if code == "}":
            depth -= 1
            if depth == 0 and not in_asm:
                cur = None
            continue
        if not code.endswith(";") or code.startswith("."):
            continue
        m = re.match(r"call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?(\w+)", code)
        if m:
            calls.setdefault(cur, set()).add(m.group(1))
        out[cur][1 if probe_asm else 0] += 1
    return out, calls


# --- dynamic features ------------------------------------------------------

def emulate(build, exe, probes):
    """Per kernel: modeled cycles, launches [(threads, grid blocks, dynamic
    shared)], dynamic warp-level PTX instructions (program, probe)."""
    out = tempfile.mkdtemp(prefix="wscost")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1", WARPSCOPE_EMU_MODEL="h100-sxm",
               WARPSCOPE_EMU_MODEL_PROBES="1" if probes else "0")
    r = subprocess.run([exe, "small"], env=env, capture_output=True, text=True)
    if r.returncode != 0 or "PASS" not in r.stdout:
        raise RuntimeError("%s failed: %s%s" % (exe, r.stdout[-300:], r.stderr[-300:]))
    k = {}
    for _, doc in wsrun.truth(out):
        for l in doc["launches"]:
            e = k.setdefault(l["kernel"], {"cycles": 0, "launches": [], "prog": 0,
                                           "probe": 0})
            e["cycles"] += l.get("modeled", {}).get("cycles", 0)
            b, g = l["block"], l["grid"]
            e["launches"].append((b[0] * b[1] * b[2], g[0] * g[1] * g[2],
                                  l.get("shared_bytes", 0)))
        for f in doc["functions"]:
            e = k.setdefault(f["name"], {"cycles": 0, "launches": [], "prog": 0,
                                         "probe": 0})
            for i in f["instructions"]:
                e["probe" if i.get("instrumentation") else "prog"] += i["warp_executions"]
                if i.get("instrumentation") and i["opcode"].startswith("red."):
                    e["red"] = e.get("red", 0) + i["warp_executions"]
    shutil.rmtree(out)
    return k


def fold_callees(dyn, calls):
    """Adds each device function's dynamic instructions to the first kernel
    (by name) that reaches it (ptxas inlines it there)."""
    def reaches(f, g, seen):
        return any(c == g or (c not in seen and not seen.add(c) and
                              reaches(c, g, seen)) for c in calls.get(f, ()))
    kernels = sorted(k for k, v in dyn.items() if v["launches"])
    for f, v in list(dyn.items()):
        if v["launches"]:
            continue
        for k in kernels:
            if reaches(k, f, set()):
                dyn[k]["prog"] += v["prog"]
                dyn[k]["probe"] += v["probe"]
                dyn[k]["red"] = dyn[k].get("red", 0) + v.get("red", 0)
                break


def collect(a):
    cache = open(os.path.join(a.build, "CMakeCache.txt")).read()
    clang = [l.split("=", 1)[1] for l in cache.splitlines()
             if l.startswith("WARPSCOPE_CLANG:")][0]
    plugin = a.plugin or os.path.join(a.build, "lib", "libWarpScope.so")
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    tmp = tempfile.mkdtemp(prefix="wscost")
    rows = []
    for name in names:
        st = {}
        for variant, plug in (("plain", None), ("inst", plugin)):
            ptx = os.path.join(tmp, "%s.%s.ptx" % (name, variant))
            cubin = ptx[:-4] + ".cubin"
            device_ptx(clang, name, plug, ptx)
            st[variant] = (ptxas_kernels(ptx, cubin), sass_sizes(cubin), ptx_static(ptx))
        exe = os.path.join(a.build, "benchmarks", name)
        dp = emulate(a.build, exe, False)
        di = emulate(a.build, exe + ".inst", True)
        fold_callees(di, callees(os.path.join(tmp, "%s.inst.ptx" % name)))
        for kern, (regs, smem) in sorted(st["plain"][0].items()):
            ir, ismem = st["inst"][0].get(kern, (0, 0))
            launches = dp.get(kern, {}).get("launches", [])
            rows.append({
                "program": name, "kernel": kern,
                "plain_regs": regs, "inst_regs": ir,
                "plain_smem": smem, "inst_smem": ismem,
                "plain_sass": st["plain"][1].get(kern, 0),
                "inst_sass": st["inst"][1].get(kern, 0),
                "plain_ptx": st["plain"][2].get(kern, (0, 0))[0],
                "inst_ptx_prog": st["inst"][2].get(kern, (0, 0))[0],
                "inst_ptx_probe": st["inst"][2].get(kern, (0, 0))[1],
                "plain_cycles": dp.get(kern, {}).get("cycles", 0),
                "inst_cycles": di.get(kern, {}).get("cycles", 0),
                "dyn_prog": di.get(kern, {}).get("prog", 0),
                "dyn_probe": di.get(kern, {}).get("probe", 0),
                "dyn_red": di.get(kern, {}).get("red", 0),
                "launches": ";".join("%d/%d/%d" % l for l in launches),
            })
        print("%s done" % name, file=sys.stderr)
    shutil.rmtree(tmp)
    with open(a.output, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


# --- the model -------------------------------------------------------------

def occupancy_warps(threads, regs, smem):
    """Warps per SM (Occupancy.h's theoreticalOccupancy, H100/H200 limits)."""
    if not threads or threads > 1024:
        return 0
    up = lambda v, u: (v + u - 1) // u * u
    warps = up(threads, 32) // 32
    by_threads, by_blocks = 64 // warps, 32
    by_regs = 1 << 30
    if regs:
        per_warp = up(regs * 32, 256)
        if regs > 255 or per_warp * up(warps, 4) > 65536:
            by_regs = 0
        else:
            by_regs = (65536 // 4 // per_warp) * 4 // warps
    shared = up(smem + 1024, 128)
    by_shared = 0 if shared > 228 * 1024 else 228 * 1024 // shared
    return min(by_threads, by_blocks, by_regs, by_shared) * warps


def kernel_ratio(r, size, s_warps, beta):
    """(issue factor, occupancy factor) of one kernel."""
    cp, ci = float(r["plain_cycles"]), float(r["inst_cycles"])
    e_prog = float(r["plain_sass"]) / max(1.0, float(r["plain_ptx"]))
    e_probe = max(0.0, float(r["inst_sass"]) - float(r["plain_sass"])) / max(
        1.0, float(r["inst_ptx_probe"]))
    m = ci / cp if cp else 1.0
    issue = 1.0 + max(0.0, m - 1.0) * (e_probe / e_prog if e_prog else 1.0)
    wp = wi = 0.0
    n = 0
    for l in filter(None, r["launches"].split(";")):
        threads, blocks, dyn = map(int, l.split("/"))
        tp = occupancy_warps(threads, int(r["plain_regs"]), int(r["plain_smem"]) + dyn)
        ti = occupancy_warps(threads, int(r["inst_regs"]), int(r["inst_smem"]) + dyn)
        if size == "small":
            # The grid's own warps per SM where it does not fill the GPU.
            per_sm = math.ceil(blocks / NUM_SMS) * ((threads + 31) // 32)
            tp, ti = min(tp, per_sm), min(ti, per_sm)
        wp += tp
        wi += ti
        n += 1
    occ = 1.0
    if n and wi > 0:
        occ = (min(wp / n, s_warps) / min(wi / n, s_warps)) ** beta
    return issue, occ


def program_ratios(rows, size, s_warps, beta):
    by = {}
    for r in rows:
        p = by.setdefault(r["program"], [0.0, 0.0, 0.0, 0.0])
        issue, occ = kernel_ratio(r, size, s_warps, beta)
        w = float(r["plain_cycles"])
        p[0] += w
        p[1] += w * issue * occ
        p[2] += w * issue
        p[3] += w * float(r["inst_cycles"]) / max(1.0, w) if w else 0
    return {k: {"proxy": v[1] / v[0], "issue": v[2] / v[0], "modeled": v[3] / v[0]}
            for k, v in by.items() if v[0] > 0}


def measured_ratios(path, size):
    """program -> measured overhead from overhead-power.csv (H200: size,
    loading columns) or a program,overhead CSV."""
    out, rows = {}, list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
    if rows and "variant" in rows[0]:
        # 2026-11-23 H100 replicas-large.csv: the 256-replica build over plain.
        t = {(r["program"], r["variant"]): float(r["time_ms"]) for r in rows}
        return {p: t[(p, "k256")] / t[(p, "plain")] for p, v in t if v == "plain"
                and (p, "k256") in t}
    for r in rows:
        if "size" in r and (r["size"] != size or r.get("loading", "eager") != "eager"):
            continue
        if not r.get("overhead") or r.get("kernel", "*") != "*":
            continue  # a run that timed out; a per-kernel row
        out[r["program"]] = float(r["overhead"])
    return out


def geo(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def log_error(pred, meas):
    """Geomean of |log(pred/meas)| as a factor, and the median APE."""
    keys = sorted(set(pred) & set(meas))
    errs = [abs(math.log(pred[k] / meas[k])) for k in keys]
    apes = sorted(abs(pred[k] / meas[k] - 1) for k in keys)
    return (math.exp(sum(errs) / len(errs)) if errs else float("nan"),
            apes[len(apes) // 2] if apes else float("nan"), len(keys))


def fit(rows, meas, size):
    best = None
    for s in (8, 12, 16, 20, 24, 32, 40, 48, 64):
        for b in [x / 20 for x in range(0, 41)]:
            pred = {k: v["proxy"] for k, v in program_ratios(rows, size, s, b).items()}
            err = log_error(pred, meas)[0]
            if best is None or err < best[0]:
                best = (err, s, b)
    return best[1], best[2]


def model(a):
    rows = list(csv.DictReader(open(a.features)))
    s, b = S_WARPS, BETA
    if a.fit:
        calib = list(csv.DictReader(open(a.calib or a.features)))
        meas = measured_ratios(a.measured, "large")
        s, b = fit(calib, meas, "large")
        # Leave one out: each program predicted by a fit without it.
        loo = {}
        for k in meas:
            s1, b1 = fit([r for r in calib if r["program"] != k],
                         {p: v for p, v in meas.items() if p != k}, "large")
            loo[k] = program_ratios([r for r in calib if r["program"] == k],
                                    "large", s1, b1).get(k, {}).get("proxy")
        loo = {k: v for k, v in loo.items() if v}
        e = log_error(loo, meas)
        print("fit: S=%g BETA=%g; leave-one-out error: geomean factor %.3f, "
              "median APE %.1f%% over %d programs" % (s, b, e[0], 100 * e[1], e[2]))
    ratios = program_ratios(rows, a.size, s, b)
    meas = measured_ratios(a.measured, a.size) if a.measured else {}
    print("| program | modeled (PTX-priced) | issue (SASS-priced) | proxy | measured "
          "| proxy / measured |")
    print("|---|---:|---:|---:|---:|---:|")
    for k in sorted(ratios):
        v = ratios[k]
        print("| %s | %.3f | %.3f | %.3f | %s | %s |" % (
            k, v["modeled"], v["issue"], v["proxy"],
            "%.3f" % meas[k] if k in meas else "",
            "%.2f" % (v["proxy"] / meas[k]) if k in meas else ""))
    both = [k for k in ratios if k in meas]
    print("| **geomean** | **%.3f** | **%.3f** | **%.3f** | %s | %s |" % (
        geo(v["modeled"] for v in ratios.values()),
        geo(v["issue"] for v in ratios.values()),
        geo(v["proxy"] for v in ratios.values()),
        "**%.3f**" % geo(meas[k] for k in both) if both else "",
        "**%.2f**" % geo(ratios[k]["proxy"] / meas[k] for k in both) if both else ""))
    print("max proxy: %.3f (%s)" % max((v["proxy"], k) for k, v in ratios.items()))
    if meas:
        e = log_error({k: v["proxy"] for k, v in ratios.items()}, meas)
        print("error against measured: geomean factor %.3f, median APE %.1f%% "
              "over %d programs" % (e[0], 100 * e[1], e[2]))
        for col in ("modeled", "issue"):
            e = log_error({k: v[col] for k, v in ratios.items()}, meas)
            print("  (the %s column alone: geomean factor %.3f, median APE %.1f%%)"
                  % (col, e[0], 100 * e[1]))
    if a.json:
        json.dump({"S": s, "BETA": b, "size": a.size, "programs": ratios},
                  open(a.json, "w"), indent=1)


def compare(a):
    """Before and after, per program: the instrumented build's registers
    (the kernels' maximum; plain in brackets), static SASS over plain (sum
    over kernels), modeled cycles over plain (PTX-priced) and the proxy at
    both sizes."""
    tables = [list(csv.DictReader(open(f))) for f in (a.before, a.after)]
    stats = []
    for rows in tables:
        per = {}
        for r in rows:
            p = per.setdefault(r["program"], [0, 0, 0, 0, 0.0, 0.0])
            p[0] = max(p[0], int(r["plain_regs"]))
            p[1] = max(p[1], int(r["inst_regs"]))
            p[2] += int(r["plain_sass"])
            p[3] += int(r["inst_sass"])
            p[4] += float(r["plain_cycles"])
            p[5] += float(r["inst_cycles"])
        stats.append((per, program_ratios(rows, "small", S_WARPS, BETA),
                      program_ratios(rows, "large", S_WARPS, BETA)))
    print("| program | registers before | after | static SASS before | after | "
          "modeled cycles before | after | proxy small before | after | "
          "proxy large before | after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    cols = {k: [] for k in range(10)}
    for name in sorted(stats[0][0]):
        if name not in stats[1][0]:
            continue
        vals = []
        for i, (per, small, large) in enumerate(stats):
            p = per[name]
            vals.append((p[0], p[1], p[3] / p[2], p[5] / p[4], small[name]["proxy"],
                         large[name]["proxy"]))
        b, f = vals
        row = [b[2], f[2], b[3], f[3], b[4], f[4], b[5], f[5]]
        for k, v in enumerate(row):
            cols[k].append(v)
        print("| %s | %d (%d) | %d | %.2fx | %.2fx | %.3f | %.3f | %.3f | %.3f | "
              "%.3f | %.3f |" % ((name, b[1], b[0], f[1]) + tuple(row)))
    print("| **geomean** | | | %s |" % " | ".join("**%.3f**" % geo(cols[k])
                                                 for k in range(8)))
    print("| **max** | | | %s |" % " | ".join("%.3f" % max(cols[k]) for k in range(8)))


def explain(a):
    """Per program, where the proxy's cost comes from: registers (the
    kernels' maximum, plain then instrumented), the issue factor and the
    occupancy factor at --size, and per program PTX instruction executed
    (warp level, emulator, small size) the probes' PTX instructions and
    their atomics (red)."""
    rows = list(csv.DictReader(open(a.features)))
    ratios = program_ratios(rows, a.size, S_WARPS, BETA)
    per = {}
    for r in rows:
        p = per.setdefault(r["program"], [0, 0, 0, 0, 0])
        p[0] = max(p[0], int(r["plain_regs"]))
        p[1] = max(p[1], int(r["inst_regs"]))
        p[2] += int(r["dyn_prog"])
        p[3] += int(r["dyn_probe"])
        p[4] += int(r["dyn_red"])
    print("| program | registers | issue | occupancy | proxy | probe PTX per "
          "program PTX | atomics per 1000 program PTX |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k in sorted(ratios):
        v, p = ratios[k], per[k]
        print("| %s | %d → %d | %.3f | %.3f | %.3f | %.2f | %.1f |" % (
            k, p[0], p[1], v["issue"], v["proxy"] / v["issue"], v["proxy"],
            p[3] / max(1, p[2]), 1000.0 * p[4] / max(1, p[2])))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--only", default="")
    c.add_argument("--plugin", help="the plugin (default: the build's)")
    c.add_argument("-o", "--output", required=True)
    m = sub.add_parser("model")
    m.add_argument("features")
    m.add_argument("--calib", help="features of the build --measured measured")
    m.add_argument("--measured", help="overhead-power.csv or program,overhead CSV")
    m.add_argument("--fit", action="store_true")
    m.add_argument("--size", default="large", choices=["small", "large"])
    m.add_argument("--json")
    d = sub.add_parser("compare")
    d.add_argument("before")
    d.add_argument("after")
    e = sub.add_parser("explain")
    e.add_argument("features")
    e.add_argument("--size", default="large", choices=["small", "large"])
    a = ap.parse_args()
    {"collect": collect, "model": model, "compare": compare, "explain": explain}[a.cmd](a)


if __name__ == "__main__":
    main()

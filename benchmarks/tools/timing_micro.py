#!/usr/bin/env python3
"""The timing model against its own configuration (issue 17 item 7).

Builds benchmarks/micro/timing_micro.cu, runs it on the emulator with the
timing model (WARPSCOPE_EMU_MODEL=CONFIG) and derives each configured figure
back from the launches' modeled cycles (emu-*.json, in launch order): FP32
and FP64 dependent-FMA latency, FP32 FMA throughput per SM, MUFU (ex2)
latency and throughput, blocks per SM as the occupancy rules limit them
(shared memory sweep, h100-sxm), L1 / L2 / DRAM
load latency (pointer chase), shared-memory cycles per bank-conflict degree,
streaming DRAM bandwidth (the sustained figure), and issue 34's
mechanisms: the launch's fixed cost (an empty kernel), the serialized
same-address global atomic, the shared atomic pass, the merged shared
increment, an unrolled loop's loads in flight, and what a fence
costs (a store then membar.gl / membar.sys; atomicCAS's `fence.sc.sys`
against a relaxed atomic add). Prints a markdown table of derived vs
configured with the error; exits 1 if any is off by more than 10%.

With --measured NCU.csv the same figures are derived from a GPU's cycles
instead: Nsight Compute's raw page of the program's launches, in launch
order (`ncu --csv --page raw --metrics
gpu__time_duration.sum,sm__cycles_elapsed.max timing_micro`; session.sh's
`micro` phase). The table then says how far each configured figure is from
the GPU's; it is a report (exit 0). --as-ncu-csv FILE writes the modeled
launches in that format (a dry run of the measured path).

usage: timing_micro.py [--build DIR] [--config NAME] [--exe BUILT_PROGRAM]
                       [--measured NCU.csv | --as-ncu-csv FILE]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "gpu"))
import ncu_csv  # Nsight Compute's CSV, its one reader

# The launches of timing_micro.cu's main(), in order (a --measured CSV must
# hold exactly these kernels in this order).
EMPTY = 33  # the empty kernel: the launch's fixed cost
FENCES = 40  # casLoop x2, addLoop x2, storeFence none, gl, sys x2 each
THIRD = 50  # sharedIncrement, staging, stagingKept, stagingStrided x2 each
CAS = 58  # sharedFloatAdd on one word x2, on 32 words of one bank x2
SWITCH = 62  # switchPaths with 1, 2, 4, 8 paths, x2 each
LAUNCHES = 70

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def config_values(name):
    d = json.load(open(os.path.join(ROOT, "runtime", "emu", "timing", "configs",
                                    name + ".json")))
    return {k: (v["value"] if isinstance(v, dict) else v) for k, v in d.items()}


def modeled_cycles(a, c):
    """(cycles per launch without its fixed cost, clock MHz, the empty
    kernel's fixed cost in ns, the modeled launches) of a run on the
    emulator with the timing model."""
    work = tempfile.mkdtemp(prefix="wsmicro")
    exe = a.exe or os.path.join(work, "timing_micro")
    if not a.exe:
        subprocess.run([a.clang, "-x", "cuda", "--cuda-gpu-arch=sm_90",
                        "-Wno-unknown-cuda-version", "--cuda-path=" + a.cuda,
                        "-O2", "--cuda-include-ptx=sm_90",
                        os.path.join(ROOT, "benchmarks", "micro",
                                     "timing_micro.cu"),
                        "-L" + os.path.join(a.cuda, "lib64"), "-lcudart", "-o",
                        exe], check=True)
    out = os.path.join(work, "out")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(a.build, "lib", "emu"),
               WARPSCOPE_OUT=out, WARPSCOPE_EMU_MODEL=a.config)
    r = subprocess.run([exe], env=env, capture_output=True, text=True)
    if r.returncode or "done" not in r.stdout:
        sys.exit("timing_micro failed: " + r.stdout + r.stderr)
    ((_, doc),) = wsrun.truth(out)
    modeled = [l["modeled"] for l in doc["launches"]]
    if len(modeled) != LAUNCHES:
        sys.exit("timing_micro: %d modeled launches, expected %d"
                 % (len(modeled), LAUNCHES))
    # Cycles without the launch's fixed cost (its own row).
    cyc = [m["cycles"] - m.get("launch_cycles", 0) for m in modeled]
    clock = modeled[0].get("clock_mhz", c["clock_mhz"])
    return cyc, clock, modeled[EMPTY]["launch_cycles"] / clock * 1e3, modeled


def write_ncu_csv(path, modeled, clock):
    """The modeled launches as Nsight Compute's raw page (what --measured
    reads): time and cycles, the fixed cost included as a GPU measures it."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(["ID", "Kernel Name", "gpu__time_duration.sum",
                    "sm__cycles_elapsed.max"])
        w.writerow(["", "", "ns", "cycle"])
        for i, m in enumerate(modeled):
            w.writerow([i, "launch%d" % i, "%.3f" % (m["cycles"] / clock * 1e3),
                        "{:,}".format(int(m["cycles"]))])


def measured_cycles(path):
    """(cycles per launch without the fixed cost, the clock in MHz, the
    fixed cost in ns, a label) from a GPU's raw-page CSV: the empty kernel's
    cycles are the fixed cost, as the model's launch_cycles are."""
    try:
        _, units, launches = ncu_csv.raw(path)
    except (OSError, ValueError) as e:
        sys.exit("timing_micro.py: %s; pass the raw page of ncu (--csv --page raw)" % e)
    if len(launches) != LAUNCHES:
        sys.exit("timing_micro.py: %s has %d launches, timing_micro.cu makes %d;"
                 " profile every launch (--launch-count %d or more)"
                 % (path, len(launches), LAUNCHES, LAUNCHES))
    ns, cycles = [], []
    for l in launches:
        t = ncu_csv.number(l.get("gpu__time_duration.sum"))
        k = ncu_csv.number(l.get("sm__cycles_elapsed.max"))
        if t is None or k is None:
            sys.exit("timing_micro.py: %s lacks gpu__time_duration.sum or "
                     "sm__cycles_elapsed.max for launch %s; profile with "
                     "--metrics gpu__time_duration.sum,sm__cycles_elapsed.max"
                     % (path, l.get("ID")))
        ns.append(ncu_csv.nanoseconds(t, units.get("gpu__time_duration.sum", "ns"),
                                      path))
        cycles.append(k)
    # The clock of the longest launch (the copy): the shortest are mostly
    # fixed cost, during which an SM's cycles need not run.
    longest = max(range(LAUNCHES), key=lambda i: ns[i])
    clock = cycles[longest] / ns[longest] * 1e3
    floor = cycles[EMPTY]
    return [k - floor for k in cycles], clock, ns[EMPTY], "measured"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--config", default="h100-sxm")
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--exe", help="timing_micro.cu already built")
    ap.add_argument("--measured", metavar="NCU_CSV",
                    help="derive the figures from a GPU's cycles (ncu raw page)")
    ap.add_argument("--as-ncu-csv", metavar="FILE",
                    help="also write the modeled launches as ncu's raw page")
    a = ap.parse_args()
    c = config_values(a.config)
    if "launch_overhead_ns" not in c:
        c["launch_overhead_ns"] = 0
    if a.measured:
        cyc, clock, floor_ns, where = measured_cycles(a.measured)
    else:
        cyc, clock, floor_ns, modeled = modeled_cycles(a, c)
        where = "modeled"
        if a.as_ncu_csv:
            write_ncu_csv(a.as_ncu_csv, modeled, clock)
    rows = []

    def row(what, derived, configured, unit):
        # Measured: how far the configuration is from the GPU.
        err = ((configured - derived) / derived if a.measured
               else (derived - configured) / configured)
        rows.append((what, derived, configured, unit, err))

    row("FP32 FMA latency", (cyc[1] - cyc[0]) / (20 * 64), c["fp32_latency"],
        "cycles")
    # A dependent chain cannot go faster than its pipe issues either (T4's
    # FP64: 64 cycles per warp instruction, above its latency).
    row("FP64 FMA latency", (cyc[3] - cyc[2]) / (20 * 64),
        max(c["fp64_latency"], 32 / c["fp64_lanes"]), "cycles")
    row("FP32 FMA throughput", 100 * 64 * 1024 / (cyc[5] - cyc[4]),
        4 * c["fp32_lanes"], "lanes/cycle/SM")
    row("L1 hit latency", (cyc[7] - cyc[6]) / 512, c["l1_latency"], "cycles")
    row("L2 hit latency", (cyc[9] - cyc[8]) / 8192, c["l2_latency"], "cycles")
    row("DRAM latency", (cyc[11] - cyc[10]) / 2048, c["dram_latency"], "cycles")
    shared = {}
    for i, k in enumerate([1, 2, 4, 8, 16, 32]):
        shared[k] = (cyc[13 + 2 * i] - cyc[12 + 2 * i]) / 100
    # Each extra wavefront of a k-way conflict costs one cycle of the pipe.
    row("shared: cycles per extra wavefront", (shared[32] - shared[1]) / 31, 1,
        "cycles")
    row("SFU (ex2) latency", (cyc[25] - cyc[24]) / (20 * 64), c["sfu_latency"],
        "cycles")
    row("SFU (ex2) throughput", 10 * 64 * 1024 / (cyc[27] - cyc[26]),
        4 * c["sfu_lanes"], "lanes/cycle/SM")
    # Occupancy (h100-sxm's shared memory figures): the time of 8 CTAs per
    # SM with 1 resident over the time with b resident is b.
    if a.config == "h100-sxm":
        for i, b in enumerate([2, 4, 8]):
            row("occupancy: blocks/SM with %d KB shared" % [100, 50, 25][i],
                cyc[28] / cyc[29 + i], b, "blocks")
    n = 132 * 16 * 1024
    copy = 32  # after the four occupancy launches
    seconds = cyc[copy] / (clock * 1e6)
    row("DRAM bandwidth (copy)", 2 * n * 16 / seconds / 1e9,
        c.get("dram_sustained_gbytes_per_s", c["dram_gbytes_per_s"]), "GB/s")
    # Issue 34: the launch's fixed cost; same-address atomics (132 x 256
    # threads x 10 more float adds on one address, of which 31 of every 32
    # wait for another lane of their warp); shared atomics on one word (100
    # more dependent adds of 32 lanes, each the shared latency, 32 passes
    # and the dependent integer add).
    e = copy + 1
    row("launch fixed cost (empty kernel)", floor_ns,
        c.get("launch_overhead_ns", 0), "ns")
    # The busiest SM runs ceil(132 / S) of the 132 CTAs and has 1 / S of
    # the address's atomic unit (the model's share rule).
    busiest = -(-132 // int(c["sm_count"]))
    per = (cyc[e + 2] - cyc[e + 1]) / (busiest * 256 * 10 * 31 / 32 * c["sm_count"]) / clock * 1e3
    row("same-address atomic, per waiting update", per,
        c.get("atomic_same_address_ns", 0), "ns")
    rep = (cyc[e + 4] - cyc[e + 3]) / 100
    row("shared atomic, cycles per pass",
        (rep - c["shared_latency"] - c["int_latency"]) / 32,
        c.get("shared_atomic_cycles", 1), "cycles")
    # A counter every warp of 132 CTAs takes 10 more slots from: one update
    # per warp and request, each holding the address (an ATOM).
    per = (cyc[e + 6] - cyc[e + 5]) / (busiest * 8 * 10 * c["sm_count"]) / clock * 1e3
    row("same-address atomic returning its value, per update", per,
        c.get("atomic_same_address_ns", 0), "ns")
    # Fences (issue 34): per iteration of one warp's loop. A store and a
    # fence wait for the store to reach L2 at least; a CAS against a
    # relaxed add on the same words costs the system-scope fence.
    f = FENCES
    row("fence.sc.sys before a CAS (CAS minus relaxed add)",
        ((cyc[f + 1] - cyc[f]) - (cyc[f + 3] - cyc[f + 2])) / 100,
        c.get("fence_latency", 0), "cycles")
    # A fence after a store, per iteration, over the same loop without it:
    # it waits for the store to reach L2 at least.
    store_fence = max(c.get("fence_latency", 0), c["l2_latency"])
    plain = cyc[f + 5] - cyc[f + 4]
    row("membar.gl after a store (fence or L2 latency)",
        (cyc[f + 7] - cyc[f + 6] - plain) / 100, store_fence, "cycles")
    row("membar.sys after a store (fence or L2 latency)",
        (cyc[f + 9] - cyc[f + 8] - plain) / 100, store_fence, "cycles")
    # Issue 34's third pass: 3,200 more increments of one shared word by 32
    # lanes, the result unused (ATOMS.POPC.INC): each one pass of the pipe
    # (32 if the lanes were not merged) or the LSU's issue, whichever is
    # longer. 64 more iterations of a staging loop, each loading a line
    # from DRAM, unrolled (b) and kept in order by a global store (a): per
    # iteration a = L + x and b = L / U + x, so U = 1 / (1 - (a - b) / L).
    g = THIRD
    row("shared increment of one word by 32 lanes, cycles",
        (cyc[g + 1] - cyc[g]) / 3200,
        max(c.get("shared_atomic_cycles", 1), 32 / c["mem_lanes"]), "cycles")
    kept = (cyc[g + 5] - cyc[g + 4]) / 64
    unrolled = (cyc[g + 3] - cyc[g + 2]) / 64
    row("unrolled loop: loads in flight",
        1 / max(1e-9, 1 - (kept - unrolled) / c["dram_latency"]),
        c.get("unrolled_loads", 1), "loads")
    # A step ptxas does not know (a grid-stride loop's): rolled, one load.
    strided = (cyc[g + 7] - cyc[g + 6]) / 64
    row("loop with an unknown step: loads in flight",
        1 / max(1e-9, 1 - (kept - strided) / c["dram_latency"]), 1, "loads")
    # A shared float add is a compare-and-swap loop whose round is LDS,
    # FADD, ATOMS, ISETP, BRA in a dependent chain. The model stores one
    # lane per word a round, serializing a round's words of one bank (a
    # wavefront each for its LDS and its ATOMS): 32 lanes on one word take
    # 32 rounds; on 32 words of one bank, one round of 32 wavefronts. One
    # lane per bank a round would take 32 there too: the GPU tells.
    rnd = (2 * c["shared_latency"] + c.get("shared_atomic_cycles", 1) +
           c["fp32_latency"] + c["int_latency"] + c["branch_latency"])
    h = CAS
    row("shared float add (CAS loop), 32 lanes on one word: rounds",
        (cyc[h + 1] - cyc[h]) / 100 / rnd, 32, "rounds")
    row("shared float add (CAS loop), 32 words of one bank: rounds",
        (cyc[h + 3] - cyc[h + 2]) / 100 / rnd,
        1 + 31 * (1 + c.get("shared_atomic_cycles", 1)) / rnd, "rounds")
    print("| figure (%s) | derived from %s cycles | configured | unit | error |"
          % (a.config, where))
    print("|---|---:|---:|---|---:|")
    bad = 0
    for what, d, conf, unit, err in rows:
        print("| %s | %.2f | %g | %s | %+.1f%% |" % (what, d, conf, unit, 100 * err))
        bad += abs(err) > 0.10
    print("\nshared-memory loop, cycles per iteration by conflict degree: " +
          ", ".join("%d-way %.1f" % (k, v) for k, v in shared.items()))
    # No configured figure to hold it to (divergence_switch_cycles is 0 in
    # every configuration): the GPU's figures are what would set one.
    paths = {k: (cyc[SWITCH + 2 * i + 1] - cyc[SWITCH + 2 * i]) / 100
             for i, k in enumerate([1, 2, 4, 8])}
    print("\ndivergent switch (brx.idx), cycles per iteration by paths: " +
          ", ".join("%d %.1f" % (k, v) for k, v in paths.items()))
    if a.measured:
        print("\nclock: %.0f MHz (measured cycles per ns); error = configured "
              "against measured" % clock)
        return 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

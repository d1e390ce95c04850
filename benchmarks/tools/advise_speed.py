#!/usr/bin/env python3
"""Times `warpscope advise` on a synthetic profile directory holding
--samples modeled PC samples (warpscope-pcsampling/3, PTX granularity) over
--kernels kernels of about --instructions PTX instructions each (loops of
global loads, arithmetic chains, shared-memory exchanges and barriers, so
the blamer slices through loops and predicated code). Every instruction is
sampled. Prints the median wall time of --repeat runs per format.

usage: advise_speed.py [--build DIR] [--samples N] [--kernels N]
                       [--instructions N] [--repeat N]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BODY = [  # one loop of the kernel; %r9 is the induction variable
    "mul.wide.s32 %rd7, %r9, 4;",
    "add.s64 %rd8, %rd5, %rd7;",
    "ld.global.f32 %f2, [%rd8];",
    "add.s64 %rd9, %rd6, %rd7;",
    "ld.global.f32 %f3, [%rd9];",
    "fma.rn.f32 %f4, %f1, %f2, %f3;",
    "mul.f32 %f5, %f4, %f4;",
    "setp.gt.f32 %p3, %f5, 0f3F800000;",
    "@%p3 div.rn.f32 %f5, %f5, %f4;",
    "st.shared.f32 [sm], %f5;",
    "bar.sync 0;",
    "ld.shared.f32 %f6, [sm+4];",
    "add.f32 %f1, %f1, %f6;",
    "add.s64 %rd10, %rd4, %rd7;",
    "st.global.f32 [%rd10], %f4;",
    "add.s32 %r9, %r9, %r3;",
    "setp.lt.s32 %p2, %r9, %r4;",
]
STALLS = ["selected", "long_scoreboard", "wait", "short_scoreboard",
          "barrier", "lg_throttle", "mio_throttle", "math_pipe_throttle"]


def synthesize(d, samples, kernels, instructions):
    ptx = [".version 8.6", ".target sm_90", ".address_size 64",
           '.file 1 "/src/big.cu"']
    pcs = []
    loops = max(1, instructions // (len(BODY) + 2))
    total_pcs = kernels * loops * (len(BODY) + 1)
    per_pc = samples // total_pcs
    rest = samples - per_pc * total_pcs
    for k in range(kernels):
        name = "_Z3bigILi%dEEvPfPKfS2_fi" % k
        ptx += [".visible .entry %s(.param .u64 p0, .param .u64 p1, "
                ".param .u64 p2, .param .f32 p3, .param .u32 p4)" % name,
                "{", ".reg .pred %p<4>;", ".reg .b32 %r<10>;",
                ".reg .f32 %f<8>;", ".reg .b64 %rd<12>;",
                ".shared .align 4 .b8 sm[64];",
                ".loc 1 1 1", "ld.param.u64 %rd4, [p0];",
                "ld.param.u64 %rd5, [p1];", "ld.param.u64 %rd6, [p2];",
                "ld.param.f32 %f1, [p3];", "ld.param.u32 %r4, [p4];",
                "mov.u32 %r9, %tid.x;", "mov.u32 %r3, %ntid.x;"]
        index = 7
        for l in range(loops):
            line = 10 + l * 3
            ptx.append("$L__BB%d_%d:" % (k, l))
            ptx.append(".loc 1 %d 1" % line)
            for i, inst in enumerate(BODY + ["@%%p2 bra $L__BB%d_%d;" % (k, l)]):
                ptx.append(inst)
                n = per_pc + (1 if rest > 0 else 0)
                rest -= 1 if rest > 0 else 0
                stalls, left = {}, n
                for j, s in enumerate(STALLS):
                    c = left if j == len(STALLS) - 1 else (n * (i + j + 1)) // 40
                    c = min(c, left)
                    if c:
                        stalls["smsp__pcsamp_warps_issue_stalled_" + s] = c
                    left -= c
                pcs.append({"function": name, "ptx_index": index,
                            "file": "/src/big.cu", "line": line,
                            "samples": n, "stalls": stalls})
                index += 1
        ptx += ["ret;", "}"]
    with open(os.path.join(d, "ptx-big.ptx"), "w") as f:
        f.write("\n".join(ptx) + "\n")
    doc = {"schema": "warpscope-pcsampling/3", "source": "model",
           "granularity": "ptx", "model_config": {"synthetic": True},
           "total_samples": samples, "dropped_samples": 0,
           "non_user_samples": 0, "pcs": pcs}
    with open(os.path.join(d, "pcsamples-1.json"), "w") as f:
        json.dump(doc, f)
    return len(pcs), sum(p["samples"] for p in pcs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--samples", type=int, default=10**6)
    ap.add_argument("--kernels", type=int, default=4)
    ap.add_argument("--instructions", type=int, default=2500)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    exe = os.path.join(a.build, "bin", "warpscope")
    with tempfile.TemporaryDirectory() as d:
        n_pcs, n_samples = synthesize(d, a.samples, a.kernels, a.instructions)
        print("%d samples at %d PTX instructions in %d kernels" %
              (n_samples, n_pcs, a.kernels))
        for fmt in ["text", "json"]:
            times = []
            for _ in range(a.repeat):
                t = time.perf_counter()
                subprocess.run([exe, "advise", d, "--format", fmt],
                               check=True, stdout=subprocess.DEVNULL)
                times.append(time.perf_counter() - t)
            print("advise --format %s: median %.3f s (min %.3f, max %.3f)" %
                  (fmt, statistics.median(times), min(times), max(times)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Speed and memory of the emulator's timing model on the suite.

For each benchmark (plain build, benchmarks/list.txt) runs the program on
the emulator with the model off and on (WARPSCOPE_EMU_MODEL), a few times,
and prints per program: thread-instructions (ground truth), process CPU
seconds, the CPU seconds spent inside kernel launches (launch_cpu_shim.c,
preloaded: the emulation itself, model included, without process start,
module loading, copies and the ground truth written at exit), peak RSS, and
thread-instructions per CPU second with the model, whole process and
kernels only. Minimum over the repetitions (a shared machine only ever adds
time). `--inst` runs the instrumented builds instead, whose probes the
model treats as free unless `--model-probes` (WARPSCOPE_EMU_MODEL_PROBES=1). `--sizes` instead runs one program at several sizes and prints its
peak RSS per size (memory against grid size).

usage: timing_speed.py [--build DIR] [--size small|large|N] [--repeat R]
                       [--model NAME] [--only A,B] [--threads T]
                       [--inst [--model-probes]]
       timing_speed.py --sizes N1,N2,... --only PROGRAM [...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import wsrun  # the run directory's one reader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def build_shim(tmp):
    so = os.path.join(tmp, "launch_cpu_shim.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", so,
                    os.path.join(HERE, "launch_cpu_shim.c"), "-ldl"], check=True)
    return so


def thread_instructions(out):
    """(thread-instructions, CTAs launched) from the ground truth."""
    n = ctas = 0
    for _, doc in wsrun.truth(out):
        for f in doc["functions"]:
            n += sum(i["thread_executions"] for i in f["instructions"])
        for l in doc["launches"]:
            ctas += l["grid"][0] * l["grid"][1] * l["grid"][2]
    return n, ctas


def measure(a, shim, exe, size, model):
    """(thread-instructions, process CPU s, launch CPU s, peak RSS KiB,
    CTAs): the minimum of the measures over the repetitions."""
    best = None
    for _ in range(a.repeat):
        out = tempfile.mkdtemp(prefix="wsspeed")
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(a.build, "lib", "emu"),
                   LD_PRELOAD=shim, WARPSCOPE_OUT=out, WARPSCOPE_QUIET="1",
                   WARPSCOPE_EMU_THREADS=str(a.threads), WARPSCOPE_EMU_MODEL=model)
        env.pop("WARPSCOPE_EMU_MODEL_PROBES", None)
        if a.model_probes:
            env["WARPSCOPE_EMU_MODEL_PROBES"] = "1"
        p = subprocess.Popen([exe, str(size)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        stdout, stderr = p.stdout.read().decode(), p.stderr.read().decode()
        _, status, ru = os.wait4(p.pid, 0)
        if status or "PASS" not in stdout:
            raise RuntimeError("%s failed: %s%s" % (exe, stdout[-300:], stderr[-300:]))
        m = re.search(r"launch_cpu_seconds ([0-9.]+) launches \d+ peak_kib (\d+)",
                      stderr)
        if not m:
            raise RuntimeError("%s: no launch_cpu_seconds line (no launch?)" % exe)
        n, ctas = thread_instructions(out)
        r = (n, ru.ru_utime + ru.ru_stime, float(m.group(1)), int(m.group(2)), ctas)
        shutil.rmtree(out)
        if best is None:
            best = r
        else:
            best = (r[0], min(best[1], r[1]), min(best[2], r[2]), min(best[3], r[3]),
                    r[4])
    return best


def names(a):
    ns = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
          if l.strip() and not l.startswith("#")]
    if a.only:
        ns = [n for n in ns if n in a.only.split(",")]
    return ns


def suite(a, shim):
    print("| program | thread-instr. | CPU s, off | CPU s, model | kernels CPU s, off "
          "| kernels CPU s, model | M thread-instr/s, model (process) "
          "| M thread-instr/s, model (kernels) | peak RSS MiB, off | model |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names(a):
        exe = os.path.join(a.build, "benchmarks", name + (".inst" if a.inst else ""))
        off = measure(a, shim, exe, a.size, "off")
        on = measure(a, shim, exe, a.size, a.model)
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f | %.1f |"
              % (name, on[0], off[1], on[1], off[2], on[2], on[0] / on[1] / 1e6,
                 on[0] / on[2] / 1e6, off[3] / 1024, on[3] / 1024))
        sys.stdout.flush()


def sizes(a, shim):
    print("| program | size | CTAs | thread-instr. | CPU s, model | peak RSS MiB, off "
          "| peak RSS MiB, model | model's own MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names(a):
        exe = os.path.join(a.build, "benchmarks", name)
        for size in a.sizes.split(","):
            off = measure(a, shim, exe, size, "off")
            on = measure(a, shim, exe, size, a.model)
            print("| %s | %s | %d | %d | %.3f | %.1f | %.1f | %.1f |"
                  % (name, size, on[4], on[0], on[1], off[3] / 1024, on[3] / 1024,
                     (on[3] - off[3]) / 1024))
            sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--sizes", default="")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--model", default="h100-sxm")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--inst", action="store_true")
    ap.add_argument("--model-probes", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="wsshim")
    try:
        shim = build_shim(tmp)
        sizes(a, shim) if a.sizes else suite(a, shim)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

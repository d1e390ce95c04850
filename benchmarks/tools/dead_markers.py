#!/usr/bin/env python3
"""Checks that ptxas deletes the movs that name blocks without a probe.

A block whose counts are derived (from a branch record or a block it runs
exactly with) keeps only a marker scope in the PTX: `.reg .b32 %ws_block_N;`
and one dead `mov.u32 %ws_block_N, 0;`. The emulator runs that mov; a GPU
should not, because ptxas removes an instruction whose result nobody reads.
For every benchmark (benchmarks/list.txt) this compiles the instrumented
device code to PTX as the benchmark build does, assembles it with ptxas for
sm_90 twice, as is and with the marker movs removed, and compares the
machine code (.text sections) of the two cubins. Prints one line per
program and exits 1 if any differ (0 when all are identical).

usage: dead_markers.py [--build DIR] [--only NAME,...]
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER_MOV = re.compile(r"^\tmov\.u32 %ws_block_\d+, 0;\n", re.M)


def text_sections(path):
    """{name: bytes} of the .text* sections of an ELF64 little-endian file."""
    d = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    header = lambda i: struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
    names_at = header(shstrndx)[4]
    out = {}
    for i in range(shnum):
        h = header(i)
        name = d[names_at + h[0]:d.index(b"\0", names_at + h[0])].decode()
        if name.startswith(".text"):
            out[name] = d[h[4]:h[4] + h[5]]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    cache = open(os.path.join(a.build, "CMakeCache.txt")).read()
    setting = lambda key: [l.split("=", 1)[1] for l in cache.splitlines()
                           if l.startswith(key + ":")][0]
    clang = setting("WARPSCOPE_CLANG")
    ptxas = os.path.join(setting("WARPSCOPE_CUDA_HOME"), "bin", "ptxas")
    plugin = os.path.join(a.build, "lib", "libWarpScope.so")
    names = [l.strip() for l in open(os.path.join(ROOT, "benchmarks", "list.txt"))
             if l.strip() and not l.startswith("#")]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    tmp = tempfile.mkdtemp(prefix="wsdead")
    differ = 0
    for name in names:
        ptx = os.path.join(tmp, name + ".ptx")
        subprocess.run([clang, "-x", "cuda", "--cuda-gpu-arch=sm_90",
                        "-Wno-unknown-cuda-version", "-O2", "-gline-tables-only",
                        "--cuda-device-only", "-S",
                        "-I", os.path.join(ROOT, "include"),
                        "-fpass-plugin=" + plugin, "-mllvm",
                        "-warpscope-db-out=" + os.path.join(tmp, name + ".json"),
                        os.path.join(ROOT, "benchmarks", "src", name + ".cu"),
                        "-o", ptx], check=True, capture_output=True)
        text = open(ptx).read()
        stripped, movs = MARKER_MOV.subn("", text)
        open(ptx + ".stripped", "w").write(stripped)
        cubins = []
        for src in (ptx, ptx + ".stripped"):
            cubin = src + ".cubin"
            subprocess.run([ptxas, "-arch=sm_90", src, "-o", cubin], check=True,
                           capture_output=True)
            cubins.append(text_sections(cubin))
        same = cubins[0] == cubins[1]
        differ += not same
        print("%-14s %3d marker movs, machine code %s" % (
            name, movs, "identical" if same else "DIFFERS"))
    print("%d of %d programs identical without the marker movs" % (
        len(names) - differ, len(names)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

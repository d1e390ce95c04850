#!/usr/bin/env python3
"""Static SASS per kernel, plain against instrumented (issue 37's calibration).

    sass_summary.py SASS_DIR [--csv OUT]

SASS_DIR holds one folder per binary, as session.sh's overhead phase leaves
them: `<binary>/*.sass` (`nvdisasm -c -g` listings, also read gzipped) and
`<binary>/res-usage.txt` (`cuobjdump -res-usage`). For every kernel of every
benchmark `<name>` that also has `<name>.inst`, one row:

    program,kernel,plain_sass,inst_sass,ratio,plain_regs,inst_regs,
    plain_local,inst_local,red,atom,bssy,vote,popc,elect,clock

the static instruction counts of both builds, registers and local memory
(spills) per thread, and the instrumented build's count of the opcodes the
probes are made of (REDG/RED, ATOMG/ATOM, BSSY, VOTE, POPC, ELECT and clock
reads: S2R/S2UR/CS2R of SR_CLOCKLO). Static counts weigh every instruction
once; the GPU's dynamic counts are in the ncu CSVs.
"""
import argparse
import csv
import gzip
import os
import re
import sys

FUNC = re.compile(r"^\.text\.(\S+):$")
INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)([.\w]*)\s*(.*);")
RES = re.compile(r"^\s*Function (\S+):\s*$")
REG = re.compile(r"REG:(\d+).*LOCAL:(\d+)")
SHAPES = ("red", "atom", "bssy", "vote", "popc", "elect", "clock")


def opener(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def read_listing(path):
    """{kernel: [(opcode, operands)]} of one nvdisasm listing."""
    funcs, cur = {}, None
    with opener(path) as f:
        for line in f:
            m = FUNC.match(line.strip())
            if m:
                cur = funcs.setdefault(m.group(1), [])
                continue
            m = INSN.match(line)
            if m and cur is not None:
                cur.append((m.group(1), m.group(3)))
    return funcs


def read_binary(d):
    """({kernel: insns}, {kernel: (regs, local)}) of one binary's folder."""
    funcs, res = {}, {}
    for n in sorted(os.listdir(d)):
        if n.endswith(".sass") or n.endswith(".sass.gz"):
            funcs.update(read_listing(os.path.join(d, n)))
    path = os.path.join(d, "res-usage.txt")
    if os.path.exists(path):
        fn = None
        for line in opener(path):
            m = RES.match(line)
            if m:
                fn = m.group(1)
                continue
            m = REG.search(line)
            if m and fn:
                res[fn] = (int(m.group(1)), int(m.group(2)))
                fn = None
    return funcs, res


def shape(op, args):
    if op in ("REDG", "RED"):
        return "red"
    if op in ("ATOMG", "ATOM"):
        return "atom"
    if op == "BSSY":
        return "bssy"
    if op == "VOTE":
        return "vote"
    if op == "POPC":
        return "popc"
    if op == "ELECT":
        return "elect"
    if op in ("S2R", "S2UR", "CS2R") and "SR_CLOCKLO" in args:
        return "clock"
    return None


def rows(sass_dir):
    names = set(os.listdir(sass_dir))
    for inst in sorted(n for n in names if n.endswith(".inst")):
        plain = inst[: -len(".inst")]
        if plain not in names:
            continue
        pf, pr = read_binary(os.path.join(sass_dir, plain))
        inf, ir = read_binary(os.path.join(sass_dir, inst))
        for k in sorted(set(pf) & set(inf)):
            counts = dict.fromkeys(SHAPES, 0)
            for op, args in inf[k]:
                s = shape(op, args)
                if s:
                    counts[s] += 1
            p, i = len(pf[k]), len(inf[k])
            yield [plain, k, p, i, "%.3f" % (i / p) if p else "",
                   *(pr.get(k, ("", ""))[0], ir.get(k, ("", ""))[0]),
                   *(pr.get(k, ("", ""))[1], ir.get(k, ("", ""))[1]),
                   *(counts[s] for s in SHAPES)]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sass_dir")
    ap.add_argument("--csv")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.sass_dir):
        sys.exit("sass_summary.py: %s: no such folder (an overhead phase's "
                 "sass/ folder)" % a.sass_dir)
    header = ["program", "kernel", "plain_sass", "inst_sass", "ratio",
              "plain_regs", "inst_regs", "plain_local", "inst_local",
              *SHAPES]
    out = open(a.csv, "w", newline="") if a.csv else sys.stdout
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    n = 0
    for r in rows(a.sass_dir):
        w.writerow(r)
        n += 1
    if n == 0:
        sys.exit("sass_summary.py: %s: no <name> and <name>.inst listings "
                 "with a kernel in common" % a.sass_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

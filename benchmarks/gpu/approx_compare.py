#!/usr/bin/env python3
"""Compares two approx_dump result directories, set by set (issue 39 item 5).

    approx_compare.py GPU_DIR EMU_DIR [--form SUBSTRING] [--examples N]

Both directories hold approx_dump's files (.bin or approx_pack.py's .bin.xz)
and manifest.txt; GPU_DIR's manifest names the sets. For each set it prints
how many results EMU_DIR has bit-exact and sorts the others:

    nan     one side NaN, the other not;   nanbits  both NaN, other bits
    inf     one side infinite (not NaN);   zero     a zero against a nonzero,
                                                    or zeros of other sign
    sub     a subnormal input or result (either side), otherwise close
    ulp     finite and normal: the signed distance emu - gpu in ulps (steps
            between adjacent floats of the result's format), as a histogram
            and the largest magnitude

--examples N prints the first N mismatches of each set (input, gpu, emu).
Exit status 0 when every set is bit-exact, 1 when some are not, 2 on bad
input. Inputs are regenerated as test/conformance/approx/approx_dump.cu makes them (splitmix64).
Stdlib only.
"""
import argparse
import os
import struct
import sys
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import approx_pack  # noqa: E402

MASK64 = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


class Fmt:
    """Field layout of f32 or f64 bit patterns."""

    def __init__(self, width):
        self.bits = 8 * width
        self.sign = 1 << (self.bits - 1)
        self.mant = 23 if width == 4 else 52
        self.expmask = (self.sign - 1) & ~((1 << self.mant) - 1)
        self.typecode = "I" if width == 4 else "Q"

    def isnan(self, b):
        return (b & self.expmask) == self.expmask and b & ((1 << self.mant) - 1)

    def isinf(self, b):
        return (b & (self.sign - 1)) == self.expmask

    def iszero(self, b):
        return (b & (self.sign - 1)) == 0

    def issub(self, b):
        return (b & self.expmask) == 0 and (b & ((1 << self.mant) - 1)) != 0

    def ordered(self, b):
        """An integer that counts floats in order: adjacent floats differ by 1."""
        return -(b & (self.sign - 1)) if b & self.sign else b


def inputs(kind, first, index, width, is_div):
    """The operand bits of input `index` (a tuple: one or two operands)."""
    if kind == "sweep":
        return ((first + index) << 32,) if width == 8 else (first + index,)
    mask = (1 << (8 * width)) - 1
    a = splitmix64(first + index) & mask
    if is_div:
        return a, splitmix64(first + (1 << 40) + index) & mask
    return (a,)


BUCKETS = [(-1 << 62, -16), (-15, -3), (-2, -2), (-1, -1), (1, 1), (2, 2),
           (3, 15), (16, 1 << 62)]
BUCKET_NAMES = ["<=-16", "-15..-3", "-2", "-1", "+1", "+2", "3..15", ">=16"]


def classify(fmt, g, e, ins):
    """'nan', 'nanbits', 'inf', 'zero', 'sub' or the ulp distance e - g."""
    gn, en = fmt.isnan(g), fmt.isnan(e)
    if gn or en:
        return "nanbits" if gn and en else "nan"
    if fmt.isinf(g) or fmt.isinf(e):
        return "inf"
    if fmt.iszero(g) or fmt.iszero(e):
        return "zero"
    if fmt.issub(g) or fmt.issub(e) or any(fmt.issub(i) for i in ins):
        return "sub"
    return fmt.ordered(e) - fmt.ordered(g)


def compare_set(entry, gdata, edata, examples):
    name, form, kind, first, count, width = entry
    fmt = Fmt(width)
    is_div = form.startswith("div.")
    g = array(fmt.typecode, gdata)
    e = array(fmt.typecode, edata)
    if sys.byteorder != "little":
        g.byteswap()
        e.byteswap()
    stats = {"nan": 0, "nanbits": 0, "inf": 0, "zero": 0, "sub": 0}
    hist = [0] * len(BUCKETS)
    maxulp = 0
    shown = []
    # Equal blocks are skipped whole: most sets are mostly exact.
    block = 4096
    for start in range(0, count, block):
        end = min(count, start + block)
        if g[start:end] == e[start:end]:
            continue
        for i in range(start, end):
            gi, ei = g[i], e[i]
            if gi == ei:
                continue
            ins = inputs(kind, first, i, width, is_div)
            c = classify(fmt, gi, ei, ins)
            if len(shown) < examples:
                shown.append((ins, gi, ei, c))
            if isinstance(c, str):
                stats[c] += 1
                continue
            maxulp = max(maxulp, abs(c))
            for k, (lo, hi) in enumerate(BUCKETS):
                if lo <= c <= hi:
                    hist[k] += 1
    diff = sum(stats.values()) + sum(hist)
    return count - diff, stats, hist, maxulp, shown


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gpu_dir")
    p.add_argument("emu_dir")
    p.add_argument("--form", default="", help="only forms containing this")
    p.add_argument("--examples", type=int, default=0)
    a = p.parse_args(argv[1:])
    try:
        sets = approx_pack.manifest(a.gpu_dir)
        emu = {s[0]: s for s in approx_pack.manifest(a.emu_dir)}
    except approx_pack.PackError as err:
        sys.stderr.write("approx_compare.py: %s\n" % err)
        return 2
    head = ("%-22s %-7s %8s %8s %7s | %s | %5s %5s %5s %5s %5s | %s" %
            ("form", "set", "n", "exact", "%", " ".join(
                "%7s" % b for b in BUCKET_NAMES), "nan", "nanb", "inf",
             "zero", "sub", "max ulp"))
    print(head)
    print("-" * len(head))
    inexact = 0
    for s in sets:
        name, form, kind, first, count, width = s
        if a.form not in form:
            continue
        if name not in emu or emu[name][1:] != s[1:]:
            print("%-22s %-7s missing or different in %s" % (form, kind,
                                                               a.emu_dir))
            inexact += 1
            continue
        try:
            gdata = approx_pack.read(a.gpu_dir, name, count, width)
            edata = approx_pack.read(a.emu_dir, name, count, width)
        except approx_pack.PackError as err:
            sys.stderr.write("approx_compare.py: %s\n" % err)
            return 2
        exact, st, hist, maxulp, shown = compare_set(s, gdata, edata,
                                                     a.examples)
        tag = kind if kind == "random" else name.split(".")[-2]
        print("%-22s %-7s %8d %8d %7.3f | %s | %5d %5d %5d %5d %5d | %d" %
              (form, tag, count, exact, 100.0 * exact / count,
               " ".join("%7d" % h for h in hist), st["nan"], st["nanbits"],
               st["inf"], st["zero"], st["sub"], maxulp))
        digits = 2 * width
        for ins, gi, ei, c in shown:
            print("    in %s  gpu %0*x  emu %0*x  %s" %
                  (",".join("%0*x" % (digits, i) for i in ins), digits, gi,
                   digits, ei, c))
        inexact += exact != count
    return 1 if inexact else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Derives the GPU's MUFU interpolation tables from approx_dump's sweeps.

    approx_tables.py GPU_DIR [-o runtime/emu/core/MufuTables.inc] [-j N]

GPU_DIR holds approx_dump's results on a GPU (approx_pack.py's .bin.xz are
read directly). Each MUFU function of the H200 (sm_90) evaluates one
quadratic per segment of its argument's fraction, in fixed point:

    P = C0 + C1 * x + (C2 * sq(x) << SH2),    result bits from P >> S

where the fraction's top bits pick the segment, x is the next 16 or 17 bits
and sq(x) is a truncated square (each partial product x >> (18 - i) for bit
i of x, summed and halved: the bits a squarer array drops). For every
segment this script finds the integers C1 and C2 for which some C0 puts
P >> S (or the normalised, truncated result for lg2, sin, tanh) on every
swept input's GPU result, checks that no other pair in a window around the
least-squares estimate does, and writes C0 as the value of the feasible
interval of the form (c << k) + K that all segments share (the unit's
rounding constant K). The datapath per function (segments, x, SH2, S,
output format) is in UNITS below; docs/emulator.md (*Approximate
instructions*) describes it, and the emulator's Mufu.cpp evaluates it.

Stdlib only; about 10 minutes on one core (-j runs units in parallel).
"""
import argparse
import os
import sys
from array import array
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import approx_pack  # noqa: E402

# sq(x) for every 17-bit x: the truncated squarer of the interpolators.
SQ = None


def squares():
    global SQ
    if SQ is None:
        SQ = array("I", [0]) * (1 << 17)
        for x in range(1 << 17):
            r = 0
            for i in range(2, 17):
                if x >> i & 1:
                    r += x >> (18 - i)
            SQ[x] = r >> 1
    return SQ


def words(d, name):
    for entry in approx_pack.manifest(d):
        if entry[0] == name:
            data = approx_pack.read(d, name, entry[4], entry[5])
            w = array("I" if entry[5] == 4 else "Q", data)
            if sys.byteorder != "little":
                w.byteswap()
            return w
    raise approx_pack.PackError("%s: no set %s in the manifest" % (d, name))


def fields(r):
    """(sign, biased exponent, 24-bit significand) of an f32 bit pattern."""
    return r >> 31, (r >> 23) & 255, (r & 0x7FFFFF) | 0x800000


def truncated(r, fb):
    """[lo, hi] of a result truncated to 24 significant bits, as integers
    with fb fraction bits (the unit's fixed-point sum before normalising)."""
    _, e, m = fields(r)
    sh = e - 150 + fb
    if sh >= 0:
        return m << sh, ((m + 1) << sh) - 1
    assert m & ((1 << -sh) - 1) == 0, "result finer than the fixed point"
    return m >> -sh, m >> -sh


# Per function: the sweep(s) as (segment, x, squarer input, lo, hi), where
# lo <= P <= hi must hold (P before the final shift).
def pts_rcp(d):
    w = words(d, "rcp.approx.ftz.f32.sweep1.bin")
    for m, r in enumerate(w):  # 1.m -> 2/1.m in (1, 2] as 24 bits
        _, e, y = fields(r)
        y <<= e - 126
        x = m & 0xFFFF
        yield m >> 16, x, x << 1, y << 15, (y << 15) + 0x7FFF


def pts_root(d, name, s):
    w = words(d, name)
    for i, r in enumerate(w):  # [1, 4): the exponent's parity is index bit 6
        if i == 0:
            continue  # 1.0: rsqrt's exact power of 4 bypasses the table
        _, e, y = fields(r)
        y <<= e - (126 if s == 16 else 127)
        yield i >> 17, i & 0x1FFFF, i & 0x1FFFF, y << s, ((y + 1) << s) - 1


def pts_ex2(d):
    w = words(d, "ex2.approx.ftz.f32.sweep1.bin")
    for m, r in enumerate(w):  # [1, 2) -> [2, 4)
        _, e, y = fields(r)
        yield m >> 17, m & 0x1FFFF, m & 0x1FFFF, y << 15, ((y + 1) << 15) - 1


def pts_lg2(d):
    w = words(d, "lg2.approx.ftz.f32.sweep1.bin")
    for m, r in enumerate(w):  # log2(1.m), 36 fraction bits, then >> 2
        if m == 0:
            continue  # log2(1) = 0 bypasses the table
        lo, hi = truncated(r, 36)
        yield m >> 17, m & 0x1FFFF, m & 0x1FFFF, lo << 2, ((hi + 1) << 2) - 1


def rz_revolutions(x):
    """FMUL.RZ(x, 1/(2 pi) as f32) for x in [1, 4), as (integer, shift)."""
    _, e, m = fields(x)
    p = m * 0xA2F983  # 1/(2 pi) = 0xA2F983 * 2^-26
    n = p.bit_length() - 24
    return p >> n, (e - 150) - 26 + n  # 24-bit significand, exponent


def pts_sin(d):
    """sin(pi/2 q) for the quadrant fraction q: FMUL.RZ(x, 1/2pi) * 4 with 23
    fraction bits, from inputs whose product needs no more bits."""
    for name, first in (("sin.approx.f32.sweep1.bin", 0x3F800000),
                        ("sin.approx.f32.sweep2.bin", 0x40000000)):
        w = words(d, name)
        for i, r in enumerate(w):
            m, ex = rz_revolutions(first + i)
            sh = ex + 2 + 23  # quadrants with 23 fraction bits
            if sh < 0:
                continue
            q = m << sh
            quad, fr = q >> 23, q & 0x7FFFFF
            if quad & 1:
                fr ^= 0x7FFFFF
            if r & 0x7FFFFFFF == 0:
                continue
            lo, hi = truncated(r & 0x7FFFFFFF, 37)
            yield fr >> 17, fr & 0x1FFFF, fr & 0x1FFFF, lo, hi


def pts_tanh(d):
    w = words(d, "tanh.approx.f32.sweep1.bin")
    for m in range(0, 1 << 23, 8):  # the unit reads 20 fraction bits
        lo, hi = truncated(w[m], 24)
        x = (m >> 3) & 0x1FFFF
        yield m >> 20, x, x, lo << 13, ((hi + 1) << 13) - 1


# name: (points, segments, SH2, S, comment)
UNITS = {
    "Rcp": (pts_rcp, 128, 0, 15, "2/x of 1.m in (1, 2]: 7 index bits, "
            "x = 16 bits << 1, P >> 15 = 24-bit result"),
    "Rsqrt": (lambda d: pts_root(d, "rsqrt.approx.ftz.f32.sweep1.bin", 16),
              128, 2, 16, "1/sqrt of [1, 4) in (0.5, 1]: index = exponent "
              "parity and 6 fraction bits, x = 17 bits, P >> 16"),
    "Sqrt": (lambda d: pts_root(d, "sqrt.approx.ftz.f32.sweep1.bin", 17),
             128, 1, 17, "sqrt of [1, 4) in [1, 2): index as Rsqrt, P >> 17"),
    "Ex2": (pts_ex2, 64, 0, 15, "2^f of a 23-bit fraction f in [1, 2): 6 "
            "index bits, x = 17 bits, P >> 15"),
    "Lg2": (pts_lg2, 64, 1, 0, "log2(1.m) in [0, 1) with 36 fraction bits "
            "= P >> 2: 6 index bits, x = 17 bits"),
    "Sin": (pts_sin, 64, 0, 0, "sin(pi/2 q) of a quadrant fraction q (23 "
            "bits) with 37 fraction bits = P: 6 index bits, x = 17 bits"),
    "Tanh": (pts_tanh, 8, 1, 0, "tanh over [1, 2) only (the sweep's binade), "
             "result with 24 + 13 fraction bits = P: index = 3 fraction "
             "bits, x = the next 17, the last 3 unread"),
}


def lsq(xs, qs, mids):
    """Least-squares (c0, c1, c2) of mids over 1, x, q (exact rationals)."""
    n = len(xs)
    sx = sum(xs)
    sq = sum(qs)
    sxx = sum(x * x for x in xs)
    sxq = sum(x * q for x, q in zip(xs, qs))
    sqq = sum(q * q for q in qs)
    sv = sum(mids)
    sxv = sum(x * v for x, v in zip(xs, mids))
    sqv = sum(q * v for q, v in zip(qs, mids))
    a = [[Fraction(n), Fraction(sx), Fraction(sq), Fraction(sv)],
         [Fraction(sx), Fraction(sxx), Fraction(sxq), Fraction(sxv)],
         [Fraction(sq), Fraction(sxq), Fraction(sqq), Fraction(sqv)]]
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(3):
            if r != c and a[r][c]:
                f = a[r][c] / a[c][c]
                a[r] = [u - f * v for u, v in zip(a[r], a[c])]
    return [a[k][3] / a[k][k] for k in range(3)]


def feasible(pts, c1, c2, sh2):
    """The interval of C0 that fits every point, or None."""
    lo, hi = -(1 << 80), 1 << 80
    for x, q, l, h in pts:
        g = c1 * x + ((c2 * q) << sh2)
        if l - g > lo:
            lo = l - g
        if h - g < hi:
            hi = h - g
        if lo > hi:
            return None
    return lo, hi


def solve(pts, sh2):
    """(c1, c2, (lo, hi)) of the one feasible pair near the estimate."""
    sub = pts[::16]
    xs = [p[0] for p in sub]
    qs = [p[1] << sh2 for p in sub]
    mids = [(p[2] + p[3]) // 2 for p in sub]
    _, e1, e2 = lsq(xs, qs, mids)
    # Points in a scattered order, so that a wrong pair fails early.
    order = sorted(pts, key=lambda p: (p[0] * 2654435761) & 0xFFFF)
    for r in (3, 12, 48):
        found = []
        for c2 in range(round(e2) - r, round(e2) + r + 1):
            for c1 in range(round(e1) - r, round(e1) + r + 1):
                iv = feasible(order, c1, c2, sh2)
                if iv:
                    found.append((c1, c2, iv))
        if len(found) == 1 and max(abs(found[0][0] - round(e1)),
                                   abs(found[0][1] - round(e2))) < r:
            return found[0]
        if len(found) > 1:
            raise RuntimeError("%d coefficient pairs fit" % len(found))
    raise RuntimeError("no coefficient pair fits")


def rounding_constant(intervals):
    """(k, K): the largest k for which one K mod 2^k lies in every C0
    interval (the unit adds K to c << k)."""
    for k in range(20, -1, -1):
        common = None
        for lo, hi in intervals:
            if hi - lo + 1 >= 1 << k:
                continue
            res = {v & ((1 << k) - 1) for v in range(lo, hi + 1)}
            common = res if common is None else common & res
        if common is not None and len(common) == 1:
            return k, common.pop()
    raise RuntimeError("no shared rounding constant")


def derive(args):
    d, name = args
    points, nseg, sh2, _, _ = UNITS[name]
    sq = squares()
    segs = [[] for _ in range(nseg)]
    for s, x, xs, lo, hi in points(d):
        segs[s].append((x, sq[xs], lo, hi))
    sols = [solve(p, sh2) for p in segs]
    k, K = rounding_constant([iv for _, _, iv in sols])
    rows = []
    for c1, c2, (lo, hi) in sols:
        c0 = ((hi - K) >> k << k) + K
        assert lo <= c0 <= hi
        rows.append((c0, c1, c2))
    return name, k, K, rows


def emit(out, results):
    out.write("// Generated by benchmarks/gpu/approx_tables.py from "
              "approx_dump's H200 sweeps\n// (2026-11-27); do not edit. "
              "Per segment {C0, C1, C2}: P = C0 + C1 * x +\n// (C2 * sq(x) "
              "<< SH2); docs/emulator.md, *Approximate instructions*.\n")
    for name, k, K, rows in results:
        _, nseg, sh2, s, comment = UNITS[name]
        out.write("\n// %s: %s.\n// SH2 = %d, S = %d; every C0 is (c << %d) "
                  "+ 0x%x.\n" % (name, comment, sh2, s, k, K))
        out.write("static const MufuSeg Mufu%sTable[%d] = {\n" % (name, nseg))
        for c0, c1, c2 in rows:
            out.write("    {%d, %d, %d},\n" % (c0, c1, c2))
        out.write("};\n")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gpu_dir")
    p.add_argument("-o", "--output", default="-")
    p.add_argument("-j", "--jobs", type=int, default=1)
    a = p.parse_args(argv[1:])
    names = list(UNITS)
    try:
        with ProcessPoolExecutor(max_workers=a.jobs) as ex:
            results = list(ex.map(derive, [(a.gpu_dir, n) for n in names]))
    except (approx_pack.PackError, RuntimeError) as e:
        sys.stderr.write("approx_tables.py: %s\n" % e)
        return 1
    for name, k, K, rows in results:
        sys.stderr.write("%s: %d segments, C0 = (c << %d) + 0x%x\n" %
                         (name, len(rows), k, K))
    if a.output == "-":
        emit(sys.stdout, results)
    else:
        with open(a.output, "w") as f:
            emit(f, results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

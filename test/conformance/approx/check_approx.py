#!/usr/bin/env python3
"""The emulator's .approx results against an H200's, offline (issue 39 item 5).

    check_approx.py APPROX_DUMP FIXTURE_DIR [--keep DIR]

Runs APPROX_DUMP (approx_dump.cu beside this file, built with clang) with the
sets of FIXTURE_DIR/manifest.txt, on whatever libcudart the environment
gives it (ctest: the emulator's), and compares every result with the GPU's
in FIXTURE_DIR. Every form must be bit-exact, except where BOUNDS says
otherwise: tanh.approx.f32 is exact for |x| in [1, 2) (the binade whose
table a sweep fixed), below 2^-8, from 8 on and for NaN; elsewhere its
result must be within MAX_ULPS of the GPU's, of the same class (no NaN,
infinity or zero where the GPU has none), and at least MIN_EXACT of the
set bit-exact. Prints a line per set and PASS, or the mismatches and FAIL.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "benchmarks", "gpu"))
import approx_compare  # noqa: E402
import approx_pack  # noqa: E402


def tanh_table_binade(bits):
    e = (bits >> 23) & 0xFF
    return e < 119 or e >= 130 or e == 127


# form: (inputs that must be exact, max |ulps| elsewhere, min exact fraction)
BOUNDS = {"tanh.approx.f32": (tanh_table_binade, 128, 0.96)}


def check_set(entry, gdata, edata):
    """(exact count, list of failure strings)."""
    name, form, kind, first, count, width = entry
    fmt = approx_compare.Fmt(width)
    g = array(fmt.typecode, gdata)
    e = array(fmt.typecode, edata)
    if sys.byteorder != "little":
        g.byteswap()
        e.byteswap()
    must, max_ulps, _ = BOUNDS.get(form, (lambda b: True, 0, 1.0))
    fails = []
    exact = count
    block = 4096  # equal blocks are skipped whole
    for i in (i for s in range(0, count, block)
              if g[s:s + block] != e[s:s + block]
              for i in range(s, min(count, s + block))):
        if g[i] == e[i]:
            continue
        exact -= 1
        ins = approx_compare.inputs(kind, first, i, width,
                                    form.startswith("div."))
        c = approx_compare.classify(fmt, g[i], e[i], ins)
        if must(ins[0]) or isinstance(c, str) or abs(c) > max_ulps:
            fails.append("in %s gpu %0*x emu %0*x (%s)" % (
                ",".join("%x" % v for v in ins), 2 * width, g[i], 2 * width,
                e[i], c))
    return exact, fails


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("approx_dump")
    p.add_argument("fixture")
    p.add_argument("--keep", help="write the emulator's results here")
    a = p.parse_args(argv[1:])
    sets = approx_pack.manifest(a.fixture)
    with tempfile.TemporaryDirectory() as tmp:
        out = a.keep or tmp
        os.makedirs(out, exist_ok=True)
        run = subprocess.run(
            [a.approx_dump, out, os.path.join(a.fixture, "manifest.txt")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0 or "PASS" not in run.stdout:
            sys.stdout.write(run.stdout)
            print("FAIL: approx_dump exited with %d" % run.returncode)
            return 1
        bad = 0
        for entry in sets:
            name, form, _, _, count, width = entry
            gdata = approx_pack.read(a.fixture, name, count, width)
            edata = approx_pack.read(out, name, count, width)
            exact, fails = check_set(entry, gdata, edata)
            min_exact = BOUNDS.get(form, (None, 0, 1.0))[2]
            ok = not fails and exact >= min_exact * count
            print("%-36s %8d results, %8d bit-exact  %s" %
                  (name, count, exact, "ok" if ok else "FAIL"))
            for f in fails[:10]:
                print("    " + f)
            if len(fails) > 10:
                print("    ... %d more" % (len(fails) - 10))
            bad += not ok
    print("%d sets, %d failed\n%s" % (len(sets), bad, "FAIL" if bad else
                                      "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Tests -warpscope-assume-reconvergence against measured counts.

A build with -warpscope-assume-reconvergence gives some blocks no probe and
the counts of a dominator instead (`same_counts_as` with
`assumes_reconvergence` in its database): right only if the lanes that split
between the two meet again at the block. A default build probes those
blocks. Given `warpscope report --format json` of a default build's run and
the database of an assume build of the same source, this compares, for each
such pair, the measured warp and thread executions of the block with those
of the block it would take them from. Thread executions always agree (the two
run on the same lanes); warp executions agree iff the lanes reconverged. On
the emulator they must; on a GPU this is the measurement.

Prints one line per pair that differs and a summary line; exits 1 if any
pair differs or none was found, 0 otherwise.

usage: check_reconvergence.py REPORT.json ASSUME-DB.json
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    report, db = (json.load(open(p)) for p in argv[1:])
    kernels = {(k["module_id"], k["mangled"]): k for k in report.get("kernels", [])}
    pairs = differ = 0
    for f in db["functions"]:
        k = kernels.get((db["module_id"], f["name"]))
        if not k:
            continue  # not run, or another module
        blocks = {b["id"]: b for b in k["blocks"]}
        for b in f["blocks"]:
            same = b.get("same_counts_as")
            if not same or not same.get("assumes_reconvergence"):
                continue
            if b["id"] not in blocks or same["block"] not in blocks:
                print("check_reconvergence.py: %s: block %d or %d missing from "
                      "the report; were both built from the same source?"
                      % (f["name"], b["id"], same["block"]), file=sys.stderr)
                return 2
            here, there = blocks[b["id"]], blocks[same["block"]]
            pairs += 1
            for what in ("warp_executions", "thread_executions"):
                if here[what] != there[what]:
                    differ += 1
                    print("DIFFERS %s: block %d (line %d) %s %d, block %d %d" % (
                        f["name"], b["id"], here["line"], what, here[what],
                        same["block"], there[what]))
    print("%d blocks assuming reconvergence, %d counts differ" % (pairs, differ))
    return 1 if differ or not pairs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

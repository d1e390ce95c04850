#!/usr/bin/env python3
"""Compares the SASS counts WarpScope's CUPTI collector gathered with those
Nsight Compute measured for the same program and arguments.

  sass_vs_ncu.py REPORT.json NCU.csv

REPORT.json: `warpscope report --format json` of a directory with
sassmetrics-*.json (kernels[].hardware, and sass_metrics'
not_in_report_hardware for an uninstrumented program). NCU.csv: `ncu --csv
--page details --print-kernel-base mangled` with smsp__inst_executed.sum,
smsp__thread_inst_executed.sum, smsp__sass_branch_targets_threads_uniform.sum
and ..._divergent.sum, every launch profiled. Both count every execution of
every SASS instruction of a kernel, so a deterministic program gives equal
numbers. Prints one line per kernel (agree / DIFFERS with both tuples) and a
summary; exit status 1 when any differs or none was compared.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402

FIELDS = (("inst_executed", "smsp__inst_executed.sum"),
          ("thread_inst_executed", "smsp__thread_inst_executed.sum"),
          ("branch_targets_uniform", "smsp__sass_branch_targets_threads_uniform.sum"),
          ("branch_targets_divergent", "smsp__sass_branch_targets_threads_divergent.sum"))


def hardware(report):
    """mangled kernel -> its `hardware` object."""
    out = {k["mangled"]: k["hardware"] for k in report.get("kernels", [])
           if k.get("hardware")}
    for h in report.get("sass_metrics", {}).get("not_in_report_hardware", []):
        out[h["mangled"]] = h["hardware"]
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    ours = hardware(json.load(open(argv[1])))
    theirs = ncu_csv.totals(argv[2])
    compared = differ = 0
    for k in sorted(set(ours) & set(theirs)):
        a = tuple(ours[k].get(f) for f, _ in FIELDS)
        b = tuple(int(theirs[k].get(m, -1)) for _, m in FIELDS)
        compared += 1
        if a == b:
            print("%s: agree %s" % (k, a))
        else:
            differ += 1
            print("%s: DIFFERS collector %s ncu %s" % (k, a, b))
    print("%d kernels compared, %d differ" % (compared, differ))
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

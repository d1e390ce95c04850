#!/usr/bin/env python3
"""Writes SYNTHETIC sassmetrics-<pid>.json files into a profile directory of
examples/divergence.cu, in the collector's format
(docs/pc-sampling-schema.md, warpscope-sassmetrics/1).

No GPU has produced SASS metrics for this project yet: every count below is
made up, chosen so the report's arithmetic is easy to check. Only the
function names are real: the mangled kernel names of the run, read from its
db-*.json.

- sassmetrics-4242.json collects every metric the report uses.
  alternate: 80 branch targets, 60 uniform, 20 divergent (75.0%),
  1000 warp / 24000 thread instructions. A helper function the profile does
  not have gets one record (the report lists it as not in the report).
- sassmetrics-4243.json (a second process) lacks the uniform-target metric:
  collatz's hardware branch efficiency is then unavailable, with the reason.
- per_block gets no record at all.
"""
import glob
import json
import os
import sys

out = sys.argv[1]
names = {}
for db in glob.glob(os.path.join(out, "db-*.json")):
    for f in json.load(open(db))["functions"]:
        names[f["demangled"].split("(")[0]] = f["name"]
alternate, collatz = names["alternate"], names["collatz"]

ALL = ["smsp__sass_inst_executed", "smsp__sass_thread_inst_executed",
       "smsp__sass_branch_targets", "smsp__sass_branch_targets_threads_uniform",
       "smsp__sass_branch_targets_threads_divergent"]


def pc(function, offset, **metrics):
    return {"cubin_crc": "00000000000000c1", "function": function,
            "pc_offset": offset,
            "metrics": {"smsp__sass_" + k: v for k, v in metrics.items()}}


def write(pid, collected, pcs):
    doc = {"schema": "warpscope-sassmetrics/1", "pid": pid,
           "program": os.path.join(out, "demo"), "chip": "gh100",
           "available_metrics": ALL, "collected_metrics": collected,
           "flushes": 1, "dropped_records": 0, "pcs": pcs, "errors": []}
    with open(os.path.join(out, "sassmetrics-%d.json" % pid), "w") as f:
        json.dump(doc, f, indent=1)


write(4242, ALL, [
    pc(alternate, 0x40, inst_executed=400, thread_inst_executed=12800,
       branch_targets=50, branch_targets_threads_uniform=50),
    pc(alternate, 0x90, inst_executed=400, thread_inst_executed=6400,
       branch_targets=30, branch_targets_threads_uniform=10,
       branch_targets_threads_divergent=20),
    pc(alternate, 0xa0, inst_executed=200, thread_inst_executed=4800),
    pc("_Z6helperv", 0x10, inst_executed=5, thread_inst_executed=160),
])
write(4243, [m for m in ALL if not m.endswith("_uniform")], [
    pc(collatz, 0x30, inst_executed=700, thread_inst_executed=20000,
       branch_targets=90, branch_targets_threads_divergent=40),
])

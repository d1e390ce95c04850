#!/usr/bin/env python3
"""Prints a program database one line per record, for FileCheck.

usage: dbdump.py [--cfg] DB.json   (--cfg: also each block's successors and
whether lanes reconverge there, and which branches count arrivals)"""
import json
import os
import sys

cfg = "--cfg" in sys.argv[1:]
db = json.load(open([a for a in sys.argv[1:] if a != "--cfg"][0]))
print("module id=%s counters=%d symbol=%s schema=%s replicas=%d stride=%d" % (
    db["module_id"], db["num_counters"], db["counters_symbol"], db["schema"],
    db.get("counter_replicas", 1), db.get("replica_stride", db["num_counters"])))
if "kernel_filter" in db:
    print("kernel-filter=%s not-instrumented=%s" % (
        db["kernel_filter"],
        ",".join(k["name"] + "=" + k["demangled"]
                 for k in db["kernels_not_instrumented"])))
for f in db["functions"]:
    print("function %s kind=%s demangled=%s line=%d" % (
        f["name"], f["kind"], f["demangled"], f["line"]) +
          (" shared-with-left-out" if f.get("shared_with_left_out") else ""))
    for b in f["blocks"]:
        d = b.get("derived_from")
        print("  block id=%d counter=%d loc=%s:%d:%d depth=%d header=%s%s" % (
            b["id"], b["counter"], os.path.basename(b["file"]), b["line"],
            b["column"], b["loop_depth"], str(b["loop_header"]).lower(),
            " derived=branch%d.succ%d" % (d["branch"], d["successor"]) if d else "") +
              (" entered-from=block%d" % d["entered_from"]
               if d and "entered_from" in d else "") +
              (" same-as=block%d" % b["same_counts_as"]["block"]
               if b.get("same_counts_as") else "") +
              (" assumes-reconvergence"
               if (b.get("same_counts_as") or {}).get("assumes_reconvergence")
               else "") +
              (" promoted" if b.get("promoted") else "") +
              (" to=%s" % ",".join(str(s) for s in b["successors"])
               if cfg and "successors" in b else "") +
              (" reconverges" if cfg and b.get("reconverges") else ""))
    for br in f["branches"]:
        print("  branch id=%d block=%d kind=%s succ=%s uniform=%s probed=%s "
              "counter=%d loc=%s:%d:%d" % (
                  br["id"], br["block"], br["kind"],
                  ",".join(str(s) for s in br["successors"]),
                  str(br["uniform"]).lower(), str(br["probed"]).lower(),
                  br["counter"], os.path.basename(br["file"]), br["line"],
                  br["column"]) + (" shares-block-counts" if br.get("shares_block_counts") else "") +
              (" promoted" if br.get("promoted") else "") +
              (" counts-arrivals" if cfg and br.get("counts_arrivals") else ""))

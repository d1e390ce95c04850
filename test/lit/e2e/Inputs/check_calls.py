#!/usr/bin/env python3
"""report-calling-context.test: own()'s totals with callees are its own
counts plus steps()'s, call counts equal the callee's entry counts, and the
shared callee gets no inclusive totals."""
import json
import sys

kernels = {k["mangled"]: k for k in json.load(open(sys.argv[1]))["kernels"]}
own, steps, twice = kernels["_Z3ownPi"], kernels["_Z5stepsi"], kernels["_Z5twicei"]
c = own["calling_context"]
assert c["known"] and c["callees"] == ["_Z5stepsi"], c
incl = c["inclusive_executions"]
assert incl["warp"] == own["warp_executions"] + steps["warp_executions"], incl
assert incl["thread"] == own["thread_executions"] + steps["thread_executions"], incl
insts = c["inclusive_instructions"]
assert insts["thread"] == own["thread_instructions"] + steps["thread_instructions"], insts
# The callee ran far more than its caller: what the kernel alone hides.
assert steps["thread_instructions"] > 10 * own["thread_instructions"]
# Every thread that called steps() entered it once: calls = entry block runs.
[site] = c["call_sites"]
# never() calls steps() too, but is never launched: one of two sites ran.
assert site["callee"] == "_Z5stepsi" and site["callee_call_sites"] == 2, site
assert site["callee_active_call_sites"] == 1, site
entry = next(b for b in steps["blocks"] if b["id"] == 0)
assert site["thread_calls"] == entry["thread_executions"] == 128, (site, entry)
assert site["warp_calls"] == entry["warp_executions"] == 4, (site, entry)
# twice(): two call sites from two kernels; no inclusive totals for either.
callers = sorted(s["caller"] for s in twice["calling_context"]["called_from"])
assert callers == ["_Z6shareAPi", "_Z6shareBPi"], callers
assert sum(s["thread_calls"] for s in twice["calling_context"]["called_from"]) == \
    next(b for b in twice["blocks"] if b["id"] == 0)["thread_executions"]
for k in ("_Z6shareAPi", "_Z6shareBPi"):
    cc = kernels[k]["calling_context"]
    assert cc["inclusive_executions"] is None and "also called" in cc["note"], cc
print("ok: calling context exact where it can be")

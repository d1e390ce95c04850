#!/usr/bin/env python3
"""The weights the plugin attached equal the measured counts: each kernel's
entry count is its entry block's warp executions, and each probed branch's
successor thread counts appear as the weights of a branch of that kernel
(in probe order: a two-way branch's true side first). An optional third
argument is the number of identical runs the profile merged: every count is
that many times the report's."""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
ir = open(sys.argv[2]).read()
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
meta = dict(re.findall(r"^(![0-9]+) = (.*)$", ir, re.M))

functions = {}
for m in re.finditer(r"^define [^@]*@(\w+)\(.*?^}", ir, re.M | re.S):
    functions[m.group(1)] = m.group(0)

checked = 0
for k in report["kernels"]:
    body = functions[k["mangled"]]
    header = body.splitlines()[0]
    entry = re.search(r"!prof (![0-9]+)", header)
    assert entry, ("no entry count", k["mangled"])
    assert meta[entry.group(1)] == '!{!"function_entry_count", i64 %d}' % (
        runs * k["blocks"][0]["warp_executions"]), (k["mangled"], meta[entry.group(1)])
    weights = [tuple(int(x) for x in re.findall(r"i32 (\d+)", meta[p]))
               for p in re.findall(r"!prof (![0-9]+)", body) if "branch_weights" in meta[p]]
    for b in k["branches"]:
        if b["probed"] and b["visits"]:
            want = tuple(runs * t for t in b["successor_threads"])
            assert want in weights, (
                k["mangled"], b["line"], b["successor_threads"], weights)
            checked += 1
    assert body.count("!warpscope.divergence") >= 1
assert checked >= 5, checked
print("ok: %d branches carry their measured weights" % checked)

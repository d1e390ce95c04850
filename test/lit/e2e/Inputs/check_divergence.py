#!/usr/bin/env python3
"""Checks golden-free-divergence.cu's report against its own launch shape."""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
shape = dict(re.findall(r"(\w+) (\d+)", open(sys.argv[2]).read()))
warps, blocks, threads = (int(shape[k]) for k in ("warps", "blocks", "threads"))
src = open(__file__.replace("Inputs/check_divergence.py",
                            "golden-free-divergence.cu")).read().splitlines()
line_of = {tag: i + 1 for i, l in enumerate(src)
           for tag in re.findall(r"LINE-[A-Z-]+", l)}

(kernel,) = [k for k in report["kernels"] if k["mangled"] == "_Z8odd_evenPi"]
assert kernel["launches"] == 1, kernel["launches"]
by_line = {}
for b in kernel["branches"]:
    by_line.setdefault(b["line"], []).append(b)

def one(tag):
    found = by_line.get(line_of[tag], [])
    assert len(found) == 1, (tag, found)
    return found[0]

odd = one("LINE-ODD-EVEN")
assert odd["probed"] and not odd["uniform"], odd
assert odd["visits"] == warps and odd["divergent"] == warps, odd
assert odd["active_threads"] == threads, odd
assert odd["taken_threads"] in (threads // 2, threads - threads // 2), odd

blk = one("LINE-BLOCK")
assert blk["uniform"] and not blk["probed"] and blk["visits"] == 0, blk

first = one("LINE-FIRST-WARP")
assert first["probed"] and first["visits"] == warps, first
assert first["divergent"] == 0, first
assert first["taken_threads"] in (32 * blocks, threads - 32 * blocks), first

# Every warp runs the entry block once with all lanes active.
entry = kernel["blocks"][0]
assert entry["warp_executions"] == warps, entry
assert entry["thread_executions"] == threads, entry
assert kernel["branch_efficiency"] == 1 - warps / (2 * warps), kernel
print("ok: %d warps, every check held" % warps)

"""Checks the report's instruction mix against itself and the histograms.

usage: check_mix.py REPORT.json
The totals must equal the sums over opcodes and over classes, FLOPs must be
positive for the kernel (it runs fmaf), and the counts must be exact.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
kernels = [k for k in report["kernels"] if k["kind"] == "kernel"]
assert kernels, "no kernel in the report"
for k in kernels:
    ops = k["instructions_by_opcode"]
    classes = k["instruction_mix"]
    for level in ("warp", "thread"):
        total = k[level + "_instructions"]
        assert total == sum(o[level] for o in ops.values()), (k["name"], level)
        assert total == sum(c[level] for c in classes.values()), (k["name"], level)
    assert k["instructions_exact"], k["name"]
    assert k["thread_instructions"] > k["warp_instructions"] > 0
    assert k["flops"]["single"] > 0, "fmaf ran but no single-precision FLOPs"
    assert k["bytes"]["global"] > 0 and k["bytes"]["shared"] > 0
    assert any(op.startswith("fma.rn.f32") for op in ops), sorted(ops)
print("mix ok")

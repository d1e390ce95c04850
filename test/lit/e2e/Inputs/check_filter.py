"""Checks the JSON report of launch_selection.cu built with
-warpscope-kernel-filter=count_a: count_a's counts are all there (32 threads
per block, 1+2+3+4+5 blocks), count_b has none, and twice(int) also counts
count_b's calls (1+2+3 blocks more)."""
import json
import sys

report = json.load(open(sys.argv[1]))
kernels = {k["name"]: k for k in report["kernels"]}
assert "count_b(int*)" not in kernels, kernels.keys()
a = kernels["count_a(int*)"]
assert a["launches"] == 5 and a["blocks"][0]["thread_executions"] == 32 * 15, a
twice = kernels["twice(int)"]["blocks"][0]["thread_executions"]
assert twice == 32 * (15 + 6), twice
left = report["left_out"]
assert left["kernel_filters"] == ["count_a"], left
assert left["kernels_not_instrumented"] == [
    {"kernel": "count_b(int*)", "launches": 3}], left
assert left["shared_with_left_out"] == ["twice(int)"], left
assert left["launch_selection"] is None and left["launches_left_out"] == []
print("ok")

"""Checks a report of launch_selection.cu: check_selection.py REPORT.json
A B LEFT_A LEFT_B, where A and B are the blocks of the launches of count_a
and count_b the profile must hold (e.g. 2+3, or 0 for none), and LEFT_* the
launches left out. Each kernel's entry block counts 32 threads per block of
the launches profiled, and so does twice(int), which both call."""
import json
import sys

report = json.load(open(sys.argv[1]))
want = {"count_a(int*)": sys.argv[2], "count_b(int*)": sys.argv[3]}
left = {"count_a(int*)": int(sys.argv[4]), "count_b(int*)": int(sys.argv[5])}
kernels = {k["name"]: k for k in report["kernels"]}
for name, terms in want.items():
    blocks = [int(t) for t in terms.split("+") if t != "0"]
    k = kernels.get(name)
    if not blocks:
        assert k is None or k["launches"] == 0, k
        continue
    assert k["launches"] == len(blocks), (name, k["launches"], blocks)
    entry = k["blocks"][0]["thread_executions"]
    assert entry == 32 * sum(blocks), (name, entry, blocks)
total = sum(int(t) for v in want.values() for t in v.split("+"))
if total:
    twice = kernels["twice(int)"]["blocks"][0]["thread_executions"]
    assert twice == 32 * total, (twice, total)
else:
    assert "twice(int)" not in kernels, kernels
got = {e["kernel"]: e["launches"] for e in report["left_out"]["launches_left_out"]}
assert got == {n: c for n, c in left.items() if c}, (got, left)
print("ok")

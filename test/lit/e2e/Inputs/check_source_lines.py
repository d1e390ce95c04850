#!/usr/bin/env python3
"""report-source-lines.test: source_lines[] of the JSON report against the
blocks and the database's inline stacks, hand-checked lines of the demo, and
the same numbers on the HTML page."""
import glob
import json
import os
import re
import sys

d = sys.argv[1]
report = json.load(open(os.path.join(d, "r.json")))
dbs = [json.load(open(p)) for p in glob.glob(os.path.join(d, "out", "db-*.json"))]
db_functions = {f["name"]: f for db in dbs for f in db["functions"]}

for k in report["kernels"]:
    f = db_functions[k["mangled"]]
    blocks = {b["id"]: b for b in k["blocks"]}
    # The lines each block has code on, worked out from the database.
    covered = {}
    for b in f["blocks"]:
        lines = set()
        if b.get("line"):
            lines.add((b["file"], b["line"]))
        for stack in b.get("inline_stacks", []):
            lines.add((f["file"], f["line"] + stack[0]["line_offset"]))
        for key in lines:
            covered.setdefault(key, []).append(b["id"])
    got = {(l["file"], l["line"]): l for l in k["source_lines"]}
    assert set(got) == set(covered), (k["name"], set(got) ^ set(covered))
    for key, ids in covered.items():
        line = got[key]
        assert sorted(line["blocks"]) == sorted(ids), (key, line, ids)
        top = max(ids, key=lambda i: blocks[i]["thread_executions"])
        assert line["thread_executions"] == blocks[top]["thread_executions"], (key, line)
        assert line["warp_executions"] == blocks[top]["warp_executions"], (key, line)
    # Every block's counts reach each of its lines: no executed line is blank.
    for key, ids in covered.items():
        if any(blocks[i]["thread_executions"] for i in ids):
            assert got[key]["thread_executions"] > 0, key

steps = int(re.search(r"collatz: (\d+) steps in total", open(os.path.join(d, "stdout")).read()).group(1))
collatz = next(k for k in report["kernels"] if k["mangled"] == "_Z7collatzPKiPii")
by_line = {l["line"]: l for l in collatz["source_lines"]}
# 2048 threads pass `if (i >= n) return;` and load their start value once.
assert by_line[33]["thread_executions"] == 2048, by_line[33]
assert len(by_line[33]["blocks"]) == 2, "line 33 is split over two blocks at -O2"
# The loop body and ++s run once per step.
assert by_line[36]["thread_executions"] == steps, (by_line[36], steps)
assert by_line[37]["thread_executions"] == steps, (by_line[37], steps)
assert by_line[39]["thread_executions"] == 2048, by_line[39]
# Branch counts on their line: line 36's branch diverged.
assert by_line[36]["divergent"] > 0 and by_line[36]["visits"] >= by_line[36]["divergent"]

page = open(os.path.join(d, "r.html")).read()
section = page[page.index('id="f-_Z7collatzPKiPii"'):]
section = section[section.index('<pre class="src">'):]
section = section[:section.index("</pre>")]
def cell(line):
    m = re.search(r'<span class="no">%d</span><span class="cnt"[^>]*>([\d,]*)</span>' % line, section)
    assert m, line
    return int(m.group(1).replace(",", "") or 0)
assert cell(33) == 2048, cell(33)
assert cell(37) == steps, cell(37)
print("ok: per-line counts match the blocks; line 33 = 2048, loop body =", steps)

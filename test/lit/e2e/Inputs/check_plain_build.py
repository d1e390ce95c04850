"""Checks the report's plain-build histogram against the emulator's ground
truth of the plain build (the same program compiled without the plugin).

usage: check_plain_build.py REPORT.json PLAIN_TRUTH_DIR KERNEL STATUS
KERNEL's `plain_build` must have STATUS (same or mapped), and its per-opcode
warp and thread counts must equal, opcode for opcode, what the emulator
counted running the plain build (warp executions and active threads, as
`warpscope validate` compares them). Prints the ratio and distance.
"""
import collections
import glob
import json
import os
import sys

report_path, truth_dir, kernel, status = sys.argv[1:5]
report = json.load(open(report_path))
ks = [k for k in report["kernels"] if k["mangled"] == kernel]
assert len(ks) == 1, "kernel %s not in the report" % kernel
plain = ks[0]["plain_build"]
assert plain["status"] == status, (plain["status"], plain.get("note"))
assert plain["label"] == "plain build, counts from the instrumented run"
assert plain["instructions_exact"], "the plain histogram has unknown parts"

truth = collections.defaultdict(lambda: [0, 0])
files = glob.glob(os.path.join(truth_dir, "emu-*.json"))
assert files, "no ground truth in " + truth_dir
for path in files:
    for f in json.load(open(path))["functions"]:
        if f["name"] != kernel:
            continue
        for i in f["instructions"]:
            assert not i.get("instrumentation"), "the plain build has probes"
            if i["warp_executions"]:
                t = truth[i["opcode"]]
                t[0] += i["warp_executions"]
                t[1] += i["active_threads"]

ours = {op: [c["warp"], c["thread"]] for op, c in
        plain["instructions_by_opcode"].items() if c["warp"] or c["thread"]}
bad = [(op, ours.get(op), truth.get(op)) for op in sorted(set(ours) | set(truth))
       if ours.get(op) != truth.get(op)]
for op, o, t in bad:
    print("MISMATCH %s: plain histogram %s, emulator %s" % (op, o, t))
assert not bad, "the plain histogram is not the plain build's"
assert plain["thread_instructions"] == sum(t[1] for t in truth.values())
own = ks[0]["thread_instructions"]
print("plain build exact: %d opcodes, %d thread instructions; instrumented "
      "build's own %d; ratio %.4f distance %.4f; %d opcode(s) differ"
      % (len(ours), plain["thread_instructions"], own, plain["ratio"],
         plain["distance"], len(plain["differences"])))

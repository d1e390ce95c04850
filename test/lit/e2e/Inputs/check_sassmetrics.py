#!/usr/bin/env python3
"""Checks the JSON report of sass-metrics-report.test against the synthetic
counts of write_sassmetrics.py and the report's own numbers: the hardware
fields are added, nothing else changes, and the difference and ratio are
computed from the two sides."""
import copy
import json
import sys

report = json.load(open(sys.argv[1]))
plain = json.load(open(sys.argv[2]))

# Without sassmetrics files nothing is added; with them, only these.
assert "sass_metrics" not in plain
assert all("hardware" not in k for k in plain["kernels"])
stripped = copy.deepcopy(report)
del stripped["sass_metrics"]
for k in stripped["kernels"]:
    del k["hardware"]
assert stripped == plain, "SASS metrics changed more than the added fields"

s = report["sass_metrics"]
assert s["version"] == 1
assert [f.rsplit("/", 1)[1] for f in s["files"]] == [
    "sassmetrics-4242.json", "sassmetrics-4243.json"], s["files"]
assert s["chips"] == ["gh100"]
assert s["dropped_records"] == 0 and s["warnings"] == []
assert s["functions_not_in_report"] == ["_Z6helperv"]

kernels = {k["name"].split("(")[0]: k for k in report["kernels"]}

alt = kernels["alternate"]
hw = alt["hardware"]
assert hw["sass_pcs"] == 3 and hw["note"] is None
assert (hw["branch_targets"], hw["branch_targets_uniform"],
        hw["branch_targets_divergent"]) == (80, 60, 20)
assert hw["branch_efficiency"] == 0.75
ours = alt["branch_efficiency"]
assert ours is not None and 0 < ours < 1, ours
assert abs(hw["branch_efficiency_difference_points"] - (0.75 - ours) * 100) < 1e-9
assert hw["inst_executed"] == 1000 and hw["thread_inst_executed"] == 24000
assert alt["warp_instructions"] > 0
assert abs(hw["inst_executed_per_ptx_warp_instruction"]
           - 1000 / alt["warp_instructions"]) < 1e-12
assert hw["metrics"]["smsp__sass_branch_targets_threads_uniform"] == 60

col = kernels["collatz"]["hardware"]
assert col["branch_efficiency"] is None
assert col["branch_efficiency_difference_points"] is None
assert "sassmetrics-4243.json did not collect " \
    "*__sass_branch_targets_threads_uniform" in col["branch_efficiency_note"]
assert col["branch_targets"] == 90 and col["branch_targets_uniform"] is None
assert col["inst_executed"] == 700

blk = kernels["per_block"]["hardware"]
assert blk["sass_pcs"] == 0 and blk["note"].startswith("no SASS records")
assert blk["branch_efficiency"] is None and blk["inst_executed"] is None
print("ok")

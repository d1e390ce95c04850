#!/usr/bin/env python3
"""report-legend.test: every column of the divergence map and every
kernel-level figure has a legend entry in JSON and HTML; times are marked as
the emulator's; the features CSV has one arithmetic intensity."""
import csv
import json
import os
import sys

d = sys.argv[1]
report = json.load(open(os.path.join(d, "r.json")))
legend = report["legend"]
columns = ["visits", "divergent", "rate", "share", "copies", "cond true", "to 1st succ",
           "concentration", "basic block executions", "SIMD efficiency",
           "branch efficiency", "time", "PTX instructions", "plain build",
           "arithmetic intensity", "line executions", "line instructions",
           "calls", "with callees"]
for c in columns:
    assert c in legend and len(legend[c]) > 20, c
assert "taken" not in legend
assert report["time_source"] == "emulator-host-wall-clock", report["time_source"]
assert any(k["time_ms"] is not None for k in report["kernels"]), "per-launch run has times"

page = open(os.path.join(d, "r.html")).read()
assert '<details class="legend"' in page
for c in columns:
    assert "<dt>%s</dt>" % c.replace("&", "&amp;") in page, c
assert "time (ms, emulator CPU)" in page
assert "<th>cond true</th><th>to 1st succ</th>" in page and "<th>taken</th>" not in page

header = next(csv.reader(open(os.path.join(d, "features.csv"))))
assert "arithmetic_intensity" not in header, header
assert "flops_per_global_byte" in header and "arithmetic_per_memory_byte" in header
print("ok: legend in json and html,", len(columns), "terms")

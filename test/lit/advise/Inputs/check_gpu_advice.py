"""Checks `warpscope advise --format json` of a real GPU profile against
its PC samples, computed here without the driver:

  check_gpu_advice.py ADVICE.json DIR KERNEL OPTIMIZER

DIR's pcsamples-*.json give T, the kernel's samples (the sum of every pc's
`samples`). The kernel's first advice must be OPTIMIZER; an estimator line
naming T must name that T; for stall elimination and divergence the
estimate must be T / (T - S) with S its hotspots' samples (those
estimators list every hotspot they sum), an "M = ... matched" must be S,
and S must be at most the kernel's long_scoreboard samples when every
hotspot is a memory dependency. Prints one line per check.
"""
import glob
import json
import os
import re
import sys


def main(advice_path, d, kernel, optimizer):
    with open(advice_path) as f:
        doc = json.load(f)
    total = long_sb = 0
    for path in glob.glob(os.path.join(d, "pcsamples-*.json")):
        with open(path) as f:
            for pc in json.load(f)["pcs"]:
                if pc["function"] == kernel:
                    total += pc["samples"]
                    long_sb += pc["stalls"].get(
                        "smsp__pcsamp_warps_issue_stalled_long_scoreboard", 0)
    mine = [a for a in doc["advice"] if a["kernel"] == kernel]
    assert mine, "no advice for %s" % kernel
    first = mine[0]
    print("first: %s" % first["optimizer"])
    assert first["optimizer"] == optimizer, first["optimizer"]
    t = re.search(r"\bT = (\d+)", first["estimator"])
    if t:
        assert int(t.group(1)) == total, (t.group(1), total)
        print("estimator's T = the samples' %d" % total)
    saved = sum(h["samples"] for h in first["hotspots"])
    if first["estimator"].startswith("stall elimination") or \
            optimizer == "divergence":
        est = first["estimated_speedup"]
        want = total / (total - saved)
        assert abs(est - want) < 1e-9 * want, (est, total, saved)
        print("estimate = T / (T - S): T = %d, S = %g" % (total, saved))
    m = re.search(r"M = ([\d.]+) matched", first["estimator"])
    if m:
        # The line rounds M to one decimal.
        assert abs(float(m.group(1)) - saved) <= 0.05 + 1e-9, \
            (m.group(1), saved)
        print("estimator's M = S")
    if all("memory dependency" in h["evidence"] for h in first["hotspots"]):
        assert saved <= long_sb, (saved, long_sb)
        print("S <= long_scoreboard samples (%d)" % long_sb)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

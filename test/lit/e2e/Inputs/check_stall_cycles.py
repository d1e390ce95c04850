"""Checks the timing model's exact stall cycles (docs/timing-model.md).

Usage: check_stall_cycles.py EXACT_DIR BOTH_DIR
EXACT_DIR was run with --stall-cycles alone: method "exact", each pc's
samples and stalls are its stall_cycles rounded. BOTH_DIR was run with
--pc-sampling --stall-cycles: method "sampled", the samples beside the same
exact cycles, each line's share of the samples within 4 binomial standard
deviations of its share of the cycles. Prints what the test checks.
"""
import glob
import json
import math
import sys


def load(d):
    files = glob.glob(d + "/pcsamples-*.json")
    assert len(files) == 1, files
    return json.load(open(files[0]))


exact, both = load(sys.argv[1]), load(sys.argv[2])
print("methods", exact["method"], both["method"])
for p in exact["pcs"]:
    for k, n in p["stalls"].items():
        assert n == round(p["stall_cycles"][k]), (p, k)
    assert p["samples"] == sum(
        n for k, n in p["stalls"].items() if not k.endswith("_not_issued")), p
cycles = {}
for p in exact["pcs"]:
    cycles[(p["function"], p["ptx_index"])] = p["stall_cycles"]
for p in both["pcs"]:
    assert p["stall_cycles"] == cycles[(p["function"], p["ptx_index"])], p


def by_line(doc, field):
    out = {}
    for p in doc["pcs"]:
        v = p[field]
        n = v if isinstance(v, (int, float)) else sum(
            x for k, x in v.items() if not k.endswith("_not_issued"))
        out[p["line"]] = out.get(p["line"], 0) + n
    return out


samples, held = by_line(both, "samples"), by_line(both, "stall_cycles")
n, c = sum(samples.values()), sum(held.values())
worst = 0.0
for line, h in held.items():
    q = h / c
    sigma = math.sqrt(q * (1 - q) / n)
    worst = max(worst, abs(samples.get(line, 0) / n - q) / max(sigma, 1e-12))
print("lines", len(held), "within 4 sigma" if worst <= 4 else "off by %.1f sigma" % worst)

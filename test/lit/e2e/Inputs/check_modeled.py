"""Checks the timing model's figures in a run's ground truth (emu-*.json).

Usage: check_modeled.py DIR CONFIG|--none
Every launch has exactly the `modeled` members docs/timing-model.md names,
with CONFIG and one fingerprint of it, microseconds = cycles / the
configuration's clock (the boost clock, named in `clock` and `clock_mhz`),
the launch's fixed cost within the cycles, and the
bank-conflicted transpose (pitch 32) takes more modeled cycles than the
padded one (pitch 33). --none: no launch is modeled, yet counts are there.
"""
import glob
import json
import sys

CLOCK_MHZ = {"h100-sxm": 1980, "a100": 1410, "t4": 1590}
KEYS = {"config", "fingerprint", "cycles", "microseconds", "clock_mhz", "clock",
        "launch_cycles", "sms_simulated", "scaled", "instructions"}

out, config = sys.argv[1], sys.argv[2]
launches, executed = [], 0
for path in glob.glob(out + "/emu-*.json"):
    doc = json.load(open(path))
    launches += doc["launches"]
    for f in doc["functions"]:
        executed += sum(i["warp_executions"] for i in f["instructions"])
assert launches, "no launches"
assert executed > 0, "no counts"
if config == "--none":
    assert all("modeled" not in l for l in launches), launches
    print("no modeled time, counts kept")
    sys.exit(0)
cycles, prints = {}, set()
for l in launches:
    m = l["modeled"]
    assert set(m) == KEYS, m
    assert m["config"] == config, m
    # The timing model's version: the configuration's name, 16 hex digits.
    name, digest = m["fingerprint"].split(":")
    assert name == config and len(digest) == 16, m
    int(digest, 16)
    prints.add(m["fingerprint"])
    assert isinstance(m["cycles"], int) and m["cycles"] > 0, m
    assert isinstance(m["scaled"], bool) and isinstance(m["sms_simulated"], int)
    assert abs(m["microseconds"] - m["cycles"] / CLOCK_MHZ[config]) < 1e-6, m
    assert m["clock"] == "boost" and m["clock_mhz"] == CLOCK_MHZ[config], m
    assert isinstance(m["launch_cycles"], int) and 0 < m["launch_cycles"] < m["cycles"], m
    assert isinstance(m["instructions"], int) and m["instructions"] > 0, m
    cycles[l["kernel"]] = m["cycles"]
conflicted = next(v for k, v in cycles.items() if "ILi32E" in k)
padded = next(v for k, v in cycles.items() if "ILi33E" in k)
assert conflicted > 2 * padded, (conflicted, padded)
big = [l["modeled"] for l in launches if l["grid"][0] == 1000]
assert big and big[0]["scaled"] and big[0]["sms_simulated"] == 8, big
assert len(prints) == 1, prints
print("modeled", config, "conflicted", conflicted, "padded", padded)

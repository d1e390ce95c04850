#!/usr/bin/env python3
"""Compares two profile directories of the same program: module totals must
be equal, complete, and per-launch records must add up to their totals.
With --empty: the one directory holds a valid profile without launches."""
import glob
import json
import os
import sys


def load(d):
    (path,) = glob.glob(d + "/profile-*.json")
    p = json.load(open(path))
    p["dir"] = d
    assert p["schema"] == "warpscope-profile/2", p["schema"]
    return p


if sys.argv[1] == "--empty":
    p = load(sys.argv[2])
    assert p["launches"] == [], p["launches"]
    print("ok: empty profile")
    sys.exit(0)

a, b = load(sys.argv[1]), load(sys.argv[2])
totals = {}
for p in (a, b):
    for m in p["modules"]:
        assert m["complete"], m.get("error")
        assert len(m["counters"]) == m["num_counters"]
        if p["mode"] == "per-launch":
            records = [json.loads(line) for line in
                       open(os.path.join(p["dir"], p["launch_records"]))]
            summed = [0] * m["num_counters"]
            for l in records:
                if l["module_id"] == m["module_id"]:
                    for i, v in l["counters"]:
                        summed[i] += v
            assert summed == m["counters"], "per-launch counts do not add up"
            assert all(l["time_ms"] is not None for l in records)
            assert len(records) == sum(l["count"] for l in p["launches"])
    totals[p["mode"] + str(id(p))] = {m["module_id"]: m["counters"]
                                      for m in p["modules"]}
ta, tb = totals.values()
assert ta == tb, "the two runs disagree"
launches = lambda p: sum(l["count"] for l in p["launches"])
assert launches(a) == launches(b) == 8, (launches(a), launches(b))
print("ok: %d modules agree" % len(ta))

"""Checks modeled PC samples (pcsamples-*.json, docs/pc-sampling-schema.md).

Usage: check_model_samples.py DIR [OTHER_DIR]
The file is warpscope-pcsampling/3 from the model at PTX granularity; every
pc has function, ptx_index, samples and stalls satisfying the schema's
invariants; warps waiting at __syncthreads() are sampled as barrier stalls
on the line after it (printed for the test to check). With OTHER_DIR,
both runs' samples are identical (determinism).
"""
import glob
import json
import os
import sys

BASE = "smsp__pcsamp_warps_issue_stalled_"


def load(d):
    files = glob.glob(d + "/pcsamples-*.json")
    assert len(files) == 1, files
    return json.load(open(files[0]))


doc = load(sys.argv[1])
assert doc["schema"] == "warpscope-pcsampling/3", doc["schema"]
assert doc["source"] == "model" and doc["granularity"] == "ptx", doc
assert doc["model_config"] == "h100-sxm", doc["model_config"]
assert doc["sampling_period"] == 6, doc["sampling_period"]
names = {r["name"] for r in doc["stall_reasons"]}
total = 0
barrier_lines = set()
for p in doc["pcs"]:
    assert {"function", "ptx_index", "samples", "stalls"} <= set(p), p
    assert "cubin_crc" not in p and "pc_offset" not in p, p
    base = sum(n for k, n in p["stalls"].items() if not k.endswith("_not_issued"))
    assert p["samples"] == base, p
    for k, n in p["stalls"].items():
        assert k in names and k.startswith(BASE), k
        if k.endswith("_not_issued"):
            assert n <= p["stalls"][k[: -len("_not_issued")]], p
    assert BASE + "selected_not_issued" not in p["stalls"], p
    total += p["samples"]
    if p["stalls"].get(BASE + "barrier", 0):
        barrier_lines.add("%s:%s" % (os.path.basename(p.get("file", "?")),
                                     p.get("line")))
assert total == doc["total_samples"] and total > 50, total
print("samples", total, "barrier lines",
      " ".join(sorted(barrier_lines)))
if len(sys.argv) > 2 and sys.argv[2] != "-":
    other = load(sys.argv[2])
    assert other["pcs"] == doc["pcs"], "samples differ between runs"
    print("deterministic")

"""Checks a GPU collection: one pcsamples-/sassmetrics-<pid>.json with
records, no CUPTI errors, and every cubin it names saved in the directory."""
import glob
import json
import os
import sys

out, kind = sys.argv[1], sys.argv[2]
files = glob.glob(os.path.join(out, kind + "-*.json"))
assert len(files) == 1, files
doc = json.load(open(files[0]))
assert doc["schema"] == ("warpscope-pcsampling/2" if kind == "pcsamples" else "warpscope-sassmetrics/1"), doc["schema"]
assert not doc["errors"], doc["errors"]
assert doc["pcs"], "no records"
cubins = glob.glob(os.path.join(out, "cubin-*.cubin"))
assert cubins, "no cubin saved"
if kind == "pcsamples":
    assert doc["total_samples"] > 0
    # "<reason>_not_issued" counts are a subset of <reason>'s samples.
    for pc in doc["pcs"]:
        base = sum(n for r, n in pc["stalls"].items() if not r.endswith("_not_issued"))
        assert base == pc["samples"], pc
        assert sum(pc["stalls"].values()) - base <= base, pc
    # What an H100 showed for every benchmark: each sample counted once.
    if not doc["dropped_samples"]:
        assert sum(pc["samples"] for pc in doc["pcs"]) + doc["non_user_samples"] == doc["total_samples"], doc["total_samples"]
    for c in doc["cubins"]:
        assert os.path.exists(os.path.join(out, c["file"])), c
else:
    names = doc["collected_metrics"]
    assert any(n.endswith("__sass_inst_executed") for n in names), names
print("ok", files[0], len(doc["pcs"]), "records")

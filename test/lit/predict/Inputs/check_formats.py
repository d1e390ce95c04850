"""check_formats.py PRED.json PRED.csv: `warpscope predict`'s JSON and CSV
hold the same predictions, each with the model's label and its held-out
error, and the JSON says it is a prediction."""
import csv
import json
import sys

j = json.load(open(sys.argv[1]))
assert j["schema"] == "warpscope-prediction/1"
assert j["model"]["label"] == "prediction, not a measurement"
assert j["model"]["training"]["rows"] > 0
c = {r["mangled"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert len(c) == len(j["predictions"]) > 0
for p in j["predictions"]:
    r = c[p["mangled"]]
    assert abs(float(r["predicted_per_launch"]) - p["predicted_per_launch"]) < 1e-3, (r, p)
    assert r["held_out"] == p["held_out"] and "held-out error" in p["held_out"]
    assert r["model"] == j["model"]["name"]
print("ok")

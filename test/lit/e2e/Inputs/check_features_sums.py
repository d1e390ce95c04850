"""Checks `warpscope features --format hypa` of a per-launch run against the
launch records: per configuration, ctas and thread_count are the sums over
its launches and duration_ms the sum of their times (issue 19, item 11)."""
import csv
import glob
import json
import sys

out_dir, features_csv = sys.argv[1], sys.argv[2]
sums = {}
for path in glob.glob(out_dir + "/launches-*.jsonl"):
    for line in open(path):
        rec = json.loads(line)
        ctas = rec["grid"][0] * rec["grid"][1] * rec["grid"][2]
        threads = ctas * rec["block"][0] * rec["block"][1] * rec["block"][2]
        s = sums.setdefault(ctas * 1000 + threads, [0, 0, 0.0])
        s[0] += ctas
        s[1] += threads
        s[2] += rec["time_ms"]
rows = list(csv.DictReader(open(features_csv)))
assert len(rows) == len(sums), (rows, sums)
for row in rows:
    match = [s for s in sums.values()
             if s[0] == int(row["ctas"]) and s[1] == int(row["thread_count"])]
    assert len(match) == 1, ("no configuration sums to", row, sums)
    want = "%.3f" % match[0][2]
    assert row["duration_ms"] == want, (row["duration_ms"], want)
print("ok: %d configurations" % len(rows))

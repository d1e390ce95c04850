"""Prints the racecheck hazards of the emulator's ground truth (emu-*.json)
in a profile directory, one per line, then "N hazards"; fails when a file
has no "hazards" array (racecheck did not run)."""
import glob
import json
import os
import sys

total = 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "emu-*.json")))
if not files:
    sys.exit("no emu-*.json in " + sys.argv[1])
for path in files:
    with open(path) as f:
        doc = json.load(f)
    if "hazards" not in doc:
        sys.exit(path + ": no hazards array")
    for h in doc["hazards"]:
        a, b = h["first"], h["second"]
        print("%s %s %s:%d warp %d -> %s:%d warp %d count %d" % (
            h["kernel"], h["kind"], os.path.basename(a["file"]), a["line"],
            a["warp"], os.path.basename(b["file"]), b["line"], b["warp"],
            h["count"]))
        total += 1
print("%d hazards" % total)

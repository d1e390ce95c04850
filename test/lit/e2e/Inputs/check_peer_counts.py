"""Checks `warpscope features --format mangrove-groups` (argv[1]) and
`--format mangrove` (argv[2]) of peer_counts.cu against its counts known by
hand: per launch, thread-level global loads and stores, shared loads and
stores, FMAs (the only float.32 instructions there) and barriers, and the
global memory volume GPU Mangrove derives from them."""
import csv
import sys

# (kernel, active threads, per-thread counts) in launch order.
LAUNCHES = [
    ("_Z4fma4PKfPfi", 1000, {"ld.global.32": 2, "st.global.32": 1,
                            "float.32": 4, "bar.sync": 0,
                            "ld.shared.32": 0, "st.shared.32": 0}),
    ("_Z4fma4PKfPfi", 300, {"ld.global.32": 2, "st.global.32": 1,
                           "float.32": 4, "bar.sync": 0,
                           "ld.shared.32": 0, "st.shared.32": 0}),
    ("_Z5stagePKfPf", 384, {"ld.global.32": 1, "st.global.32": 1,
                           "float.32": 1, "bar.sync": 2,
                           "ld.shared.32": 1, "st.shared.32": 1}),
]

groups = list(csv.DictReader(open(sys.argv[1])))
samples = list(csv.DictReader(open(sys.argv[2])))
bad = []
if len(groups) != len(LAUNCHES) or len(samples) != len(LAUNCHES):
    sys.exit("expected %d rows, got %d and %d"
             % (len(LAUNCHES), len(groups), len(samples)))
for k, (name, active, per) in enumerate(LAUNCHES):
    g, s = groups[k], samples[k]
    if g["name"] != name or s["name"] != name or int(g["lseq"]) != k:
        bad.append("row %d: %s/%s lseq %s, expected %s" % (k, g["name"], s["name"], g["lseq"], name))
        continue
    for col, n in per.items():
        if int(g[col]) != n * active:
            bad.append("launch %d %s: %s = %s, expected %d" % (k, name, col, g[col], n * active))
    volume = 4 * active * (per["ld.global.32"] + per["st.global.32"])
    if int(s["global_memory_volume"]) != volume:
        bad.append("launch %d: global_memory_volume %s, expected %d"
                   % (k, s["global_memory_volume"], volume))
    if int(s["sync_operations"]) != per["bar.sync"] * active:
        bad.append("launch %d: sync_operations %s" % (k, s["sync_operations"]))
    if int(s["shared_memory_volume"]) != 4 * active * (per["ld.shared.32"] + per["st.shared.32"]):
        bad.append("launch %d: shared_memory_volume %s" % (k, s["shared_memory_volume"]))
for b in bad:
    print(b)
print("ok: %d launches" % len(LAUNCHES) if not bad else "FAILED")

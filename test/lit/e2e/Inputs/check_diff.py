"""Checks `warpscope diff --format json` against the two profiles' own JSON
reports: check_diff.py DIFF BEFORE-REPORT AFTER-REPORT MIN-SHARED
[REGRESSED-BRANCH...]. Every function of both reports is in the diff with
the reports' numbers; at least MIN-SHARED are in both; each changed branch
carries the numbers of the branch at that place in each report; the
branches named (file:line:col) are among the regressions, which are exactly
the branches whose rate grew by more than fail_above.divergence."""
import json
import os
import sys

diff = json.load(open(sys.argv[1]))
before = {k["mangled"]: k for k in json.load(open(sys.argv[2]))["kernels"]}
after = {k["mangled"]: k for k in json.load(open(sys.argv[3]))["kernels"]}
min_shared, regressed = int(sys.argv[4]), set(sys.argv[5:])
assert diff["schema"] == "warpscope-diff/2", diff["schema"]
seen, shared, flagged = set(), 0, set()


def branch_at(report, b, side):
    """The ordinal-th probed branch of report at b's place in that build."""
    line, ordinal = ((b["line_before"], b["ordinal_before"]) if side == "before"
                     else (b["line"], b["ordinal"]))
    same = [x for x in report["branches"] if x["probed"] and
            (x["file"], x["line"], x["column"]) == (b["file"], line, b["column"])]
    return same[ordinal]


for f in diff["functions"]:
    name = f["mangled"]
    seen.add(name)
    want_in = {(True, True): "both", (True, False): "before",
               (False, True): "after"}[(name in before, name in after)]
    assert f["in"] == want_in, (name, f["in"], want_in)
    for side, rep in (("before", before), ("after", after)):
        if name not in rep:
            assert f[side] is None
            continue
        for key in ("launches", "warp_executions", "thread_executions",
                    "branch_efficiency"):
            assert f[side][key] == rep[name][key], (name, side, key)
    if f["in"] != "both":
        continue
    shared += 1
    for b in f["branches_changed"]:
        for side, rep in (("before", before), ("after", after)):
            r = branch_at(rep[name], b, side)
            assert (r["visits"], r["divergent"]) == (
                b[side]["visits"], b[side]["divergent"]), (name, b, r)
        rate = lambda s: 100.0 * s["divergent"] / s["visits"] if s["visits"] else 0
        assert abs(b["divergence_change_points"] -
                   (rate(b["after"]) - rate(b["before"]))) < 1e-9, b
        limit = diff["fail_above"].get("divergence")
        assert b["regression"] == (limit is not None and
                                   b["divergence_change_points"] > limit), b
        if b["regression"]:
            flagged.add("%s:%d:%d" % (os.path.basename(b["file"]), b["line"],
                                      b["column"]))
assert seen == set(before) | set(after), (seen, set(before) | set(after))
assert shared >= min_shared, shared
assert regressed <= flagged, (flagged, regressed)
assert diff["regressions"] >= len(regressed)
print("ok:", len(seen), "functions,", shared, "in both")

"""Checks diff-figures.test's JSON: check_diff_figures.py DIFF. The kernel's
memory figures and its two changed lines are there with their metric and
regression; the branches only in one version are named by place."""
import json
import sys

diff = json.load(open(sys.argv[1]))
assert diff["schema"] == "warpscope-diff/2", diff["schema"]
assert diff["fail_above"] == {"memory-efficiency": 5}, diff["fail_above"]
(k,) = [f for f in diff["functions"] if f["mangled"] == "_Z9transposePKfPfPi"]
figures = {f["name"]: f for f in k["figures"]}
for name in ("global_efficiency", "shared_efficiency"):
    f = figures[name]
    assert f["metric"] == "memory-efficiency" and f["change_unit"] == "points", f
    assert f["before"] == 100 and f["after"] < f["before"] and f["regression"], f
    assert abs(f["change"] - (f["after"] - f["before"])) < 1e-9, f
assert figures["launches"]["metric"] is None, figures["launches"]
assert figures["modeled_microseconds"]["change_unit"] == "percent"
lines = {l["line"]: {f["name"]: f for f in l["figures"]} for l in k["lines_changed"]}
assert sorted(lines) == [18, 19, 21, 29], sorted(lines)
for line, name, after in ((18, "global_efficiency", 12.5),
                          (29, "global_efficiency", 12.5),
                          (19, "shared_efficiency", 100 / 32),
                          (21, "shared_efficiency", 100 / 32)):
    f = lines[line][name]
    assert abs(f["after"] - after) < 1e-9 and f["before"] == 100, (line, f)
    assert f["regression"], (line, f)
assert [b["line"] for b in k["branches_only_before"]] == [23], k
assert [b["line"] for b in k["branches_only_after"]] == [26], k
assert diff["regressions"] == 6, diff["regressions"]
print("ok")

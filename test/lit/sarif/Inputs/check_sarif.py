"""Checks what GitHub code scanning needs in a SARIF log of the demo, built
from "<root>/src dir#1/divergence.cu": check_sarif.py LOG ROOT MODE, MODE
fresh (relative URIs with snippets), absolute (no --srcroot) or stale (the
source changed since the build); or check_sarif.py LOG ROOT moved-from OLD:
LOG's results are OLD's, three lines lower, with the same fingerprints."""
import json
import os
import sys
import urllib.parse

log, root, mode = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
sarif = json.load(open(log))
if mode == "moved-from":
    def by_fingerprint(s):
        return {r["partialFingerprints"]["warpscopeBranch/v1"]:
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                for r in s["runs"][0]["results"]}
    new, old = by_fingerprint(sarif), by_fingerprint(json.load(open(sys.argv[4])))
    assert new.keys() == old.keys(), (new, old)
    assert all(new[f] == old[f] + 3 for f in new), (new, old)
    print("ok: moved", len(new), "results")
    sys.exit(0)
run = sarif["runs"][0]
driver = run["tool"]["driver"]
assert driver["informationUri"].endswith("README.md"), driver
rule = driver["rules"][0]
assert rule["id"] == "WS001" and rule["help"]["text"] and rule["help"]["markdown"]
assert rule["helpUri"].endswith("docs/sarif.md#ws001-divergentbranch"), rule
source = os.path.join(root, "src dir#1", "divergence.cu")
lines = open(source).read().split("\n")
results = run["results"]
assert results, "the demo diverges: expected results"
fingerprints = set()
for res in results:
    loc = res["locations"][0]["physicalLocation"]
    art = loc["artifactLocation"]
    if mode == "absolute":
        assert "uriBaseId" not in art, art
        assert art["uri"] == "file://" + urllib.parse.quote(source), art
    else:
        # Normalised ("src dir#1/../src dir#1" is gone) and percent-encoded.
        assert art == {"uri": "src%20dir%231/divergence.cu",
                       "uriBaseId": "SRCROOT"}, art
    region = loc["region"]
    if mode == "stale":
        assert "snippet" not in region and "contextRegion" not in loc, loc
    else:
        assert region["snippet"]["text"] == lines[region["startLine"] - 1], region
        ctx = loc["contextRegion"]
        want = "".join(l + "\n" for l in lines[ctx["startLine"] - 1:ctx["endLine"]])
        assert ctx["snippet"]["text"] == want, (ctx, want)
        assert ctx["startLine"] <= region["startLine"] <= ctx["endLine"]
    fp = res["partialFingerprints"]["warpscopeBranch/v1"]
    assert len(fp) == 16 and int(fp, 16) >= 0, fp
    fingerprints.add(fp)
# One fingerprint per result: distinct branches never share one.
assert len(fingerprints) == len(results), (len(fingerprints), len(results))
notes = run["invocations"][0]["toolExecutionNotifications"]
if mode == "stale":
    assert any("divergence.cu" in n["message"]["text"] for n in notes), notes
    assert all(n["level"] == "warning" for n in notes), notes
else:
    assert notes == [], notes
    base = run.get("originalUriBaseIds", {}).get("SRCROOT")
    if mode == "fresh":
        assert base["uri"] == "file://" + urllib.parse.quote(root) + "/", base
    else:
        assert base is None
print("ok:", mode, len(results), "results")

#!/usr/bin/env python3
"""`warpscope advise` on every benchmark's profile (issue 18, Done when).

Runs each instrumented benchmark of benchmarks/list.txt on the emulator with
the timing model's PC samples,

    warpscope run --emulate --pc-sampling --force -o DIR -- build/benchmarks/NAME.inst SIZE

then `warpscope advise DIR` in every format (text, json, html, sarif) and
checks that the advisor used what such a directory holds: it exits 0, prints
something in each format, the JSON is `warpscope-advice/1` with `PC samples`,
`block counts` and `instruction listing` among its inputs and no notes (a
note means an input was dropped as mismatched: samples of another build, a
listing that does not parse), the SARIF is JSON, and the program got some
advice. It also checks that `warpscope report DIR` shows the samples as a
stall view labelled modeled (text and JSON). One line per benchmark, then
"N passed, M failed".

usage: advise_all.py [--build DIR] [--size small|large|N] [--only a,b]
                     [--keep DIR] [--timeout SECONDS]

Exit: 0 all passed, 1 some failed, 2 bad usage, 77 the emulator, the driver
or the instrumented benchmarks are not built (ctest's skip).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
REQUIRED_INPUTS = ("PC samples", "block counts", "instruction listing")


def benchmarks(only):
    names = []
    with open(os.path.join(BENCH, "list.txt")) as f:
        for line in f:
            name = line.split("#")[0].strip()
            if name and (not only or name in only):
                names.append(name)
    return names


def run(cmd, timeout, env=None):
    """(exit code, stdout, stderr); a timeout is exit 124."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, env=env)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %ss" % timeout


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else "(no output)"


def check_json_doc(doc):
    """What is wrong with an advice document, or ''."""
    if doc.get("schema") != "warpscope-advice/1":
        return "schema is %r" % doc.get("schema")
    used = doc.get("inputs_used", [])
    missing = [i for i in REQUIRED_INPUTS if i not in used]
    if missing:
        return "inputs not used: %s" % ", ".join(missing)
    if doc.get("notes"):
        return "note: %s" % doc["notes"][0]
    if not doc.get("advice"):
        return "no advice for any kernel"
    return ""


def report_checks(ws, out, timeout):
    """What is wrong with the report's stall view of the modeled samples, or
    '' (issue 17: the report shows them as a stall view, labelled modeled)."""
    rc, so, se = run([ws, "report", out, "--format", "json"], timeout)
    if rc != 0:
        return "report exited %d: %s" % (rc, last_line(se or so))
    try:
        view = json.loads(so).get("stall_view")
    except ValueError as e:
        return "report --format json: not JSON (%s)" % e
    if not view:
        return "report has no stall view"
    if view.get("source") != "model":
        return "stall view source is %r, not 'model'" % view.get("source")
    if not view.get("samples") or not view.get("kernels"):
        return "stall view has no samples"
    rc, so, se = run([ws, "report", out], timeout)
    if rc != 0 or "Stall view (modeled PC sampling" not in so:
        return "text report does not label the stall view as modeled"
    return ""


def advise_checks(ws, out, timeout):
    """(what is wrong or '', number of pieces of advice)."""
    count = 0
    for fmt in ("text", "json", "html", "sarif"):
        rc, so, se = run([ws, "advise", out, "--format", fmt], timeout)
        if rc != 0:
            return "advise --format %s exited %d: %s" % (
                fmt, rc, last_line(se or so)), count
        if not so.strip():
            return "advise --format %s printed nothing" % fmt, count
        if fmt in ("json", "sarif"):
            try:
                doc = json.loads(so)
            except ValueError as e:
                return "advise --format %s: not JSON (%s)" % (fmt, e), count
            if fmt == "json":
                why = check_json_doc(doc)
                if why:
                    return why, count
                count = len(doc["advice"])
        elif fmt == "text" and not so.startswith("Advice ("):
            return "advise text does not start with 'Advice ('", count
    return "", count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(BENCH),
                                                    "build"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="")
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    if a.size not in ("small", "large") and not a.size.isdigit():
        print("advise_all.py: bad --size %r (small, large or a number)" %
              a.size, file=sys.stderr)
        return 2
    build = os.path.abspath(a.build)
    ws = os.path.join(build, "bin", "warpscope")
    if not os.path.exists(os.path.join(build, "lib", "emu",
                                       "libcudart.so.13")):
        print("advise_all.py: emulator not built in %s" % build)
        return 77
    if not os.access(ws, os.X_OK):
        print("advise_all.py: %s not built" % ws)
        return 77
    names = benchmarks(set(filter(None, a.only.split(","))))
    if not names:
        print("advise_all.py: no benchmark named %s" % a.only, file=sys.stderr)
        return 2
    work = a.keep or tempfile.mkdtemp(prefix="warpscope-advise-all.")
    env = dict(os.environ, WARPSCOPE_QUIET="1")
    passed = failed = 0
    print("# warpscope advise on every benchmark: size %s, emulated, modeled "
          "PC samples" % a.size)
    for name in names:
        exe = os.path.join(build, "benchmarks", name + ".inst")
        if not os.access(exe, os.X_OK):
            print("advise_all.py: %s not built" % exe)
            return 77
        out = os.path.join(work, name)
        start = time.time()
        # --force: a --keep directory may hold an earlier run's results.
        rc, so, se = run([ws, "run", "--emulate", "--pc-sampling", "--force",
                          "-o", out, "--", exe, a.size], a.timeout, env)
        why, count = "", 0
        if rc != 0 or "PASS" not in so:
            why = "run exited %d: %s" % (rc, last_line(se or so))
        else:
            why = report_checks(ws, out, a.timeout)
            if not why:
                why, count = advise_checks(ws, out, a.timeout)
        secs = time.time() - start
        if why:
            failed += 1
            print("%-14s FAIL  %5.1fs  %s" % (name, secs, why))
        else:
            passed += 1
            print("%-14s ok    %5.1fs  %d pieces of advice" % (name, secs,
                                                               count))
        sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Validates SARIF files with Microsoft's SARIF Multitool, SARIF and GitHub
rules (the ones GitHub code scanning applies), at every level down to notes.

    scripts/validate-sarif.py [--accept RULE,...] FILE.sarif...

Fails (exit 1) on any error, warning or note but the few that no SARIF
WarpScope writes can avoid (ACCEPTED). The Multitool itself exits 0 whatever
it finds, so its findings are read from its output; --accept adds rules to accept (e.g. SARIF2010,SARIF2011: no
snippets, for a log of sources that changed since the build). Without the
Multitool
(scripts/setup.sh installs it) this fails with one line saying so.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# Findings every WarpScope log draws, and why they are acceptable.
ACCEPTED = {
    # Messages are text written per result, not id + arguments templates.
    "SARIF2002": "messages are plain text",
    # WarpScope does not know which commit of the sources was built.
    "SARIF2003": "no versionControlProvenance",
    # The $schema URL cannot be fetched on a machine without network.
    "SARIF2006": "schema URL not reachable offline",
}
FINDING = re.compile(r"^(.*)\((\d+),(\d+)\): (error|warning|note) (\w+): (.*)$")


def multitool():
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "sarif-multitool.sh")
    r = subprocess.run([script, "--path"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(r.stderr.strip() or "error: SARIF Multitool not found; run "
                 "scripts/setup.sh")
    return r.stdout.strip()


def validate(tool, path):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "validation.sarif")
        start = time.monotonic()
        r = subprocess.run([tool, "validate", "--rule-kind", "Sarif", "Gh",
                            "--level", "Error", "Warning", "Note",
                            "-o", log, path],
                           capture_output=True, text=True, timeout=600)
        seconds = time.monotonic() - start
        if r.returncode != 0 or not os.path.exists(log):
            sys.exit("error: the SARIF Multitool failed on %s (exit %d): %s"
                     % (path, r.returncode, (r.stdout + r.stderr).strip()))
        results = json.load(open(log))["runs"][0].get("results", [])
    findings = [m.groups() for m in map(FINDING.match, r.stdout.splitlines())
                if m]
    # Every result the log holds must be one the console named.
    if len(findings) != len(results):
        sys.exit("error: %s: the Multitool's log holds %d results but its "
                 "output names %d:\n%s" % (path, len(results), len(findings),
                                           r.stdout))
    return findings, seconds


def main():
    args = sys.argv[1:]
    accepted_here = dict(ACCEPTED)
    if args[:1] == ["--accept"] and len(args) > 1:
        for rule in args[1].split(","):
            accepted_here[rule] = "accepted by --accept"
        args = args[2:]
    if not args:
        sys.exit("usage: validate-sarif.py [--accept RULE,...] FILE.sarif...")
    tool = multitool()
    failed = False
    for path in args:
        findings, seconds = validate(tool, path)
        bad = [f for f in findings if f[4] not in accepted_here]
        for _, line, col, level, rule, text in bad:
            print("%s:%s:%s: %s %s: %s" % (path, line, col, level, rule, text))
        accepted = sorted({f[4] for f in findings if f[4] in accepted_here})
        print("%s: %s: %d finding(s) against SARIF and GitHub rules, %d "
              "accepted (%s); %.1f s" % (path, "FAIL" if bad else "ok",
                                         len(bad), len(findings) - len(bad),
                                         ", ".join(accepted) or "none",
                                         seconds))
        failed |= bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

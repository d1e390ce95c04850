#!/usr/bin/env python3
"""Turns the CSV written by benchmarks/gpu/validate.sh into a markdown page.

    summarize.py RESULTS.csv [OUTPUT.md]     (default output: stdout)

Input: comment lines starting with '#' (GPU, date, settings), then a header
`program,kernel,plain_ms,inst_ms,overhead,branch_eff_ncu`. Rows with kernel
'*' carry the program's median times; other rows carry one kernel's branch
efficiency (percent) as reported by Nsight Compute. Python 3 stdlib only.
"""

import csv
import math
import sys
from collections import OrderedDict

COLUMNS = ["program", "kernel", "plain_ms", "inst_ms", "overhead", "branch_eff_ncu"]


def number(text):
    """Float value of a cell, or None for empty / NA / FAIL / junk."""
    try:
        v = float((text or "").strip())
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def cell(text):
    """A cell for display: numbers as they are, empty as an en dash."""
    text = (text or "").strip()
    return text if text else "–"


def fmt(v, digits=2, suffix=""):
    return "–" if v is None else ("%.*f%s" % (digits, v, suffix))


def read(path):
    comments, rows = [], []
    with open(path, newline="", errors="replace") as f:
        lines = f.read().splitlines()
    body = []
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            comments.append(s.lstrip("#").strip())
        else:
            body.append(line)
    reader = csv.reader(body)
    header = None
    for rec in reader:
        rec = [c.strip() for c in rec]
        if header is None and rec and rec[0] == "program":
            header = rec
            continue
        if len(rec) < 2:
            continue
        names = header if header else COLUMNS
        row = dict(zip(names, rec))
        for c in COLUMNS:
            row.setdefault(c, "")
        rows.append(row)
    return comments, rows


def summarize(comments, rows):
    programs = OrderedDict()
    for r in rows:
        p = programs.setdefault(r["program"], {"total": None, "kernels": []})
        if r["kernel"] == "*":
            p["total"] = r
        else:
            p["kernels"].append(r)

    out = ["# WarpScope benchmark results on a GPU", ""]
    for c in comments:
        out.append("- " + c)
    if comments:
        out.append("")

    out += [
        "| program | plain ms | instrumented ms | overhead | branch efficiency (ncu) |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    ratios, failures = [], []
    for name, p in programs.items():
        t = p["total"] or {}
        plain, inst = t.get("plain_ms", ""), t.get("inst_ms", "")
        ov = number(t.get("overhead"))
        if ov is None and number(plain) and number(inst) is not None:
            ov = number(inst) / number(plain)
        if ov is not None and ov > 0:
            ratios.append(ov)
        for label, v in (("plain", plain), ("instrumented", inst)):
            if v.upper() == "FAIL":
                failures.append("%s (%s)" % (name, label))
        effs = [number(k["branch_eff_ncu"]) for k in p["kernels"]]
        effs = [e for e in effs if e is not None]
        if not effs:
            eff = "–"
        elif len(effs) == 1 or min(effs) == max(effs):
            eff = fmt(effs[0], 1, "%")
        else:
            eff = "%s – %s (%d kernels)" % (fmt(min(effs), 1, "%"),
                                            fmt(max(effs), 1, "%"), len(effs))
        out.append("| %s | %s | %s | %s | %s |" % (
            name, cell(plain), cell(inst), fmt(ov, 2, "×"), eff))
    out.append("")
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        out.append("Geometric mean overhead over %d programs: %.2f× "
                   "(min %.2f×, max %.2f×)." % (len(ratios), geo, min(ratios),
                                                 max(ratios)))
        out.append("")
    if failures:
        out.append("Failed runs: " + ", ".join(failures) + ".")
        out.append("")

    kernel_rows = [(n, k) for n, p in programs.items() for k in p["kernels"]]
    if kernel_rows:
        out += ["## Branch efficiency per kernel (Nsight Compute)", "",
                "| program | kernel | branch efficiency |",
                "| --- | --- | ---: |"]
        for n, k in kernel_rows:
            out.append("| %s | `%s` | %s |" % (
                n, k["kernel"], fmt(number(k["branch_eff_ncu"]), 1, "%")))
        out.append("")
    return "\n".join(out)


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    try:
        comments, rows = read(argv[1])
    except OSError as e:
        sys.stderr.write("summarize.py: %s\n" % e)
        return 1
    text = summarize(comments, rows)
    if len(argv) == 3:
        with open(argv[2], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

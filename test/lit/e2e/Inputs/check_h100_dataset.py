#!/usr/bin/env python3
"""Invariants of a joined kernel-time dataset (benchmarks/gpu/make_dataset.py).

  check_h100_dataset.py JOINED.csv [--raw DIR] [--expect-rows N]
                        [--expect-complete N] [--allow-fail RUN ...]

Checks, independently of make_dataset.py's code:
  - the `#` block names device, driver, CUDA, Nsight Compute, date, clock
    control and both commands, and its `rows: N, complete: M` line is true;
  - (program, size_tag, kernel, grid, block, shared_bytes) is unique;
  - complete=1 rows: match=both, ncu_launches == launches > 0, times
    positive, min <= median <= max, min <= mean <= max,
    sum == mean * ncu_launches, cycle means positive, empty note;
  - complete=0 rows: a note, and launches != ncu_launches or match != both;
  - self_check_* is PASS except in the runs (P-T) given to --allow-fail;
  - with --raw: per run, the ncu_launches add up to the distinct launch IDs
    of RAW/P-T.ncu.csv[.gz], and the features rows (match != ncu-only) are
    exactly the rows of RAW/P-T.features.csv.
Prints `ok: ...` and exits 0, or one `error: ...` line per failure, exit 1.
"""
import argparse
import csv
import gzip
import os
import sys

errors = []


def err(msg):
    errors.append(msg)


def read(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rt", newline="") as f:
            return f.read()
    with open(path, newline="") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("joined")
    ap.add_argument("--raw")
    ap.add_argument("--expect-rows", type=int)
    ap.add_argument("--expect-complete", type=int)
    ap.add_argument("--allow-fail", nargs="*", default=[])
    a = ap.parse_args()

    text = read(a.joined).splitlines()
    comments = [l[2:] for l in text if l.startswith("#")]
    body = [l for l in text if not l.startswith("#")]
    rows = list(csv.DictReader(body))
    for key in ("device:", "driver:", "CUDA:", "Nsight Compute:", "date:",
                "clock control:", "counts:", "times:"):
        if not any(c.strip().startswith(key) and "unknown" not in c
                   for c in comments):
            err("comment block lacks a known '%s' line" % key)
    complete = [r for r in rows if r["complete"] == "1"]
    claim = "rows: %d, complete: %d" % (len(rows), len(complete))
    if claim not in comments:
        err("comment block does not say '%s'" % claim)
    if a.expect_rows is not None and len(rows) != a.expect_rows:
        err("%d rows, expected %d" % (len(rows), a.expect_rows))
    if a.expect_complete is not None and len(complete) != a.expect_complete:
        err("%d complete rows, expected %d" % (len(complete), a.expect_complete))

    seen = set()
    for i, r in enumerate(rows, 1):
        where = "row %d (%s %s %s grid %s,%s,%s block %s,%s,%s)" % (
            i, r["program"], r["size_tag"], r["mangled"], r["grid_x"],
            r["grid_y"], r["grid_z"], r["block_x"], r["block_y"], r["block_z"])
        key = tuple(r[c] for c in ("program", "size_tag", "mangled", "grid_x",
                                   "grid_y", "grid_z", "block_x", "block_y",
                                   "block_z", "shared_bytes"))
        if key in seen:
            err(where + ": duplicate configuration")
        seen.add(key)
        run = "%s-%s" % (r["program"], r["size_tag"])
        for col in ("self_check_plain", "self_check_inst"):
            if r[col] != "PASS" and run not in a.allow_fail:
                err("%s: %s is %s" % (where, col, r[col]))
        if r["complete"] not in ("0", "1"):
            err(where + ": complete is %r" % r["complete"])
            continue
        if r["complete"] == "0":
            if not r["note"]:
                err(where + ": complete=0 without a note")
            if r["match"] == "both" and r["launches"] == r["ncu_launches"] \
                    and r["note"] != "ambiguous-shared-bytes":
                err(where + ": complete=0 but the launches match")
            continue
        try:
            n, want = int(r["ncu_launches"]), int(r["launches"])
            t = {k: float(r["time_ns_" + k]) for k in
                 ("sum", "mean", "median", "min", "max")}
            cyc = float(r["sm_cycles_elapsed_max_mean"])
            act = float(r["smsp_cycles_active_avg_mean"])
        except ValueError as e:
            err(where + ": complete=1 with a non-number: %s" % e)
            continue
        if r["match"] != "both" or r["note"]:
            err(where + ": complete=1 but match=%s note=%s" % (r["match"], r["note"]))
        if n != want or n <= 0:
            err(where + ": complete=1 but ncu_launches %d != launches %d" % (n, want))
        if not 0 < t["min"] <= t["median"] <= t["max"]:
            err(where + ": times not 0 < min <= median <= max: %s" % t)
        if not t["min"] - 0.001 <= t["mean"] <= t["max"] + 0.001:
            err(where + ": mean outside [min, max]: %s" % t)
        if n > 0 and abs(t["mean"] * n - t["sum"]) > 0.001 * n + 1:
            err(where + ": sum %g != mean %g * %d" % (t["sum"], t["mean"], n))
        if cyc <= 0 or act < 0:
            err(where + ": cycle means %g %g" % (cyc, act))

    if a.raw:
        by_run = {}
        for r in rows:
            by_run.setdefault("%s-%s" % (r["program"], r["size_tag"]), []).append(r)
        for run, rs in by_run.items():
            base = os.path.join(a.raw, run)
            ncu = next((p for p in (base + ".ncu.csv", base + ".ncu.csv.gz")
                        if os.path.exists(p)), None)
            if ncu:
                lines = [l for l in read(ncu).splitlines() if l.startswith('"')]
                ids = {r["ID"] for r in csv.DictReader(lines)}
                got = sum(int(r["ncu_launches"] or 0) for r in rs)
                if got != len(ids):
                    err("%s: ncu_launches add up to %d, the ncu CSV has %d "
                        "launches" % (run, got, len(ids)))
            feats = base + ".features.csv"
            want = []
            if os.path.exists(feats):
                want = [(f["mangled"], f["grid_x"], f["grid_y"], f["grid_z"],
                         f["block_x"], f["block_y"], f["block_z"], f["launches"],
                         f["warp_instructions"])
                        for f in csv.DictReader(read(feats).splitlines())]
            got = [(r["mangled"], r["grid_x"], r["grid_y"], r["grid_z"],
                    r["block_x"], r["block_y"], r["block_z"], r["launches"],
                    r["warp_instructions"])
                   for r in rs if r["match"] != "ncu-only"]
            if got != want:
                err("%s: %d features rows in the dataset, %d in %s" % (
                    run, len(got), len(want), os.path.basename(feats)))
        raw_runs = {f[:-len(".features.csv")] for f in os.listdir(a.raw)
                    if f.endswith(".features.csv")}
        for run in sorted(raw_runs - set(by_run)):
            err("%s: has a features CSV but no row in the dataset" % run)

    for e in errors:
        print("error: " + e)
    if errors:
        sys.exit(1)
    print("ok: %d rows, %d complete, %d runs" % (
        len(rows), len(complete),
        len({(r["program"], r["size_tag"]) for r in rows})))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Join per-configuration kernel features with Nsight Compute kernel times.

  make_dataset.py RAW_DIR [-o OUT.csv] [--sizes SIZES.txt]
                  [--environment ENV.log] [--summary]
                  [--features DIR] [--device NAME] [--ncu-limit N]

RAW_DIR holds what `benchmarks/gpu/session.sh dataset` wrote under data/,
for each program P (benchmarks/gpu/sizes.txt) and size tag T (`small`, the
middle N, `large-1`):

  P-T.features.csv     `warpscope features` of the profile directory of
                       `warpscope run --mode per-launch -- P.inst SIZE`
                       (exact per-launch counts taken on the GPU by the
                       probes; one row per kernel and launch configuration)
  P-T.ncu.csv[.gz]     `ncu --csv --page details --print-units base
                       --print-kernel-base mangled --launch-count 3000
                       --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,
                       smsp__cycles_active.avg P SIZE` of the PLAIN build (one
                       row per launch and metric; the program's own output,
                       with its PASS/FAIL line, comes first)
  P-T.out              the instrumented run's output (PASS/FAIL line)

A gzipped ncu CSV (P-T.ncu.csv.gz) is read like the plain file. The size
table is RAW_DIR/sizes.txt when present, else benchmarks/gpu/sizes.txt; the
device description comes from RAW_DIR/environment.log or
RAW_DIR/../log/environment.log (session.sh's `environment` step).

Writes one CSV (stdout, or -o): a `#` comment block (device, driver, CUDA,
Nsight Compute version, date, clock control, the exact commands, the meaning
of each added column), then a header and one row per (program, size, kernel,
launch configuration):

  program,size_tag,size_arg,size_n,
  <every column of the features CSV, in its order>,
  ncu_launches,time_ns_sum,time_ns_mean,time_ns_median,time_ns_min,
  time_ns_max,sm_cycles_elapsed_max_mean,smsp_cycles_active_avg_mean,
  self_check_plain,self_check_inst,match,complete,note

A configuration is (mangled name, grid x/y/z, block x/y/z): the features'
grid_*/block_* columns against ncu's "Grid Size"/"Block Size". ncu does not
print the dynamic shared memory size, so two features rows that differ only
in shared_bytes cannot be told apart: both get note `ambiguous-shared-bytes`
and no times. The time columns aggregate the launches ncu profiled of that
configuration (ncu_launches). `complete` is 1 only when ncu profiled exactly
as many launches as the features row counts (`launches`); otherwise 0 and
`note` says why (`ncu-stopped-at-N`: ncu's --launch-count limit cut the run
short; `ncu-fewer`/`ncu-more`: the counts differ for another reason;
`no-features`: ncu saw a configuration the features do not have, e.g. the
instrumented run failed before `warpscope features`; `no-ncu-launches`).
Rows with complete=0 keep the statistics of the launches that were
profiled: never sum them as if they were the configuration's whole time.
`match` is `both`, `features-only` or `ncu-only`. self_check_* is PASS, FAIL
or missing (plain: from the ncu CSV; inst: from P-T.out).

A run whose ncu output has no PASS/FAIL line (ncu or the program was cut
short, e.g. by session.sh's step timeout) and fewer launches than a
configuration's features gets note `ncu-cut-short-at-N` (N: the launches ncu
wrote) instead of `ncu-fewer`.

Another GPU's times with the features of an earlier run (`session.sh times`
measures times only; the features are exact counts of the same programs and
sizes, the same on every GPU for the same code): --features DIR reads
P-T.features.csv and P-T.out from DIR instead of RAW_DIR, --device NAME adds
a first column `device` (NAME in every row), --ncu-limit N is the
--launch-count ncu ran with (session.sh dataset: 3000, times: 5000).

--summary prints per-run counts of rows, complete rows and ncu launches to
stderr. Python 3 standard library only.
"""
import argparse
import csv
import io
import os
import re
import statistics
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402

TIME = "gpu__time_duration.sum"
CYCLES = "sm__cycles_elapsed.max"
ACTIVE = "smsp__cycles_active.avg"
NCU_LIMIT = 3000
METRICS = ",".join((TIME, CYCLES, ACTIVE))
MEASURED = ("ncu_launches", "time_ns_sum", "time_ns_mean", "time_ns_median",
            "time_ns_min", "time_ns_max", "sm_cycles_elapsed_max_mean",
            "smsp_cycles_active_avg_mean")
FLAGS = ("self_check_plain", "self_check_inst", "match", "complete", "note")
KEY_COLUMNS = ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z")
PHASE_COMMAND = "(benchmarks/gpu/session.sh dataset; SIZE is `small`, N or `large 1`, " \
    "T the same with the space as '-')"
TIME_SCALE = ncu_csv.TIME_SCALE



def commands(limit, phase):
    return (
        "counts:  warpscope run --mode per-launch -o data/P-T -- "
        "build/benchmarks/P.inst SIZE > data/P-T.out 2>&1 && "
        "warpscope features data/P-T > data/P-T.features.csv",
        "times:   ncu --csv --page details --print-units base "
        "--print-kernel-base mangled --launch-count %d --metrics %s "
        "build/benchmarks/P SIZE > data/P-T.ncu.csv 2> data/P-T.ncu.err"
        % (limit, METRICS),
        phase,
    )


def die(msg):
    sys.exit("make_dataset.py: " + msg)


def read_text(path):
    return ncu_csv.read_text(path)


def read_sizes(path):
    """[(program, [(tag, size_arg, size_n), ...])] in the file's order."""
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) != 4:
            die("%s: expected 'program small N large': %s" % (path, line))
        p, small, mid, large = line
        out.append((p, [("small", "small", small), (mid, mid, mid),
                        ("large-1", "large 1", large)]))
    return out


def read_environment(path):
    """Device facts from session.sh's environment log ({} when absent)."""
    env = {}
    if not path or not os.path.exists(path):
        return env
    lines = read_text(path).splitlines()
    for i, l in enumerate(lines):
        if i == 0 and re.match(r"\d{4}-\d\d-\d\dT", l):
            env["date"] = l.strip()
        if l.startswith("name, driver_version") and i + 1 < len(lines):
            hdr = [h.strip() for h in l.split(",")]
            val = [v.strip() for v in lines[i + 1].split(",")]
            row = dict(zip(hdr, val))
            env["device"] = row.get("name", "")
            env["driver"] = row.get("driver_version", "")
            env["max clocks"] = "SM %s, memory %s" % (
                row.get("clocks.max.sm [MHz]", "?"),
                row.get("clocks.max.memory [MHz]", "?"))
        m = re.search(r"Cuda compilation tools, release ([\d.]+), (V[\d.]+)", l)
        if m:
            env["CUDA"] = "%s (nvcc %s)" % (m.group(1), m.group(2))
        m = re.search(r"CUDA Version: ([\d.]+)", l)
        if m:
            env.setdefault("CUDA driver API", m.group(1))
        m = re.match(r"Version (\S+) \(build (\d+)\)", l.strip())
        if m:
            env["Nsight Compute"] = "%s (build %s)" % (m.group(1), m.group(2))
    return env


def self_check(text):
    verdict = "missing"
    for l in text.splitlines():
        if l.startswith("PASS"):
            verdict = "PASS" if verdict != "FAIL" else "FAIL"
        elif l.startswith("FAIL"):
            verdict = "FAIL"
    return verdict


def dims(s):
    """'(16, 16, 1)' -> ('16', '16', '1')."""
    parts = tuple(p.strip() for p in s.strip().strip("()").split(","))
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        die("bad launch dimension %r" % s)
    return parts


def number(s):
    return ncu_csv.number(s)


def read_ncu(path):
    """(launches, self_check) of an ncu CSV. launches: OrderedDict id ->
    {'key': (mangled, gx, gy, gz, bx, by, bz), TIME: ns, CYCLES:, ACTIVE:}."""
    preamble, hdr, rows = ncu_csv.split(path)
    check = self_check(preamble)
    launches = OrderedDict()
    if not hdr:
        return launches, check
    col = {h: i for i, h in enumerate(hdr)}
    for need in ("ID", "Kernel Name", "Grid Size", "Block Size",
                 "Metric Name", "Metric Unit", "Metric Value"):
        if need not in col:
            die("%s: no column %r" % (path, need))
    for r in rows:
        if len(r) != len(hdr):
            die("%s: row with %d fields: %s" % (path, len(r), r))
        lid = int(r[col["ID"]])
        key = (r[col["Kernel Name"]],) + dims(r[col["Grid Size"]]) + \
            dims(r[col["Block Size"]])
        rec = launches.setdefault(lid, {"key": key})
        if rec["key"] != key:
            die("%s: launch %d has two kernels/configurations" % (path, lid))
        metric, unit = r[col["Metric Name"]], r[col["Metric Unit"]]
        value = number(r[col["Metric Value"]])
        if metric == TIME and value is not None:
            if unit not in TIME_SCALE:
                die("%s: unknown time unit %r" % (path, unit))
            value *= TIME_SCALE[unit]
        if metric in rec:
            die("%s: launch %d has %s twice" % (path, lid, metric))
        rec[metric] = value
    return launches, check


def fmt(x, digits):
    if x is None:
        return ""
    if digits == 0:
        return "%d" % round(x)
    return "%.*f" % (digits, x)


def stats(recs):
    """Measured columns of a list of ncu launch records."""
    times = [r.get(TIME) for r in recs]
    if not recs or any(t is None for t in times):
        return dict.fromkeys(MEASURED[1:], ""), len(recs)

    def mean_of(metric):
        v = [r.get(metric) for r in recs]
        return None if any(x is None for x in v) else sum(v) / len(v)
    return {
        "time_ns_sum": fmt(sum(times), 0),
        "time_ns_mean": fmt(sum(times) / len(times), 3),
        "time_ns_median": fmt(statistics.median(times), 1),
        "time_ns_min": fmt(min(times), 0),
        "time_ns_max": fmt(max(times), 0),
        "sm_cycles_elapsed_max_mean": fmt(mean_of(CYCLES), 3),
        "smsp_cycles_active_avg_mean": fmt(mean_of(ACTIVE), 3),
    }, len(recs)


def find(raw, name):
    for cand in (os.path.join(raw, name), os.path.join(raw, name + ".gz")):
        if os.path.exists(cand):
            return cand
    return None


def join_run(raw, program, tag, size_arg, size_n, feat_header,
             features_dir=None, limit=NCU_LIMIT):
    """Rows (dicts) of one program at one size, plus summary counts."""
    base = "%s-%s" % (program, tag)
    fdir = features_dir or raw
    fpath = find(fdir, base + ".features.csv")
    npath = find(raw, base + ".ncu.csv")
    opath = find(fdir, base + ".out")
    feats = []
    if fpath:
        reader = csv.DictReader(io.StringIO(read_text(fpath)))
        if feat_header[0] is None:
            feat_header[0] = list(reader.fieldnames)
        elif list(reader.fieldnames) != feat_header[0]:
            die("%s: features columns differ from the first file's" % fpath)
        feats = list(reader)
    launches, plain = read_ncu(npath) if npath else (OrderedDict(), "missing")
    inst = self_check(read_text(opath)) if opath else "missing"
    stopped = len(launches) >= limit
    cut = "ncu-cut-short-at-%d" % len(launches) if plain == "missing" and npath else None

    by_key = OrderedDict()
    for lid, rec in launches.items():
        by_key.setdefault(rec["key"], []).append(rec)
    fkeys = {}
    for f in feats:
        k = (f["mangled"],) + tuple(f[c] for c in KEY_COLUMNS)
        fkeys.setdefault(k, []).append(f)

    common = {"program": program, "size_tag": tag, "size_arg": size_arg,
              "size_n": size_n, "self_check_plain": plain,
              "self_check_inst": inst}
    rows = []
    for f in feats:
        k = (f["mangled"],) + tuple(f[c] for c in KEY_COLUMNS)
        row = dict(common)
        row.update(f)
        recs = by_key.get(k, [])
        if len(fkeys[k]) > 1:
            row.update(dict.fromkeys(MEASURED, ""))
            row.update(ncu_launches=str(len(recs)), match="both" if recs
                       else "features-only", complete="0",
                       note="ambiguous-shared-bytes")
            rows.append(row)
            continue
        measured, n = stats(recs)
        row.update(measured)
        row["ncu_launches"] = str(n)
        row["match"] = "both" if recs else "features-only"
        want = int(f["launches"])
        if n == want and measured["time_ns_sum"] != "":
            row["complete"], row["note"] = "1", ""
        else:
            row["complete"] = "0"
            if not recs:
                row["note"] = ("ncu-stopped-at-%d" % limit if stopped
                               else cut or "no-ncu-launches")
            elif n < want:
                row["note"] = ("ncu-stopped-at-%d" % limit if stopped
                               else cut or "ncu-fewer")
            elif n > want:
                row["note"] = "ncu-more"
            else:
                row["note"] = "ncu-value-missing"
        rows.append(row)
    for k, recs in by_key.items():
        if k in fkeys:
            continue
        row = dict(common)
        row.update({c: "" for c in (feat_header[0] or [])})
        row["mangled"] = k[0]
        row.update(zip(KEY_COLUMNS, k[1:]))
        measured, n = stats(recs)
        row.update(measured)
        row.update(ncu_launches=str(n), match="ncu-only", complete="0",
                   note="no-features")
        rows.append(row)
    summary = (base, len(feats), len(rows),
               sum(r["complete"] == "1" for r in rows), len(launches),
               plain, inst, bool(fpath), bool(npath))
    return rows, summary


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw", help="directory of P-T.features.csv, P-T.ncu.csv")
    ap.add_argument("-o", "--output", help="output CSV (default: stdout)")
    ap.add_argument("--sizes", help="size table (default: RAW/sizes.txt, "
                    "else benchmarks/gpu/sizes.txt)")
    ap.add_argument("--environment", help="session.sh environment log "
                    "(default: RAW/environment.log or RAW/../log/environment.log)")
    ap.add_argument("--summary", action="store_true",
                    help="per-run counts on stderr")
    ap.add_argument("--features", help="directory of P-T.features.csv and "
                    "P-T.out (default: RAW)")
    ap.add_argument("--device", help="add a first column `device` with this "
                    "value")
    ap.add_argument("--ncu-limit", type=int, default=NCU_LIMIT,
                    help="ncu's --launch-count (default %d)" % NCU_LIMIT)
    ap.add_argument("--phase-command", default=PHASE_COMMAND,
                    help="the comment block's line naming the session.sh "
                    "phase that ran the commands")
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    sizes = a.sizes or next(
        (p for p in (os.path.join(a.raw, "sizes.txt"),
                     os.path.join(here, "sizes.txt")) if os.path.exists(p)))
    envlog = a.environment or next(
        (p for p in (os.path.join(a.raw, "environment.log"),
                     os.path.join(a.raw, "..", "log", "environment.log"))
         if os.path.exists(p)), None)
    env = read_environment(envlog)

    feat_header = [None]
    rows, summaries = [], []
    for program, runs in read_sizes(sizes):
        for tag, size_arg, size_n in runs:
            r, s = join_run(a.raw, program, tag, size_arg, size_n, feat_header,
                            a.features, a.ncu_limit)
            rows += r
            summaries.append(s)
    if feat_header[0] is None:
        die("no features CSV under %s" % a.raw)
    columns = (["program", "size_tag", "size_arg", "size_n"] + feat_header[0]
               + list(MEASURED) + list(FLAGS))
    if a.device:
        columns.insert(0, "device")
        for r in rows:
            r["device"] = a.device

    out = open(a.output, "w", newline="") if a.output else sys.stdout
    comment = [
        "WarpScope time-prediction dataset: per-configuration kernel features "
        "joined with Nsight Compute kernel times",
        "generated by benchmarks/gpu/make_dataset.py from the raw files of "
        "benchmarks/gpu/session.sh dataset" if not a.features else
        "generated by benchmarks/gpu/make_dataset.py from the ncu CSVs of "
        "benchmarks/gpu/session.sh times (%s) and the features of an earlier "
        "session.sh dataset run (%s)" % (a.raw, a.features),
    ]
    for k in ("device", "driver", "CUDA driver API", "CUDA", "Nsight Compute",
              "max clocks", "date"):
        comment.append("%s: %s" % (k, env.get(k, "unknown")))
    if a.features:
        comment.append("features and self_check_inst from %s (another run "
                       "than the times: see the commands below)" % a.features)
    comment += [
        "clock control: ncu default (--clock-control base: clocks locked to "
        "base for every profiled launch); no flag was given",
        "commands, for each program P and size SIZE:",
    ] + ["  " + c for c in commands(a.ncu_limit, a.phase_command)] + [
        "features: exact per-launch counts of the instrumented build P.inst, "
        "measured on the GPU by the probes (docs/report-schema.md, "
        "`warpscope features`)",
        "times: ncu of the PLAIN build P; configuration = mangled name + "
        "grid + block (ncu prints no dynamic shared memory size)",
        "size_arg: the program's arguments; size_n: the problem size "
        "(benchmarks/gpu/sizes.txt); size_tag large-1 = `large 1`, one "
        "repetition",
        "ncu_launches: launches ncu profiled of this configuration; "
        "time_ns_*: gpu__time_duration.sum over them (ns); "
        "sm_cycles_elapsed_max_mean, smsp_cycles_active_avg_mean: means of "
        "sm__cycles_elapsed.max, smsp__cycles_active.avg (cycles)",
        "complete=1 only when ncu_launches == launches; complete=0 rows keep "
        "statistics of the profiled launches only, note says why",
        "match: both | features-only | ncu-only (no features row: features "
        "columns empty)",
        "self_check_plain / self_check_inst: the PASS/FAIL line of the plain "
        "build (ncu run) and of the instrumented build",
        "rows: %d, complete: %d" % (
            len(rows), sum(r["complete"] == "1" for r in rows)),
    ]
    for c in comment:
        out.write("# " + c + "\n")
    w = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "") for c in columns})
    if a.output:
        out.close()

    if a.summary:
        print("run,features_rows,rows,complete,ncu_launches,plain,inst,"
              "has_features,has_ncu", file=sys.stderr)
        for s in summaries:
            print(",".join(str(x) for x in s), file=sys.stderr)


if __name__ == "__main__":
    main()

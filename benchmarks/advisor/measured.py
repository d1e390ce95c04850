"""evaluate.py --gpu DIR: the advisor's pairs measured on a GPU.

DIR is what a GPU session's `advisor` phase leaves
(benchmarks/gpu/phases15.sh; the 2026-11-27 H200 run is committed in
test/fixtures/gpu/h200/advisor/):

  ncu-pairs.csv        `ncu --csv --page raw --print-units base` over a
                       script that runs every pair's plain before and after
                       program, in rounds (one process per program and
                       round; rows carry Process Name and Process ID)
  <pair>-advice.json   `warpscope advise --format json` of <pair>-inst
  <pair>-inst/         `warpscope run --pc-sampling` of the instrumented
                       before: exact counts and the GPU's CUPTI PC samples

Per pair: the measured speedup is the mean over the rounds of the before
program's kernel time (gpu__time_duration.sum, summed over the launches of
the kernels matching the manifest's regex in the process) over the after
program's; each round's own ratio gives the spread. The estimate and rank
come from the advice JSON (real samples), or with --readvise from running
`warpscope advise` on <pair>-inst again with --build's driver (the note
says whether it matches the stored JSON). With --modeled FILE (the --json
rows of an emulator run of evaluate.py, e.g. with --binaries on the same
programs) the modeled achieved speedup and the estimate from modeled
samples stand beside. Errors are GPA's |estimated - measured| / measured;
the geomeans floor each error at 0.1%, as evaluate.py's.
"""
import json
import os
import re
import shutil
import sys
import tempfile
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gpu"))
import ncu_csv  # noqa: E402  (the one reader of ncu's CSV)
import evaluate  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
import wsrun  # noqa: E402  (the one reader of a run directory)

TIME = "gpu__time_duration.sum"
CSV_NAME = "ncu-pairs.csv"


def kernel_times(csv_path):
    """(device, processes): the device name the CSV gives and an
    OrderedDict (process name, process id) -> [(kernel, ns), ...] of every
    launch, in the file's order. ValueError when the CSV is not a raw page
    with gpu__time_duration.sum and its units."""
    _, units, launches = ncu_csv.raw(csv_path)
    if not launches:
        raise ValueError("%s: no ncu CSV (no launches)" % csv_path)
    if TIME not in launches[0]:
        raise ValueError("%s: no %s column" % (csv_path, TIME))
    if TIME not in units:
        raise ValueError("%s: no units row (ncu --print-units base)" %
                         csv_path)
    device = launches[0].get("device__attribute_display_name") or \
        launches[0].get("Device", "")
    procs = OrderedDict()
    for L in launches:
        for col in ("Process Name", "Process ID", "Kernel Name"):
            if col not in L:
                raise ValueError("%s: no %r column (run ncu with "
                                 "--target-processes all over a script)" %
                                 (csv_path, col))
        value = ncu_csv.number(L[TIME])
        if value is None:
            raise ValueError("%s: launch %s has no %s" %
                             (csv_path, L.get("ID"), TIME))
        ns = ncu_csv.nanoseconds(value, units[TIME], csv_path)
        key = (os.path.basename(L["Process Name"]), L["Process ID"])
        procs.setdefault(key, []).append((L["Kernel Name"], ns))
    return device, procs


def rounds_of(procs, program, kernel_regex):
    """The kernel's time (ns) in each process of `program`, in the file's
    order: one entry per round. A process without a launch of the kernel
    gives None in its place."""
    out = []
    for (name, _), launches in procs.items():
        if name != program:
            continue
        ts = [ns for k, ns in launches if re.search(kernel_regex, k)]
        out.append(sum(ts) if ts else None)
    return out


def measure(row, procs, pair):
    """Puts the pair's measured times and speedup into row."""
    before = rounds_of(procs, pair["name"] + ".before", pair["kernel"])
    after = rounds_of(procs, pair["name"] + ".after", pair["kernel"])
    if not before or not after or None in before or None in after:
        row["measured_missing"] = True
        row["notes"].append("no measured time of '%s' in every process of "
                            "%s.before and .after" %
                            (pair["kernel"], pair["name"]))
        return
    if len(before) != len(after):
        row["measured_missing"] = True
        row["notes"].append("%d rounds of the before program, %d of the "
                            "after" % (len(before), len(after)))
        return
    row["before_ns"] = sum(before) / len(before)
    row["after_ns"] = sum(after) / len(after)
    row["measured"] = row["before_ns"] / row["after_ns"]
    row["rounds"] = [b / a for b, a in zip(before, after)]


def comparable(doc):
    """What a re-run of advise must reproduce: each advice's optimizer,
    kernel and estimate, in rank order (hotspots' source text depends on
    the machine's headers)."""
    return [(a.get("optimizer"), a.get("kernel"),
             round(float(a.get("estimated_speedup", 0)), 9))
            for a in doc.get("advice", [])]


def plain_samples_dir(gpu_dir, name, work):
    """A directory for advise with the instrumented run's counts (profile
    and database) and the plain run's PC samples and cubins (listings and
    line tables): GPA's hybrid mode, samples and instrumentation from
    separate runs, so the probes' cost is not in the samples. None when
    <name>-plain or <name>-inst lacks its part."""
    inst = os.path.join(gpu_dir, name + "-inst")
    plain = os.path.join(gpu_dir, name + "-plain")
    parts = wsrun.paths(inst, wsrun.PROFILE) + wsrun.paths(inst, wsrun.DATABASE)
    samples = sum((wsrun.paths(plain, k) for k in
                   (wsrun.PC_SAMPLES, wsrun.CUBIN, wsrun.SASS_LISTING)), [])
    if not parts or not samples:
        return None
    d = os.path.join(work, name)
    os.makedirs(d)
    for f in parts + samples:
        shutil.copy(f, d)
    return d


def load_advice(gpu_dir, pair, ws=None, samples="inst", work=""):
    """(advice document, notes): the stored <pair>-advice.json, or with ws
    advise re-run on <pair>-inst (samples "inst": noting whether it matches
    the stored) or on its counts with <pair>-plain's samples ("plain")."""
    path = os.path.join(gpu_dir, pair["name"] + "-advice.json")
    stored, notes = None, []
    if os.path.exists(path):
        with open(path) as f:
            stored = json.load(f)
    if not ws:
        if stored is None:
            notes.append("no %s" % os.path.basename(path))
        return stored, notes
    if samples == "plain":
        d = plain_samples_dir(gpu_dir, pair["name"], work)
        if d is None:
            return None, ["no %s-inst counts or %s-plain samples" %
                          (pair["name"], pair["name"])]
    else:
        d = os.path.join(gpu_dir, pair["name"] + "-inst")
    doc, why = evaluate.advise(ws, d)
    if doc is None:
        notes.append(why)
    elif stored is not None and samples != "plain":
        notes.append("re-advised: %s the stored advice" %
                     ("same as" if comparable(doc) == comparable(stored)
                      else "differs from"))
    return doc, notes


def gpu_row(pair, procs, doc, notes, modeled=None):
    """One pair's row: measured speedup, the estimate and rank from the
    real samples' advice, and the modeled row's numbers where given."""
    row = {"name": pair["name"], "kernel": pair["kernel"],
           "optimizer": pair["optimizer"], "notes": list(notes)}
    measure(row, procs, pair)
    if doc is None:
        row["advise_missing"] = True
    else:
        try:
            row["rank"], row["estimated"] = evaluate.rank_of(
                doc, pair["optimizer"], pair["kernel"])
        except ValueError as e:
            row["advise_missing"] = True
            row["notes"].append(str(e))
    if not row.get("advise_missing") and row["rank"] is None:
        missing = evaluate.skipped_for(doc, pair["optimizer"])
        if missing is not None:
            row["inputs_missing"] = True
            row["notes"].append("advise skipped %s: no %s" %
                                (pair["optimizer"], ", ".join(missing)))
        else:
            row["notes"].append("%s not advised" % pair["optimizer"])
    elif row.get("rank") and row["rank"] > evaluate.TOP:
        row["notes"].append("rank %d: not in the top %d" %
                            (row["rank"], evaluate.TOP))
    if row.get("estimated") is not None and row.get("measured"):
        row["error"] = evaluate.relative_error(row["estimated"],
                                               row["measured"])
    if modeled:
        row["modeled_achieved"] = modeled.get("achieved")
        row["modeled_estimated"] = modeled.get("estimated")
        row["modeled_rank"] = modeled.get("rank")
        if row["modeled_estimated"] is not None and row.get("measured"):
            row["modeled_error"] = evaluate.relative_error(
                row["modeled_estimated"], row["measured"])
    return row


def speedup(v):
    return "-" if v is None else "%.3fx" % v


def percent(v):
    return "-" if v is None else "%.1f%%" % (100 * v)


def geomean_line(what, errors):
    g = evaluate.geomean(errors)
    if g is None:
        return "Geomean error of %s: not computed (no pair has both)." % what
    return "Geomean error of %s over %d pairs: %.1f%% (errors floored at " \
           "0.1%%)." % (what, len(errors), 100 * g)


def render(rows, device="", samples="inst"):
    """Markdown: GPA's Table 3 with the measured speedup as achieved, the
    rounds' spread, and the modeled columns where the rows have them;
    samples says which run's real samples the advice read."""
    lines = [
        "| kernel | optimization | before (ns) | after (ns) | measured | "
        "rounds | estimated (real samples) | rank | error | modeled "
        "achieved | estimated (modeled samples) | rank | error | note |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | "
                     "%s | %s | %s | %s |" % (
                         r["kernel"], r["optimizer"],
                         evaluate.fmt(r.get("before_ns"), ".0f"),
                         evaluate.fmt(r.get("after_ns"), ".0f"),
                         speedup(r.get("measured")),
                         ", ".join("%.3f" % x for x in r.get("rounds", [])) or
                         "-",
                         speedup(r.get("estimated")),
                         evaluate.fmt(r.get("rank"), "d"),
                         percent(r.get("error")),
                         speedup(r.get("modeled_achieved")),
                         speedup(r.get("modeled_estimated")),
                         evaluate.fmt(r.get("modeled_rank"), "d"),
                         percent(r.get("modeled_error")),
                         "; ".join(r.get("notes", []))))
    lines += ["", geomean_line(
        "the estimates from real samples vs measured",
        [r["error"] for r in rows if r.get("error") is not None])]
    if any("modeled_error" in r for r in rows):
        lines.append(geomean_line(
            "the estimates from modeled samples vs measured",
            [r["modeled_error"] for r in rows
             if r.get("modeled_error") is not None]))
    lines.append("Measured%s: kernel time (ncu %s), mean over the rounds; "
                 "rounds: each round's before/after. Real samples: %s. "
                 "Modeled columns: the emulator's timing model, not "
                 "measured." %
                 (" on " + device if device else "", TIME,
                  "the plain before's, with the instrumented run's counts"
                  if samples == "plain" else
                  "the instrumented before's (probes included)"))
    return "\n".join(lines) + "\n"


def main(a, pairs):
    """evaluate.py --gpu: prints the table; the exit code as evaluate.py's
    (4 also when a measured time is missing)."""
    csv_path = os.path.join(a.gpu, CSV_NAME)
    try:
        device, procs = kernel_times(csv_path)
    except (OSError, ValueError) as e:
        print("evaluate.py: %s" % e, file=sys.stderr)
        return evaluate.EXIT_USAGE
    modeled = {}
    if a.modeled:
        try:
            with open(a.modeled) as f:
                modeled = {r["name"]: r for r in json.load(f)}
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("evaluate.py: --modeled %s: %s" % (a.modeled, e),
                  file=sys.stderr)
            return evaluate.EXIT_USAGE
    ws = None
    if a.samples == "plain":
        a.readvise = True
    if a.readvise:
        ws = os.path.join(a.build, "bin", "warpscope")
        if not os.path.exists(ws):
            print("evaluate.py: %s not found (--readvise)" % ws,
                  file=sys.stderr)
            return evaluate.EXIT_USAGE
    rows = []
    work = tempfile.mkdtemp(prefix="ws-advisor-gpu-")
    try:
        for p in pairs:
            doc, notes = load_advice(a.gpu, p, ws, a.samples, work)
            rows.append(gpu_row(p, procs, doc, notes,
                                modeled.get(p["name"])))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    evaluate.write_outputs(render(rows, device, a.samples), rows, a)
    return evaluate.exit_code(rows)

#!/usr/bin/env python3
"""The advisor's evaluation (issue 18 item 6): before/after program pairs.

For every pair of manifest.json (pairs/<name>/before.cu and after.cu, which
differ only in the line marked CHANGE): builds the before program with the
WarpScope plugin and both programs without it, runs all three with
`warpscope run --emulate --pc-sampling` (the emulator ignores
--pc-sampling, with a note, until it models samples), checks that the
programs' checksums agree, runs `warpscope advise DIR --format json` on the
instrumented before run and looks for the pair's optimizer in the top 5,
and compares its estimated speedup with the achieved one: the modeled
cycles of the pair's kernel (emu-*.json launches[].modeled.cycles, the
timing model's) before over after, both plain builds. Prints a markdown
table in the shape of GPA's Table 3 (kernel, optimization, original time,
achieved, estimated, error) with the geomean error.

Nothing is made up: a pair whose advice or modeled time is missing says so
in its row, and the exit code says what was missing.

Exit codes: 0 every pair measured and its optimizer in the top 5;
1 a program failed to build or run, or a pair's checksums disagree;
2 bad usage or a bad manifest; 3 `warpscope advise` was not available
or failed for some pair; 4 modeled time was missing for some pair, or
advise skipped a pair's optimizer for lack of an input (e.g. PC samples,
which the timing model is to provide on the emulator);
5 all measured, but some pair's optimizer was not in the top 5;
77 the emulator or the plugin is not built (ctest's skip).
(The lowest nonzero code wins where several apply.)

usage: evaluate.py [--build DIR] [--only NAME,...] [--check-only]
                   [--work DIR] [--table FILE] [--json FILE]
                   [--sampling-period N] [--model-probes] [--binaries DIR]
                   [--no-what-if]
       evaluate.py --gpu DIR [--modeled FILE] [--readvise] [--build DIR]
                   [--samples inst|plain] [--only NAME,...] [--table FILE]
                   [--json FILE]
--binaries DIR runs the programs built there (<pair>.before, .after,
.before.inst: benchmarks/gpu/prepare_carry.sh's) instead of building them.
--gpu DIR reads what a GPU session measured (measured.py): ncu kernel times
of every before and after program and the advice from real PC samples;
the table puts the measured speedup beside the modeled one (--modeled, the
--json of an emulated run) and exit code 4 also means a measured time is
missing.
--model-probes runs with `warpscope run --model-probes`: the timing model
charges the instrumented before run's probe instructions (by default they
are free, so its samples describe the program; docs/timing-model.md).
--check-only builds and runs the plain programs only and compares their
checksums (the quick ctest).
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "tools"))
import wsrun  # noqa: E402  (the run directory's one reader)
ADVICE_SCHEMA = "warpscope-advice/1"
TOP = 5

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_NO_ADVISE, EXIT_NO_MODELED, EXIT_NOT_IN_TOP = 3, 4, 5
EXIT_SKIP = 77


class PairError(Exception):
    """A pair that could not be built, run or compared (exit 1)."""


def load_manifest(path):
    """The manifest's pairs; ValueError names what is wrong."""
    with open(path) as f:
        m = json.load(f)
    if m.get("schema") != "warpscope-advisor-pairs/1":
        raise ValueError("%s: schema is not warpscope-advisor-pairs/1" % path)
    pairs = m.get("pairs")
    if not isinstance(pairs, list) or not pairs:
        raise ValueError("%s: no 'pairs' list" % path)
    names = set()
    for p in pairs:
        for key in ("name", "optimizer", "kernel", "tolerance"):
            if key not in p:
                raise ValueError("%s: a pair has no '%s'" % (path, key))
        if p["name"] in names:
            raise ValueError("%s: pair '%s' twice" % (path, p["name"]))
        names.add(p["name"])
    return pairs


def parse_checksum(stdout):
    """The checksum a pair program prints, or None without PASS."""
    m = re.search(r"^checksum (\S+)$", stdout, re.M)
    if not m or not re.search(r"^PASS$", stdout, re.M):
        return None
    return float(m.group(1))


def checksums_agree(a, b, tolerance):
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-30)


def modeled_cycles(out_dir, kernel_regex):
    """Sum of launches[].modeled.cycles over the launches of kernels
    matching kernel_regex in out_dir's emu-*.json; (None, why) when the
    ground truth or its modeled time is missing."""
    docs = wsrun.truth(out_dir)
    if not docs:
        return None, "no emu-*.json (not an emulated run)"
    total, launches = 0, 0
    for _, truth in docs:
        for launch in truth.get("launches", []):
            if not re.search(kernel_regex, launch.get("kernel", "")):
                continue
            launches += 1
            modeled = launch.get("modeled")
            if not isinstance(modeled, dict) or "cycles" not in modeled:
                return None, "modeled time not available (launches[].modeled " \
                             "absent: the emulator has no timing model yet)"
            total += modeled["cycles"]
    if not launches:
        return None, "no launch of a kernel matching '%s'" % kernel_regex
    return total, ""


def rank_of(advice_doc, optimizer, kernel_regex):
    """(1-based rank of the first advice of `optimizer` for a kernel
    matching kernel_regex, its estimated speedup); (None, None) when
    absent. Raises ValueError on a document of another schema."""
    if not isinstance(advice_doc, dict) or \
            advice_doc.get("schema") != ADVICE_SCHEMA:
        raise ValueError("advice is not %s" % ADVICE_SCHEMA)
    advice = advice_doc.get("advice")
    if not isinstance(advice, list):
        raise ValueError("advice has no 'advice' list")
    for i, a in enumerate(advice):
        if not re.search(kernel_regex, a.get("kernel", "")):
            continue
        if a.get("optimizer") == optimizer:
            return i + 1, float(a["estimated_speedup"])
        # An optimizer folded into another's item (the same cause on a
        # shared line): that item's rank, the folded optimizer's estimate.
        for f in a.get("also_found_by", []):
            if f.get("optimizer") == optimizer:
                return i + 1, float(f["estimated_speedup"])
    return None, None


def estimate_kind_of(advice_doc, optimizer, kernel_regex):
    """How the estimate rank_of finds was made: "re-simulated" (the timing
    model ran the change, `advise --what-if`) or "formula"; None when
    absent. A folded optimizer's estimate is its own formula's."""
    for a in advice_doc.get("advice", []):
        if not re.search(kernel_regex, a.get("kernel", "")):
            continue
        if a.get("optimizer") == optimizer:
            return a.get("estimate_kind", "formula")
        if any(f.get("optimizer") == optimizer
               for f in a.get("also_found_by", [])):
            return "formula"
    return None


def times_off(estimated, achieved):
    """How many times the estimate is off the achieved speedup, >= 1
    (the target: at most 1.5)."""
    return max(estimated / achieved, achieved / estimated)


def skipped_for(advice_doc, optimizer):
    """The inputs `warpscope advise` said `optimizer` lacked (its
    'skipped' list), or None when it ran."""
    for s in advice_doc.get("skipped", []) or []:
        if s.get("optimizer") == optimizer:
            return list(s.get("missing", []))
    return None


def relative_error(estimated, achieved):
    """GPA's error: |estimated - achieved| / achieved."""
    return abs(estimated - achieved) / achieved


def geomean(values, floor=1e-3):
    """Geometric mean; each value floored at `floor` so a zero error does
    not zero the mean (said in the table)."""
    if not values:
        return None
    return math.exp(sum(math.log(max(v, floor)) for v in values) / len(values))


def exit_code(rows):
    """The exit code for the rows' statuses (the lowest nonzero wins)."""
    codes = set()
    for r in rows:
        if r.get("failed"):
            codes.add(EXIT_FAILED)
        if r.get("advise_missing"):
            codes.add(EXIT_NO_ADVISE)
        if r.get("modeled_missing") or r.get("inputs_missing") or \
                r.get("measured_missing"):
            codes.add(EXIT_NO_MODELED)
        if r.get("rank") is None and not r.get("advise_missing") and \
                not r.get("inputs_missing") and not r.get("failed") and \
                not r.get("check_only"):
            codes.add(EXIT_NOT_IN_TOP)
        if r.get("rank") is not None and r["rank"] > TOP:
            codes.add(EXIT_NOT_IN_TOP)
    return min(codes) if codes else EXIT_OK


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def render_table(rows, probes="free"):
    """Markdown in the shape of GPA's Table 3, plus the advice's rank, how
    the estimate was made (formula or re-simulated), how many times it is
    off the achieved speedup, and a note per row where something was
    missing; then the estimate error per optimizer kind. `probes` says how
    the model treated the instrumented runs' probe instructions."""
    lines = [
        "| kernel | optimization | original time (modeled cycles) | "
        "achieved | estimated | error | rank | estimate | off | note |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---|"]
    errors = []
    for r in rows:
        if r.get("error") is not None:
            errors.append(r["error"])
        off = None
        if r.get("estimated") and r.get("achieved"):
            off = times_off(r["estimated"], r["achieved"])
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["optimizer"], fmt(r.get("original"), ".0f"),
            fmt(r.get("achieved"), ".3f") + ("x" if r.get("achieved") else ""),
            fmt(r.get("estimated"), ".3f") + ("x" if r.get("estimated") else ""),
            fmt(None if r.get("error") is None else 100 * r["error"], ".1f") +
            ("%" if r.get("error") is not None else ""),
            fmt(r.get("rank"), "d"), r.get("estimate_kind") or "-",
            fmt(off, ".2f"), "; ".join(r.get("notes", []))))
    g = geomean(errors)
    lines.append("")
    if g is None:
        lines.append("Geomean error: not computed (no pair has both an "
                     "estimate and a modeled achieved speedup).")
        return "\n".join(lines) + "\n"
    offs = [times_off(r["estimated"], r["achieved"]) for r in rows
            if r.get("estimated") and r.get("achieved")]
    top = sum(1 for r in rows if r.get("rank") is not None and r["rank"] <= TOP)
    lines.append("Geomean error over %d pairs: %.1f%% (errors floored at "
                 "0.1%%). In the top %d: %d of %d pairs. Largest factor off "
                 "the achieved speedup: %.2f; more than 1.5x off: %d. Advice "
                 "from the instrumented runs with probe instructions %s. "
                 "Times are modeled (timing model), not measured." % (
                     len(errors), 100 * g, TOP, top, len(rows), max(offs),
                     sum(1 for o in offs if o > 1.5), probes))
    lines += ["", "| optimization | pairs | estimated | geomean error | "
              "largest error |", "|---|---:|---:|---:|---:|"]
    kinds = {}
    for r in rows:
        kinds.setdefault(r["optimizer"], []).append(r)
    for k in sorted(kinds):
        errs = [r["error"] for r in kinds[k] if r.get("error") is not None]
        lines.append("| %s | %d | %d | %s | %s |" % (
            k, len(kinds[k]), len(errs),
            fmt(None if not errs else 100 * geomean(errs), ".1f") +
            ("%" if errs else ""),
            fmt(None if not errs else 100 * max(errs), ".1f") +
            ("%" if errs else "")))
    return "\n".join(lines) + "\n"


def write_outputs(table, rows, args):
    """Prints the table; writes it to --table and the rows to --json."""
    sys.stdout.write(table)
    if args.table:
        with open(args.table, "w") as f:
            f.write(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True,
                          text=True)


def warpscope_config(ws, *flags):
    r = run([ws, "config"] + list(flags))
    if r.returncode != 0:
        raise PairError("warpscope config %s failed: %s" %
                        (" ".join(flags), r.stderr.strip()))
    return r.stdout.split()


def build(ws, src, exe, instrumented):
    cflags = warpscope_config(ws, "--cflags") if instrumented else \
        warpscope_config(ws, "--cflags", "--no-instrument")
    cmd = ["clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_90",
           "-Wno-unknown-cuda-version", "-O2", "-gline-tables-only"] + \
        cflags + [src] + warpscope_config(ws, "--ldflags") + ["-o", exe]
    r = run(cmd)
    if r.returncode != 0:
        raise PairError("cannot build %s: %s" % (src, r.stderr.strip()[-400:]))


def emulate(ws, exe, out_dir, period=None, model_probes=False):
    """Runs exe under `warpscope run --emulate`; its checksum."""
    extra = ["--sampling-period", str(period)] if period else []
    if model_probes:
        extra.append("--model-probes")
    # --force: a --work directory may hold an earlier evaluation's runs.
    r = run([ws, "run", "--emulate", "--pc-sampling", "--force"] + extra +
            ["-o", out_dir, "--", exe],
            env=dict(os.environ, WARPSCOPE_QUIET="1"))
    checksum = parse_checksum(r.stdout)
    if r.returncode != 0 or checksum is None:
        raise PairError("%s failed under the emulator (exit %d): %s%s" % (
            exe, r.returncode, r.stdout[-300:], r.stderr[-300:]))
    return checksum


def advise(ws, out_dir, what_if=True):
    """The advice JSON, or (None, why) when the command is missing or
    fails. what_if: `--what-if` (changes that are launch or machine
    parameters re-simulated; the recorded program runs again)."""
    r = run([ws, "advise", out_dir, "--format", "json"] +
            (["--what-if"] if what_if else []))
    if r.returncode != 0:
        why = r.stderr.strip().splitlines()
        return None, "warpscope advise not available or failed: %s" % (
            why[-1] if why else "exit %d" % r.returncode)
    try:
        return json.loads(r.stdout), ""
    except ValueError as e:
        return None, "warpscope advise printed no JSON (%s)" % e


def evaluate_pair(ws, pair, work, check_only, period=None, model_probes=False,
                  binaries="", what_if=True):
    """One pair's row; with `binaries`, the programs built there
    (<name>.before, .after, .before.inst: benchmarks/gpu/prepare_carry.sh's
    copies, the very binaries a GPU session ran) instead of new builds."""
    row = {"kernel": pair["kernel"], "optimizer": pair["optimizer"],
           "name": pair["name"], "notes": [], "check_only": check_only}
    src = os.path.join(HERE, "pairs", pair["name"])
    d = os.path.join(work, pair["name"])
    os.makedirs(d, exist_ok=True)
    try:
        sums, outs = {}, {}
        variants = [("before", False), ("after", False)]
        if not check_only:
            variants.append(("before", True))
        for which, inst in variants:
            tag = which + (".inst" if inst else "")
            if binaries:
                exe = os.path.join(binaries, pair["name"] + "." + tag)
                if not os.path.exists(exe):
                    raise PairError("%s not found" % exe)
            else:
                exe = os.path.join(d, tag)
                build(ws, os.path.join(src, which + ".cu"), exe, inst)
            outs[tag] = os.path.join(d, "out-" + tag)
            sums[tag] = emulate(ws, exe, outs[tag], period, model_probes)
        for tag, s in sums.items():
            if not checksums_agree(sums["before"], s, pair["tolerance"]):
                raise PairError("checksums disagree: before %r, %s %r" %
                                (sums["before"], tag, s))
    except PairError as e:
        row["failed"] = True
        row["notes"].append(str(e))
        return row
    if check_only:
        row["notes"].append("before and after agree (checksum %.9e)" %
                            sums["before"])
        return row
    before, why_b = modeled_cycles(outs["before"], pair["kernel"])
    after, why_a = modeled_cycles(outs["after"], pair["kernel"])
    if before is None or after is None:
        row["modeled_missing"] = True
        row["notes"].append(why_b or why_a)
    else:
        row["original"] = before
        row["achieved"] = before / after if after else None
    doc, why = advise(ws, outs["before.inst"], what_if)
    if doc is None:
        row["advise_missing"] = True
        row["notes"].append(why)
        return row
    try:
        row["rank"], row["estimated"] = rank_of(doc, pair["optimizer"],
                                                pair["kernel"])
        row["estimate_kind"] = estimate_kind_of(doc, pair["optimizer"],
                                                pair["kernel"])
    except ValueError as e:
        row["advise_missing"] = True
        row["notes"].append(str(e))
        return row
    missing = skipped_for(doc, pair["optimizer"])
    if row["rank"] is None and missing is not None:
        row["inputs_missing"] = True
        row["notes"].append("advise skipped %s: no %s" %
                            (pair["optimizer"], ", ".join(missing)))
    elif row["rank"] is None:
        row["notes"].append("%s not advised" % pair["optimizer"])
    elif row["rank"] > TOP:
        row["notes"].append("rank %d: not in the top %d" % (row["rank"], TOP))
    if row.get("estimated") is not None and row.get("achieved"):
        row["error"] = relative_error(row["estimated"], row["achieved"])
    return row


def selected_pairs(a):
    """The manifest's pairs, those --only names where given; None (said on
    stderr) for a bad manifest or an unknown name."""
    try:
        pairs = load_manifest(a.manifest)
    except (OSError, ValueError) as e:
        print("evaluate.py: %s" % e, file=sys.stderr)
        return None
    if a.only:
        wanted = a.only.split(",")
        unknown = [w for w in wanted if w not in {p["name"] for p in pairs}]
        if unknown:
            print("evaluate.py: no pair named %s in %s" %
                  (", ".join(unknown), a.manifest), file=sys.stderr)
            return None
        pairs = [p for p in pairs if p["name"] in wanted]
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--only", default="")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--work", default="")
    ap.add_argument("--table", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--sampling-period", type=int, default=None,
                    help="modeled PC sampling period exponent (5..31; "
                    "warpscope run's default, 9, when not given)")
    ap.add_argument("--model-probes", action="store_true",
                    help="charge the probes' instructions in the timing "
                    "model (warpscope run --model-probes)")
    ap.add_argument("--no-what-if", action="store_true",
                    help="advise without --what-if: every estimate by "
                    "formula, none re-simulated")
    ap.add_argument("--binaries", default="",
                    help="run the programs built in DIR (<pair>.before, "
                    ".after, .before.inst) instead of building them")
    ap.add_argument("--gpu", default="",
                    help="tabulate a GPU session's advisor directory "
                    "(measured.py) instead of running the emulator")
    ap.add_argument("--modeled", default="",
                    help="with --gpu: the --json rows of an emulated run, "
                    "shown beside the measured speedups")
    ap.add_argument("--readvise", action="store_true",
                    help="with --gpu: run --build's warpscope advise on "
                    "DIR/<pair>-inst again instead of reading "
                    "<pair>-advice.json")
    ap.add_argument("--samples", choices=("inst", "plain"), default="inst",
                    help="with --gpu --readvise: the PC samples of the "
                    "instrumented run (<pair>-inst, as stored) or of the "
                    "plain one (<pair>-plain) with the instrumented run's "
                    "counts; plain implies --readvise")
    a = ap.parse_args()
    if (a.modeled or a.readvise or a.samples != "inst") and not a.gpu:
        print("evaluate.py: --modeled, --readvise and --samples need --gpu",
              file=sys.stderr)
        return EXIT_USAGE
    if a.gpu:
        pairs = selected_pairs(a)
        if pairs is None:
            return EXIT_USAGE
        import measured
        return measured.main(a, pairs)
    ws = os.path.join(a.build, "bin", "warpscope")
    if not os.path.exists(ws):
        print("evaluate.py: %s not found; build WarpScope first (make build)"
              % ws, file=sys.stderr)
        return EXIT_USAGE
    needs = ["lib/emu/libcudart.so.13"]
    if not a.binaries:
        needs.append("lib/libWarpScope.so")
    for need in needs:
        if not os.path.exists(os.path.join(a.build, need)):
            print("evaluate.py: %s not built; skipping" % need,
                  file=sys.stderr)
            return EXIT_SKIP
    pairs = selected_pairs(a)
    if pairs is None:
        return EXIT_USAGE
    work = a.work or tempfile.mkdtemp(prefix="ws-advisor-")
    rows = []
    for p in pairs:
        print("pair %s ..." % p["name"], file=sys.stderr, flush=True)
        rows.append(evaluate_pair(ws, p, work, a.check_only,
                                  a.sampling_period, a.model_probes,
                                  os.path.abspath(a.binaries) if a.binaries
                                  else "", not a.no_what_if))
    write_outputs(render_table(rows, "modeled" if a.model_probes else "free"),
                  rows, a)
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return exit_code(rows)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The emulator's timing model against Nsight Compute on a GPU (issue 34):
modeled vs measured time, stall mix and memory counts, per kernel.

  model_compare.py run --build DIR -o MODELED_DIR RUN...
      runs, for each RUN = P-S (S: `small` or a size N), as a user would:
        warpscope run --emulate --mode per-launch --pc-sampling
          --sampling-period 5 -o MODELED_DIR/P-S -- DIR/benchmarks/P S
      (DIR: a build tree with bin/warpscope, lib/emu and benchmarks/; the
      timing model's configuration is warpscope's default, h100-sxm, unless
      --model-config is given). Keeps emu-*.json and pcsamples-*.json.
  model_compare.py join NCU_DIR MODELED_DIR [--configs OUT.csv]
                   [--kernels OUT.csv] [--markdown OUT.md] [--check]
                   [--times DATASET.csv [--times-pairs OUT.csv]]
      NCU_DIR: the raw-page CSVs of `session.sh model` (model_truth.py reads
      them); MODELED_DIR: what `run` wrote. Only runs present in both are
      joined; a run in one only is listed as unpaired.

Pairing: launch k of configuration C (mangled kernel, grid, block, dynamic
shared bytes) in ncu's order is paired with launch k of C in the ground
truth's `launches[]` (the order the program launched them). ncu stops at its
--launch-count, so a configuration is `complete` only when ncu profiled as
many launches of it as the emulator ran. Every ncu launch must find its
modeled partner: one that does not is an error (--check exits 1 on it, and
on any kernel present on one side only).

--configs: one row per configuration: paired launches, medians per launch
of measured time (ns) and cycles (sm__cycles_elapsed.max) and of modeled
cycles and microseconds (ground truth `launches[].modeled`, at the model
configuration's clock), and modeled/measured ratios of both.
--kernels: one row per kernel: sums over its paired launches; the stall mix
(measured: WarpStateStats shares of model_truth.py over the profiled
launches; modeled: the modeled PC samples' reasons, `_not_issued` twins
left out, over the whole run) and exact memory counts (ours: the ground
truth's per-instruction counts of the kernel's function and of the device
functions it alone can call, over every launch of the run; ncu's: the sum
over its profiled launches, compared only when ncu profiled every launch of
the kernel), L2 hit rate and DRAM bytes (measured only: the model writes no
per-launch cache or DRAM figures). --markdown: the tables of the results
page and the summary statistics (n, median APE, geomean modeled/measured,
share within +-30%, Spearman's rho). --times: a time-prediction dataset
(make_dataset.py; `session.sh times` profiles every launch) whose complete
small and middle-size rows are paired by configuration with the modeled runs
(median modeled microseconds per launch of the configuration vs the row's
median ns) for a second summary; --times-pairs writes those pairs. Python 3
standard library only.
"""
import argparse
import csv
import glob
import math
import os
import shutil
import statistics
import subprocess
import sys
from collections import OrderedDict, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402
import model_truth  # noqa: E402
from make_dataset import self_check  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "tools"))
import wsrun  # noqa: E402  (the run directory's one reader)

PCS_PREFIX = "smsp__pcsamp_warps_issue_stalled_"
# The modeled samples' reason names that differ from WarpStateStats'.
PCS_RENAME = {"no_instructions": "no_instruction"}
# ours (ground truth field, instruction kind) vs ncu raw metric.
COUNTS = (
    ("gld_requests", "global_requests", "ld", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("gld_sectors", "global_sectors", "ld", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gst_requests", "global_requests", "st", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("gst_sectors", "global_sectors", "st", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("gatomred_requests", "global_requests", "atom", None),
    ("shared_ld_wavefronts", "shared_wavefronts", "ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("shared_st_wavefronts", "shared_wavefronts", "st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("shared_ld_conflicts", "shared_conflicts", "ld", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("shared_st_conflicts", "shared_conflicts", "st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
)
ATOMRED = ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum")


def die(msg):
    sys.exit("model_compare.py: " + msg)


# ---------------------------------------------------------------- run

def run(a):
    ws = os.path.join(a.build, "bin", "warpscope")
    for spec in a.runs:
        program, _, size = spec.rpartition("-")
        if not program:
            die("run %r is not P-S" % spec)
        exe = os.path.join(a.build, "benchmarks", program)
        out = os.path.join(a.output, spec)
        shutil.rmtree(out, ignore_errors=True)
        cmd = [ws, "run", "--emulate", "--mode", "per-launch", "--pc-sampling",
               "--sampling-period", str(a.sampling_period), "-o", out]
        if a.model_config:
            cmd += ["--model-config", a.model_config]
        cmd += ["--", exe, size]
        r = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(a.output, spec + ".out"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        wsrun.keep_only(out, wsrun.TRUTH, wsrun.PC_SAMPLES)
        print("%s: rc=%d %s" % (spec, r.returncode, self_check(r.stdout)))


# ---------------------------------------------------------------- reading

def read(path):
    with open(path) as f:
        return f.read()


def config_key(kernel, grid, block, shared):
    return (kernel, tuple(int(x) for x in grid), tuple(int(x) for x in block), int(shared))


def read_modeled(d):
    """(launches, functions, samples, check): launches [(key, modeled dict)]
    in launch order per module; functions {name: (is_kernel, instructions)};
    samples {function: {reason: n}}."""
    launches, functions = [], {}
    docs = wsrun.truth(d)
    if not docs:
        die("%s: no emu-*.json" % d)
    for path, j in docs:
        for l in j["launches"]:
            if "modeled" not in l:
                die("%s: a launch of %s has no modeled time" % (path, l["kernel"]))
            launches.append((config_key(l["kernel"], l["grid"], l["block"],
                                        l.get("shared_bytes", 0)), l["modeled"]))
        for f in j["functions"]:
            if f["name"] in functions:
                die("%s: function %s in two modules" % (path, f["name"]))
            functions[f["name"]] = (f["kernel"], f["instructions"])
    samples = defaultdict(lambda: defaultdict(int))
    for _, pc in wsrun.pc_samples(d):
        for name, n in pc["stalls"].items():
            if not name.startswith(PCS_PREFIX) or name.endswith("_not_issued"):
                continue
            r = name[len(PCS_PREFIX):]
            samples[pc["function"]][PCS_RENAME.get(r, r)] += n
    out = d + ".out"
    check = self_check(read(out)) if os.path.exists(out) else "missing"
    return launches, functions, samples, check


def kind(opcode):
    head = opcode.split(".")[0]
    if head in ("ld", "ldu"):
        return "ld"
    if head == "st":
        return "st"
    if head in ("atom", "red"):
        return "atom"
    return None


def our_counts(functions, kernel):
    """{count name: exact sum} of a kernel's function plus the device
    functions (non-kernels) when it is the module's only kernel; None when
    device functions exist that cannot be attributed."""
    names = [kernel]
    others = [n for n, (k, _) in functions.items() if not k]
    kernels = [n for n, (k, _) in functions.items() if k]
    if others:
        if kernels != [kernel]:
            return None
        names += others
    c = dict.fromkeys((n for n, _, _, _ in COUNTS), 0)
    for n in names:
        for ins in functions[n][1]:
            k = kind(ins["opcode"])
            if not k:
                continue
            for name, field, want, _ in COUNTS:
                if want != k:
                    continue
                if field == "shared_conflicts":
                    c[name] += ins.get("shared_wavefronts", 0) - ins.get("shared_ideal_wavefronts", 0)
                else:
                    c[name] += ins.get(field, 0)
    return c


# ---------------------------------------------------------------- statistics

def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else None


def theil_sen(xs, ys, min_dx=0.0):
    """(slope, intercept) of the Theil-Sen line through the points, over
    the pairs whose x differ (by at least min_dx when it is given)."""
    sl = [(ys[j] - ys[i]) / (xs[j] - xs[i]) for i in range(len(xs))
          for j in range(i + 1, len(xs))
          if xs[j] != xs[i] and abs(xs[j] - xs[i]) >= min_dx]
    s = statistics.median(sl)
    return s, statistics.median(y - s * x for x, y in zip(xs, ys))


def fixed_cost(rows):
    """Median of measured - modeled cycles per launch configuration: the
    per-launch cycles the model leaves out if its slope were right."""
    return statistics.median(float(r["measured_cycles_median"]) -
                             float(r["modeled_cycles_median"]) for r in rows)


def what_if(rows):
    """(modeled time, measured time) pairs with each configuration's
    modeled cycles plus a fixed cost, at a clock, both fitted on the other
    programs' rows (leave one program out): the median of measured -
    modeled cycles and of measured cycles per ns."""
    pairs = []
    for r in rows:
        others = [x for x in rows if x["program"] != r["program"]]
        clock = statistics.median(float(x["measured_cycles_per_ns"]) for x in others)
        c = float(r["modeled_cycles_median"]) + fixed_cost(others)
        pairs.append((c / clock, float(r["measured_time_ns_median"])))
    return pairs


def summary(pairs):
    """pairs: [(modeled, measured)], all > 0 -> dict of the statistics."""
    if not pairs:
        return None
    ape = [abs(m - t) / t for m, t in pairs]
    ratio = [m / t for m, t in pairs]
    return {"n": len(pairs),
            "median_ape": statistics.median(ape),
            "geomean": math.exp(statistics.mean(math.log(r) for r in ratio)),
            "within30": sum(abs(r - 1) <= 0.30 for r in ratio) / len(ratio),
            "spearman": spearman([m for m, _ in pairs], [t for _, t in pairs]),
            "ratio_min": min(ratio), "ratio_max": max(ratio)}


# ---------------------------------------------------------------- join

def ncu_launches(path):
    """[(key, launch dict)] in ncu's order, check."""
    preamble, units, launches = ncu_csv.raw(path)
    scale = ncu_csv.TIME_SCALE[units.get("gpu__time_duration.sum", "ns")]
    out = []
    for l in launches:
        g = model_truth.dims(l["Grid Size"])
        b = model_truth.dims(l["Block Size"])
        sh = ncu_csv.number(l["launch__shared_mem_per_block_dynamic"])
        l = dict(l)
        l["_time_ns"] = ncu_csv.number(l["gpu__time_duration.sum"]) * scale
        l["_cycles"] = ncu_csv.number(l["sm__cycles_elapsed.max"])
        out.append((config_key(l["Kernel Name"], g, b, sh), l))
    return out, self_check(preamble)


def join_run(program, size, ncu_path, mdir, errors):
    """(config rows, kernel rows) of one run."""
    measured, check = ncu_launches(ncu_path)
    modeled, functions, samples, mcheck = read_modeled(mdir)
    mby = defaultdict(list)
    for key, m in modeled:
        mby[key].append(m)
    nby = OrderedDict()
    for key, l in measured:
        nby.setdefault(key, []).append(l)
    for key, ls in nby.items():
        if len(ls) > len(mby.get(key, [])):
            errors.append("%s-%s: %s grid %s block %s: ncu profiled %d launches, "
                          "the emulator ran %d" % (program, size, key[0], key[1], key[2],
                                                    len(ls), len(mby.get(key, []))))
    nk = OrderedDict((k[0], None) for k in nby)
    mk = OrderedDict((k[0], None) for k, _ in modeled)
    run_stopped = len(measured) < len(modeled)
    for k in mk:
        if k not in nk and not run_stopped:
            errors.append("%s-%s: kernel %s modeled but never measured" % (program, size, k))
    for k in nk:
        if k not in mk:
            errors.append("%s-%s: kernel %s measured but never modeled" % (program, size, k))

    crow = []
    for key, ls in nby.items():
        ms = mby.get(key, [])[:len(ls)]
        if not ms:
            continue
        n = len(ms)
        ls = ls[:n]
        t = statistics.median(l["_time_ns"] for l in ls)
        c = statistics.median(l["_cycles"] for l in ls)
        mc = statistics.median(m["cycles"] for m in ms)
        mu = statistics.median(m["microseconds"] for m in ms)
        crow.append(OrderedDict(
            program=program, size_tag=size, kernel=key[0],
            grid="x".join(map(str, key[1])), block="x".join(map(str, key[2])),
            shared_dynamic_bytes=key[3], paired=n, modeled_launches=len(mby[key]),
            complete=int(n == len(mby[key])),
            measured_time_ns_median="%.1f" % t, measured_cycles_median="%.1f" % c,
            measured_cycles_per_ns="%.4f" % (sum(l["_cycles"] for l in ls) /
                                             sum(l["_time_ns"] for l in ls)),
            modeled_cycles_median="%.1f" % mc, modeled_us_median="%.4f" % mu,
            ratio_time="%.4f" % (mu * 1e3 / t), ratio_cycles="%.4f" % (mc / c),
            model_config=ms[0].get("config", ""),
            sms_simulated=max(m.get("sms_simulated", 0) for m in ms),
            scaled=int(any(m.get("scaled") for m in ms)),
            _t=[l["_time_ns"] for l in ls], _c=[l["_cycles"] for l in ls],
            _mc=[m["cycles"] for m in ms], _mu=[m["microseconds"] for m in ms],
            _mi=[m.get("instructions") for m in ms],
            _ni=[ncu_csv.number(l["smsp__inst_executed.sum"]) for l in ls]))

    krow = []
    for kernel in nk:
        if kernel not in mk:
            continue
        ls = [l for key, l in measured if key[0] == kernel]
        mlaunch = [m for key, m in modeled if key[0] == kernel]
        rows = [r for r in crow if r["kernel"] == kernel]
        n = sum(r["paired"] for r in rows)
        complete = len(ls) == len(mlaunch)
        r = OrderedDict(program=program, size_tag=size, kernel=kernel,
                        ncu_launches=len(ls), modeled_launches=len(mlaunch),
                        complete=int(complete), paired=n)
        t = sum(sum(x["_t"]) for x in rows)
        c = sum(sum(x["_c"]) for x in rows)
        mc = sum(sum(x["_mc"]) for x in rows)
        mu = sum(sum(x["_mu"]) for x in rows)
        r.update(measured_time_ns_sum="%d" % round(t), measured_cycles_sum="%d" % round(c),
                 modeled_cycles_sum="%d" % mc, modeled_us_sum="%.3f" % mu,
                 ratio_time="%.4f" % (mu * 1e3 / t), ratio_cycles="%.4f" % (mc / c))
        # SASS warp instructions: measured against what the model charged
        # (a profile from before the model wrote them has none).
        mi = [i for x in rows for i in x["_mi"]]
        ni = sum(sum(x["_ni"]) for x in rows)
        known = mi and None not in mi
        r.update(measured_inst="%d" % ni, modeled_inst="%d" % sum(mi) if known else "",
                 ratio_inst="%.4f" % (sum(mi) / ni) if known and ni else "")
        # Stall mix: measured over the profiled launches (model_truth's
        # weighting), modeled over every sample of the function.
        w = [ncu_csv.number(l["smsp__inst_executed.sum"]) for l in ls]
        cyc = {s: sum(ncu_csv.number(l[model_truth.STALL_METRIC % s]) * x
                      for l, x in zip(ls, w)) for s in model_truth.STALLS}
        tot = sum(cyc.values())
        smp = samples.get(kernel, {})
        stot = sum(smp.values())
        r["modeled_samples"] = stot
        for s in model_truth.STALLS:
            r["measured_%s" % s] = "%.4f" % (cyc[s] / tot) if tot else ""
            r["modeled_%s" % s] = "%.4f" % (smp.get(s, 0) / stot) if stot else ""
        extra = sorted(set(smp) - set(model_truth.STALLS))
        if extra:
            errors.append("%s-%s: modeled reasons without a WarpStateStats twin: %s"
                          % (program, size, extra))
        # Exact memory counts.
        ours = our_counts(functions, kernel)
        for name, _, _, metric in COUNTS:
            if metric is None:
                theirs = sum(ncu_csv.number(l[m]) for l in ls for m in ATOMRED)
            else:
                theirs = sum(ncu_csv.number(l[metric]) for l in ls)
            r["ours_" + name] = "" if ours is None else ours[name]
            r["ncu_" + name] = "%d" % theirs if complete else ""
        # Measured memory figures, the model has none.
        l2s = sum(ncu_csv.number(l["lts__t_sectors.sum"]) for l in ls)
        l2h = sum(ncu_csv.number(l["lts__t_sector_hit_rate.pct"]) *
                  ncu_csv.number(l["lts__t_sectors.sum"]) for l in ls)
        r["measured_l2_hit_pct"] = "%.2f" % (l2h / l2s) if l2s else ""
        r["measured_l2_sectors"] = "%d" % l2s
        r["measured_dram_bytes"] = "%d" % sum(
            ncu_csv.number(l["dram__bytes_read.sum"]) + ncu_csv.number(l["dram__bytes_write.sum"])
            for l in ls)
        r["ncu_self_check"], r["emu_self_check"] = check, mcheck
        krow.append(r)
    return crow, krow


def times_pairs(dataset, modeled_dir):
    """Rows pairing a dataset's complete small/middle configurations with
    the modeled launches of the same run and configuration."""
    cache, out = {}, []
    for r in csv.DictReader(l for l in read(dataset).splitlines() if not l.startswith("#")):
        if r["complete"] != "1" or r["size_tag"] == "large-1":
            continue
        d = os.path.join(modeled_dir, "%s-%s" % (r["program"], r["size_tag"]))
        if not os.path.isdir(d):
            continue
        if d not in cache:
            by = defaultdict(list)
            for key, m in read_modeled(d)[0]:
                by[key[:3]].append(m)
            cache[d] = by
        key = (r["mangled"], (int(r["grid_x"]), int(r["grid_y"]), int(r["grid_z"])),
               (int(r["block_x"]), int(r["block_y"]), int(r["block_z"])))
        ms = cache[d].get(key, [])
        if len(ms) != int(r["ncu_launches"]):
            die("%s: %s grid %s: %d modeled launches, the dataset %s" % (
                d, key[0], key[1], len(ms), r["ncu_launches"]))
        out.append(OrderedDict(
            program=r["program"], size_tag=r["size_tag"], kernel=r["mangled"],
            grid="x".join(map(str, key[1])), block="x".join(map(str, key[2])),
            launches=len(ms), measured_time_ns_median=r["time_ns_median"],
            modeled_us_median="%.4f" % statistics.median(m["microseconds"] for m in ms),
            modeled_cycles_median="%.1f" % statistics.median(m["cycles"] for m in ms),
            measured_cycles_mean=r["sm_cycles_elapsed_max_mean"]))
    return out


def join(a):
    runs = {(p, s): path for p, s, path in model_truth.run_files(a.ncu_dir)}
    mruns = {}
    for d in sorted(glob.glob(os.path.join(a.modeled_dir, "*"))):
        if os.path.isdir(d):
            p, _, s = os.path.basename(d).rpartition("-")
            mruns[(p, s)] = d
    errors, crows, krows = [], [], []
    for key in sorted(set(runs) | set(mruns)):
        if key not in mruns:
            errors.append("%s-%s: measured, not modeled" % key)
            continue
        if key not in runs:
            continue  # modeled for another comparison (the times phase)
        c, k = join_run(key[0], key[1], runs[key], mruns[key], errors)
        crows += c
        krows += k
    if a.configs:
        write_csv(a.configs, crows)
    if a.kernels:
        write_csv(a.kernels, krows)
    text = markdown(crows, krows)
    if a.times:
        tp = times_pairs(a.times, a.modeled_dir)
        if a.times_pairs:
            write_csv(a.times_pairs, tp)
        pairs = [(float(r["modeled_us_median"]) * 1e3, float(r["measured_time_ns_median"]))
                 for r in tp]
        text += ("\n### The times phase (every launch profiled; median per configuration)\n\n"
                 "| set | n | median APE | geomean modeled/measured | within ±30% | Spearman ρ | ratio range |\n"
                 "|---|---:|---:|---:|---:|---:|---:|\n")
        text += stat_line("time, small and middle size, %d runs" % len(
            {(r["program"], r["size_tag"]) for r in tp}), summary(pairs))
        for label, want in (("small", True), ("middle", False)):
            text += stat_line("time, size " + label, summary(
                [p for p, r in zip(pairs, tp) if (r["size_tag"] == "small") == want]))
        # Both phases measured the same configurations: how far apart?
        tk = {(r["program"], r["size_tag"], r["kernel"], r["grid"], r["block"]): r for r in tp}
        both = [float(c["measured_time_ns_median"]) /
                float(tk[k]["measured_time_ns_median"]) for c in crows if c["complete"]
                for k in [(c["program"], c["size_tag"], c["kernel"], c["grid"], c["block"])]
                if k in tk]
        if both:
            text += ("\nThe same configurations measured in both phases (%d): model-phase "
                     "median time / times-phase median time: median %.3f, range %.3f–%.3f.\n"
                     % (len(both), statistics.median(both), min(both), max(both)))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    for e in errors:
        print("model_compare.py: " + e, file=sys.stderr)
    print("joined %d runs: %d configurations (%d complete), %d kernels; %d errors"
          % (len({(r['program'], r['size_tag']) for r in krows}), len(crows),
             sum(r["complete"] for r in crows), len(krows), len(errors)))
    return 1 if (a.check and errors) else 0


def write_csv(path, rows):
    cols = [c for c in rows[0] if not c.startswith("_")] if rows else []
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


# ---------------------------------------------------------------- markdown

def short(kernel):
    """_Z12hotspot_stepPKf... -> hotspot_step."""
    if kernel.startswith("_Z"):
        i = 2
        while i < len(kernel) and kernel[i].isdigit():
            i += 1
        n = int(kernel[2:i] or 0)
        return kernel[i:i + n] or kernel
    return kernel


def tv(r):
    """Total variation distance between the measured and modeled mixes."""
    if not r["modeled_samples"] or not r["measured_selected"]:
        return None
    return 0.5 * sum(abs(float(r["measured_" + s]) - float(r["modeled_" + s]))
                     for s in model_truth.STALLS)


def stat_line(label, s):
    if not s:
        return "| %s | 0 | | | | |\n" % label
    rho = "%.2f" % s["spearman"] if s["spearman"] is not None else "–"
    return "| %s | %d | %.1f%% | %.3f | %.0f%% | %s | %.3f–%.2f |\n" % (
        label, s["n"], 100 * s["median_ape"], s["geomean"], 100 * s["within30"], rho,
        s["ratio_min"], s["ratio_max"])


def top1(r, prefix):
    return max(model_truth.STALLS, key=lambda s: float(r[prefix + s] or 0))


def instructions_section(krows):
    """Modeled SASS warp instructions (each PTX instruction's executions
    times what the model charges it as) against ncu's inst_executed."""
    rows = [r for r in krows if r["ratio_inst"]]
    if not rows:
        return ""
    ratio = [float(r["ratio_inst"]) for r in rows]
    o = ["\n### Per kernel: SASS warp instructions (modeled / measured `smsp__inst_executed.sum`)\n\n",
         "%d kernels: geomean %.3f, median %.3f, range %.2f–%.2f, within ±10%%: %d.\n\n" % (
             len(rows), math.exp(statistics.mean(math.log(x) for x in ratio)),
             statistics.median(ratio), min(ratio), max(ratio),
             sum(abs(x - 1) <= 0.10 for x in ratio)),
         "| program | size | kernel | measured | modeled | modeled/measured |\n",
         "|---|---|---|---:|---:|---:|\n"]
    for r in rows:
        o.append("| %s | %s | %s | %s | %s | %.3f |\n" % (
            r["program"], r["size_tag"], short(r["kernel"]), r["measured_inst"],
            r["modeled_inst"], float(r["ratio_inst"])))
    return "".join(o)


def markdown(crows, krows):
    o = []
    o.append("### Summary (per launch configuration, medians per launch)\n\n")
    o.append("| set | n | median APE | geomean modeled/measured | within ±30% | Spearman ρ | ratio range |\n")
    o.append("|---|---:|---:|---:|---:|---:|---:|\n")
    comp = [r for r in crows if r["complete"]]
    sets = [
        ("time, all complete configurations", comp, "time"),
        ("time, size small", [r for r in comp if r["size_tag"] == "small"], "time"),
        ("time, middle size", [r for r in comp if r["size_tag"] != "small"], "time"),
        ("time, measured ≥ 10 µs", [r for r in comp if float(r["measured_time_ns_median"]) >= 1e4], "time"),
        ("cycles (modeled vs sm__cycles_elapsed.max), all complete", comp, "cycles"),
    ]
    for label, rows, what in sets:
        if what == "time":
            pairs = [(float(r["modeled_us_median"]) * 1e3, float(r["measured_time_ns_median"])) for r in rows]
        else:
            pairs = [(float(r["modeled_cycles_median"]), float(r["measured_cycles_median"])) for r in rows]
        o.append(stat_line(label, summary(pairs)))
    if len(comp) >= 3:
        o.append(stat_line("what-if, not modeled: modeled cycles + fixed cost, at the "
                           "measured clock (both fitted leaving the program out)", summary(what_if(comp))))
        slope, icpt = theil_sen([float(r["modeled_cycles_median"]) for r in comp],
                                [float(r["measured_cycles_median"]) for r in comp])
        f_all = fixed_cost(comp)
        o.append("\nMeasured cycles against modeled cycles per configuration (Theil–Sen): "
                 "measured ≈ %.0f + %.3f × modeled. Median of measured − modeled: %.0f cycles "
                 "(the `residual` column below: modeled / (measured − %.0f)). Clock as ncu ran "
                 "the kernels: %.3f–%.3f cycles per ns (median %.3f); the model's %s MHz.\n"
                 % (icpt, slope, f_all, f_all,
                    min(float(r["measured_cycles_per_ns"]) for r in comp),
                    max(float(r["measured_cycles_per_ns"]) for r in comp),
                    statistics.median(float(r["measured_cycles_per_ns"]) for r in comp),
                    "%.0f" % (float(comp[0]["modeled_cycles_median"]) /
                              float(comp[0]["modeled_us_median"]))))
        for label, want in (("scaled (8 of the SMs the grid used simulated)", 1), ("not scaled", 0)):
            res = [float(r["modeled_cycles_median"]) /
                   (float(r["measured_cycles_median"]) - f_all) for r in comp
                   if r["scaled"] == want and float(r["measured_cycles_median"]) > f_all]
            if res:
                o.append("Configurations %s: %d, median modeled / (measured − %.0f) %.2f.\n"
                         % (label, len(res), f_all, statistics.median(res)))
    else:
        f_all = 0.0
    o.append("\n### Per kernel: time (sums over paired launches)\n\n")
    o.append("| program | size | kernel | launches (ncu/emu) | measured µs | modeled µs | modeled/measured time | measured cycles | modeled cycles | modeled/measured cycles | residual |\n")
    o.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in krows:
        n = r["paired"]
        rest = int(r["measured_cycles_sum"]) - f_all * n
        o.append("| %s | %s | %s | %d/%d | %.1f | %.1f | %.2f | %d | %d | %.2f | %s |\n" % (
            r["program"], r["size_tag"], short(r["kernel"]), r["ncu_launches"],
            r["modeled_launches"], int(r["measured_time_ns_sum"]) / 1e3,
            float(r["modeled_us_sum"]), float(r["ratio_time"]),
            int(r["measured_cycles_sum"]), int(r["modeled_cycles_sum"]),
            float(r["ratio_cycles"]),
            "%.2f" % (int(r["modeled_cycles_sum"]) / rest) if rest > 0 else "–"))
    o.append(instructions_section(krows))
    o.append("\n### Per kernel: stall mix (top three reasons, share of warp-cycles; modeled: share of modeled samples)\n\n")
    tvs = [tv(r) for r in krows if tv(r) is not None]
    same = sum(1 for r in krows if tv(r) is not None and top1(r, "measured_") == top1(r, "modeled_"))
    never = ("imc_miss", "no_instruction", "misc", "dispatch_stall", "sleeping", "tex_throttle", "gmma")
    if tvs:
        o.append("%d kernels: the top reason agrees in %d; total variation distance between the "
                 "two mixes median %.2f (%.2f–%.2f). Reasons the model never produces (%s) hold "
                 "a median %.0f%% of the measured warp-cycles (max %.0f%%); `drain` holds a median "
                 "%.1f%% measured and %.1f%% modeled.\n\n" % (
                     len(tvs), same, statistics.median(tvs), min(tvs), max(tvs), ", ".join(never),
                     100 * statistics.median(sum(float(r["measured_" + s] or 0) for s in never) for r in krows),
                     100 * max(sum(float(r["measured_" + s] or 0) for s in never) for r in krows),
                     100 * statistics.median(float(r["measured_drain"] or 0) for r in krows),
                     100 * statistics.median(float(r["modeled_drain"] or 0) for r in krows)))
    o.append("| program | size | kernel | measured (H200, WarpStateStats) | modeled (h100-sxm, PC samples) | modeled samples | TV distance |\n")
    o.append("|---|---|---|---|---|---:|---:|\n")
    for r in krows:
        def top(prefix):
            v = [(float(r[prefix + s] or 0), s) for s in model_truth.STALLS]
            v.sort(reverse=True)
            return ", ".join("%s %.0f%%" % (s, 100 * x) for x, s in v[:3] if x > 0)
        d = tv(r)
        o.append("| %s | %s | %s | %s | %s | %d | %s |\n" % (
            r["program"], r["size_tag"], short(r["kernel"]), top("measured_"),
            top("modeled_"), r["modeled_samples"], "%.2f" % d if d is not None else "–"))
    o.append("\n### Per kernel: exact memory counts, ours vs ncu (kernels whose every launch ncu profiled)\n\n")
    comp_k = [r for r in krows if r["complete"]]
    o.append("| count | kernels compared | equal | differ |\n|---|---:|---:|---:|\n")
    for name, _, _, _ in COUNTS:
        got = [r for r in comp_k if r["ours_" + name] != ""]
        eq = sum(int(r["ours_" + name]) == int(r["ncu_" + name]) for r in got)
        o.append("| %s | %d | %d | %d |\n" % (name, len(got), eq, len(got) - eq))
    o.append("\n`=` both agree; `a / b`: ours / ncu.\n\n")
    o.append("| program | size | kernel | ld req | ld sectors | st req | st sectors | atom+red req | shared ld wavefronts | shared st wavefronts | shared ld conflicts | shared st conflicts |\n")
    o.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in krows:
        if not r["complete"]:
            continue
        cells = []
        for name, _, _, _ in COUNTS:
            a, b = r["ours_" + name], r["ncu_" + name]
            if a == "":
                cells.append("– / %s" % b)
            elif int(a) == int(b):
                cells.append("= %s" % a)
            else:
                cells.append("%s / %s" % (a, b))
        o.append("| %s | %s | %s | %s |\n" % (r["program"], r["size_tag"],
                                              short(r["kernel"]), " | ".join(cells)))
    o.append("\n### Per kernel: memory hierarchy (measured on the H200; the timing model writes no "
             "cache or DRAM figure, so there is no modeled column)\n\n")
    o.append("| program | size | kernel | our global sectors (ld+st, exact) | ncu L2 sectors | L2 hit % | DRAM bytes | DRAM bytes / (32 × our sectors) |\n")
    o.append("|---|---|---|---:|---:|---:|---:|---:|\n")
    for r in krows:
        if not r["complete"] or r["ours_gld_sectors"] == "":
            continue
        ours = int(r["ours_gld_sectors"]) + int(r["ours_gst_sectors"])
        dram = int(r["measured_dram_bytes"])
        o.append("| %s | %s | %s | %d | %s | %s | %d | %s |\n" % (
            r["program"], r["size_tag"], short(r["kernel"]), ours, r["measured_l2_sectors"],
            r["measured_l2_hit_pct"], dram, "%.2f" % (dram / 32.0 / ours) if ours else "–"))
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", required=True)
    r.add_argument("-o", "--output", required=True)
    r.add_argument("--sampling-period", type=int, default=5)
    r.add_argument("--model-config")
    r.add_argument("runs", nargs="+")
    j = sub.add_parser("join")
    j.add_argument("ncu_dir")
    j.add_argument("modeled_dir")
    j.add_argument("--configs")
    j.add_argument("--kernels")
    j.add_argument("--markdown")
    j.add_argument("--check", action="store_true")
    j.add_argument("--times")
    j.add_argument("--times-pairs")
    a = ap.parse_args()
    if a.cmd == "run":
        os.makedirs(a.output, exist_ok=True)
        run(a)
        return 0
    return join(a)


if __name__ == "__main__":
    sys.exit(main())

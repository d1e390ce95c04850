#!/usr/bin/env python3
"""The timing model's truth table from Nsight Compute's raw page: per
program, size, kernel and launch configuration, measured time, cycles,
clock, stall breakdown, memory counters and occupancy (issue 34).

  model_truth.py NCU_DIR [-o OUT.csv] [--environment ENV.log]
                 [--limit-small 60] [--limit-other 40]

NCU_DIR holds `P-S.csv[.gz]` as `benchmarks/gpu/session.sh model` wrote them
(S = `small` or the middle size N of sizes.txt): `ncu --csv --page raw
--print-units base --print-kernel-base mangled --launch-count 60|40
--section SpeedOfLight --section WarpStateStats --section LaunchStats
--section Occupancy --metrics <MODEL_METRICS of phases15.sh> P S` of the
PLAIN build; the program's own output (PASS/FAIL) comes first. The device
description comes from --environment (default: NCU_DIR/environment.log,
else NCU_DIR/../log/environment.log: session.sh's environment step).

One output row per (program, size, mangled kernel name, grid, block, dynamic
shared bytes): the launches ncu profiled of that configuration aggregated.
Extensive counters are sums over those launches (`*_sum`); time and cycles
also as medians per launch; ratios are over the sums (sectors per request =
sum of sectors / sum of requests); stall shares weight each launch's
`smsp__average_warps_issue_stalled_<r>_per_issue_active.ratio` by its
issued instructions (`smsp__inst_executed.sum`), so a share is that reason's
warp-cycles over all reasons' (`selected` included, which is 1 per issue);
the L2 hit rate is weighted by `lts__t_sectors.sum` (exact), the L1 hit rate
by the launch's global load + store sectors (an approximation: ncu's rate
covers every L1 sector), achieved occupancy by `sm__cycles_active.sum`.
`run_complete` is 1 when ncu profiled fewer launches than its limit and the
program printed PASS (so every launch of the run is in the table); a
configuration of a run ncu stopped may have more launches than it shows.
Python 3 standard library only.
"""
import argparse
import csv
import os
import statistics
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402
from make_dataset import read_environment, self_check  # noqa: E402

STALLS = ("barrier", "branch_resolving", "dispatch_stall", "drain", "gmma",
          "imc_miss", "lg_throttle", "long_scoreboard", "math_pipe_throttle",
          "membar", "mio_throttle", "misc", "no_instruction", "not_selected",
          "selected", "short_scoreboard", "sleeping", "tex_throttle", "wait")
STALL_METRIC = "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio"
TIME_SCALE = ncu_csv.TIME_SCALE
# (output column, ncu raw column): summed over a row's launches.
SUMS = (
    ("time_ns_sum", "gpu__time_duration.sum"),
    ("sm_cycles_elapsed_max_sum", "sm__cycles_elapsed.max"),
    ("inst_executed_sum", "smsp__inst_executed.sum"),
    ("thread_inst_executed_sum", "smsp__thread_inst_executed.sum"),
    ("warps_launched_sum", "smsp__warps_launched.sum"),
    ("ctas_launched_sum", "sm__ctas_launched.sum"),
    ("gld_requests_sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("gld_sectors_sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gst_requests_sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("gst_sectors_sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("gatom_requests_sum", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"),
    ("gred_requests_sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"),
    ("gld_inst_sum", "smsp__sass_inst_executed_op_global_ld.sum"),
    ("gst_inst_sum", "smsp__sass_inst_executed_op_global_st.sum"),
    ("l2_sectors_sum", "lts__t_sectors.sum"),
    ("l2_atom_sectors_sum", "lts__t_sectors_op_atom.sum"),
    ("l2_red_sectors_sum", "lts__t_sectors_op_red.sum"),
    ("dram_bytes_read_sum", "dram__bytes_read.sum"),
    ("dram_bytes_write_sum", "dram__bytes_write.sum"),
    ("shared_ld_inst_sum", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("shared_st_inst_sum", "smsp__sass_inst_executed_op_shared_st.sum"),
    ("shared_ld_wavefronts_sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("shared_st_wavefronts_sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("shared_ld_conflicts_sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("shared_st_conflicts_sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
)
# (output column, ncu raw column): the same in every launch of a row
# (a launch attribute); the first launch's value.
ATTRS = (
    ("registers_per_thread", "launch__registers_per_thread"),
    ("shared_static_bytes", "launch__shared_mem_per_block_static"),
    ("theoretical_occupancy_pct", "sm__maximum_warps_per_active_cycle_pct"),
    ("occupancy_limit_registers", "launch__occupancy_limit_registers"),
    ("occupancy_limit_shared_mem", "launch__occupancy_limit_shared_mem"),
    ("occupancy_limit_warps", "launch__occupancy_limit_warps"),
    ("occupancy_limit_blocks", "launch__occupancy_limit_blocks"),
    ("waves_per_sm", "launch__waves_per_multiprocessor"),
    ("sm_count", "launch__sm_count"),
)
KEY = ("kernel", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
       "shared_dynamic_bytes")
COLUMNS = (
    ("program", "size_tag", "size_arg") + KEY +
    ("launches", "run_launches", "ncu_limit", "run_complete", "self_check",
     "time_ns_median", "time_ns_min", "time_ns_max",
     "sm_cycles_elapsed_max_median", "cycles_per_ns", "gpc_clock_mhz_median")
    + tuple(c for c, _ in SUMS) +
    ("gld_sectors_per_request", "gst_sectors_per_request",
     "l1_hit_rate_pct", "l2_hit_rate_pct", "dram_throughput_pct_median",
     "shared_ld_wavefronts_per_inst", "shared_st_wavefronts_per_inst",
     "achieved_occupancy_pct")
    + tuple(c for c, _ in ATTRS) +
    ("stall_top", "warp_cycles_per_issue") +
    tuple("stall_%s_share" % r for r in STALLS))


def die(msg):
    sys.exit("model_truth.py: " + msg)


def num(launch, column, path):
    v = ncu_csv.number(launch.get(column))
    if v is None:
        die("%s: launch %s has no number in %r" % (path, launch.get("ID"), column))
    return v


def dims(text):
    parts = [p.strip() for p in text.strip().strip("()").split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        die("bad launch dimension %r" % text)
    return parts


def fmt(x, digits=0):
    if x is None:
        return ""
    if digits == 0:
        return "%d" % round(x)
    return "%.*f" % (digits, x)


def ratio(a, b, digits=3):
    return fmt(a / b, digits) if b else ""


def run_files(ncu_dir):
    """[(program, size_tag, path)] of NCU_DIR, sorted by program then size
    (small first, then numerically)."""
    out = []
    for name in os.listdir(ncu_dir):
        base = name[:-3] if name.endswith(".gz") else name
        if not base.endswith(".csv"):
            continue
        program, _, size = base[:-4].rpartition("-")
        if not program or not (size == "small" or size.isdigit()):
            continue
        out.append((program, size, os.path.join(ncu_dir, name)))
    out.sort(key=lambda t: (t[0], t[1] != "small", int(t[1]) if t[1].isdigit() else 0))
    return out


def aggregate(program, size, launches, units, path, run_launches, limit, check):
    """One row (dict) for the launches of one configuration."""
    scale = TIME_SCALE.get(units.get("gpu__time_duration.sum", "ns"))
    if scale is None:
        die("%s: unknown time unit %r" % (path, units["gpu__time_duration.sum"]))
    first = launches[0]
    row = OrderedDict(program=program, size_tag=size,
                      size_arg=size if size != "small" else "small")
    row["kernel"] = first["Kernel Name"]
    row.update(zip(("grid_x", "grid_y", "grid_z"), dims(first["Grid Size"])))
    row.update(zip(("block_x", "block_y", "block_z"), dims(first["Block Size"])))
    row["shared_dynamic_bytes"] = fmt(num(first, "launch__shared_mem_per_block_dynamic", path))
    n = len(launches)
    complete = run_launches < limit and check == "PASS"
    row.update(launches=n, run_launches=run_launches, ncu_limit=limit,
               run_complete=int(complete), self_check=check)
    sums = {}
    for col, metric in SUMS:
        sums[col] = sum(num(l, metric, path) for l in launches)
        row[col] = fmt(sums[col])
    sums["time_ns_sum"] *= scale
    row["time_ns_sum"] = fmt(sums["time_ns_sum"])
    times = [num(l, "gpu__time_duration.sum", path) * scale for l in launches]
    cycles = [num(l, "sm__cycles_elapsed.max", path) for l in launches]
    row["time_ns_median"] = fmt(statistics.median(times), 1)
    row["time_ns_min"] = fmt(min(times))
    row["time_ns_max"] = fmt(max(times))
    row["sm_cycles_elapsed_max_median"] = fmt(statistics.median(cycles), 1)
    row["cycles_per_ns"] = ratio(sum(cycles), sum(times), 4)
    row["gpc_clock_mhz_median"] = fmt(statistics.median(
        num(l, "gpc__cycles_elapsed.avg.per_second", path) / 1e6 for l in launches), 1)
    row["gld_sectors_per_request"] = ratio(sums["gld_sectors_sum"], sums["gld_requests_sum"])
    row["gst_sectors_per_request"] = ratio(sums["gst_sectors_sum"], sums["gst_requests_sum"])
    gsect = [num(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", path) +
             num(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", path) for l in launches]
    l1 = sum(num(l, "l1tex__t_sector_hit_rate.pct", path) * w for l, w in zip(launches, gsect))
    row["l1_hit_rate_pct"] = ratio(l1, sum(gsect), 2)
    l2 = sum(num(l, "lts__t_sector_hit_rate.pct", path) * num(l, "lts__t_sectors.sum", path)
             for l in launches)
    row["l2_hit_rate_pct"] = ratio(l2, sums["l2_sectors_sum"], 2)
    row["dram_throughput_pct_median"] = fmt(statistics.median(
        num(l, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", path)
        for l in launches), 2)
    row["shared_ld_wavefronts_per_inst"] = ratio(sums["shared_ld_wavefronts_sum"],
                                                 sums["shared_ld_inst_sum"])
    row["shared_st_wavefronts_per_inst"] = ratio(sums["shared_st_wavefronts_sum"],
                                                 sums["shared_st_inst_sum"])
    active = [num(l, "sm__cycles_active.sum", path) for l in launches]
    occ = sum(num(l, "sm__warps_active.avg.pct_of_peak_sustained_active", path) * w
              for l, w in zip(launches, active))
    row["achieved_occupancy_pct"] = ratio(occ, sum(active), 2)
    for col, metric in ATTRS:
        row[col] = first.get(metric, "").replace(",", "")
    # Stalls: warp-cycles per reason = ratio x issued instructions.
    weight = [num(l, "smsp__inst_executed.sum", path) for l in launches]
    cyc = {r: sum(num(l, STALL_METRIC % r, path) * w for l, w in zip(launches, weight))
           for r in STALLS}
    total = sum(cyc.values())
    for r in STALLS:
        row["stall_%s_share" % r] = ratio(cyc[r], total, 4)
    row["stall_top"] = max(STALLS, key=lambda r: cyc[r]) if total else ""
    row["warp_cycles_per_issue"] = ratio(total, sum(weight), 2)
    return row


def truth_rows(ncu_dir, limit_small=60, limit_other=40):
    """(rows, runs): the table's rows and [(program, size, launches, limit,
    self_check)] per run file."""
    rows, runs = [], []
    for program, size, path in run_files(ncu_dir):
        preamble, units, launches = ncu_csv.raw(path)
        check = self_check(preamble)
        limit = limit_small if size == "small" else limit_other
        runs.append((program, size, len(launches), limit, check))
        by_key = OrderedDict()
        for l in launches:
            key = (l["Kernel Name"], l["Grid Size"], l["Block Size"],
                   num(l, "launch__shared_mem_per_block_dynamic", path))
            by_key.setdefault(key, []).append(l)
        for group in by_key.values():
            rows.append(aggregate(program, size, group, units, path,
                                  len(launches), limit, check))
    return rows, runs


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ncu_dir")
    ap.add_argument("-o", "--output")
    ap.add_argument("--environment")
    ap.add_argument("--limit-small", type=int, default=60,
                    help="ncu --launch-count at size small (session.sh: 60)")
    ap.add_argument("--limit-other", type=int, default=40,
                    help="ncu --launch-count at the middle size (session.sh: 40)")
    a = ap.parse_args()
    rows, runs = truth_rows(a.ncu_dir, a.limit_small, a.limit_other)
    if not runs:
        die("no P-S.csv under %s" % a.ncu_dir)
    envlog = a.environment or next(
        (p for p in (os.path.join(a.ncu_dir, "environment.log"),
                     os.path.join(a.ncu_dir, "..", "log", "environment.log"))
         if os.path.exists(p)), None)
    env = read_environment(envlog)
    out = open(a.output, "w", newline="") if a.output else sys.stdout
    comment = [
        "WarpScope timing-model truth table: Nsight Compute per kernel launch "
        "configuration (measured, plain builds)",
        "generated by benchmarks/gpu/model_truth.py from the raw-page CSVs of "
        "benchmarks/gpu/session.sh model",
    ]
    for k in ("device", "driver", "CUDA driver API", "CUDA", "Nsight Compute",
              "max clocks", "date"):
        comment.append("%s: %s" % (k, env.get(k, "unknown")))
    comment += [
        "conditions: ncu defaults: --clock-control base (clocks locked; see "
        "gpc_clock_mhz_median), --cache-control all (caches flushed before "
        "each profiled launch), kernels replayed once per metric pass",
        "command, for each program P and size S: ncu --csv --page raw "
        "--print-units base --print-kernel-base mangled --launch-count "
        "%d (small) | %d (middle size) --section SpeedOfLight --section "
        "WarpStateStats --section LaunchStats --section Occupancy --metrics "
        "<MODEL_METRICS, benchmarks/gpu/phases15.sh> build/benchmarks/P S"
        % (a.limit_small, a.limit_other),
        "row: the launches ncu profiled of one (program, size, kernel, grid, "
        "block, dynamic shared bytes); *_sum: sums over them; time in ns, "
        "cycles = sm__cycles_elapsed.max; cycles_per_ns = sum of cycles / sum "
        "of time; ratios over sums; stall_<r>_share: warp-cycles of reason r "
        "over all reasons' (WarpStateStats ratios x issued instructions); "
        "l2_hit_rate_pct weighted by lts__t_sectors, l1_hit_rate_pct by global "
        "ld+st sectors, achieved_occupancy_pct by sm__cycles_active",
        "run_complete=1: the run's every launch is here (fewer launches than "
        "ncu_limit, PASS); 0: ncu stopped at its limit, a configuration may "
        "have more launches than `launches`",
        "runs: %d, rows: %d" % (len(runs), len(rows)),
    ]
    for c in comment:
        out.write("# " + c + "\n")
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    if a.output:
        out.close()


if __name__ == "__main__":
    main()

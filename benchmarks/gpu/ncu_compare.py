#!/usr/bin/env python3
"""Puts our exact counts of a program beside Nsight Compute's, per kernel.

  ncu_compare.py [--header] PROGRAM REPORT.json NCU.csv [NCU-INST.csv]

REPORT.json: `warpscope report --format json` of the instrumented build's
run (on the GPU or the emulator, same arguments). NCU.csv: `ncu --csv --page
details --print-units base --print-kernel-base mangled` of the plain build
with session.sh's COUNT_METRICS, every launch profiled; NCU-INST.csv, the
same of the instrumented build (optional). Prints one CSV row per kernel:

  program,kernel,launches,ncu_launches,
  ctas,ctas_ncu,warps,warps_ncu            exact on both sides: must agree
  branch_eff,branch_eff_ncu                ours (probed PTX branches) and the
                                           hardware's (all SASS branch
                                           targets), percent
  sass_per_ptx_warp,sass_per_ptx_thread    plain build's SASS / our PTX
  sass_inst_overhead                       instrumented / plain SASS warp
                                           instructions (NCU-INST.csv)
  ld_sectors_per_request,st_sectors_per_request   global memory, plain build
  shared_ld_conflicts,shared_st_conflicts, shared_ld_wavefronts_per_inst,
  shared_st_wavefronts_per_inst            shared memory, plain build

A kernel whose launches ncu did not all profile gets its ncu columns empty:
they would describe different work.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402

HEADER = ("program,kernel,launches,ncu_launches,ctas,ctas_ncu,warps,warps_ncu,"
          "branch_eff,branch_eff_ncu,sass_per_ptx_warp,sass_per_ptx_thread,"
          "sass_inst_overhead,ld_sectors_per_request,st_sectors_per_request,"
          "shared_ld_conflicts,shared_st_conflicts,"
          "shared_ld_wavefronts_per_inst,shared_st_wavefronts_per_inst")


def ratio(a, b, digits=3):
    if a is None or b is None or not b:
        return ""
    return "%.*f" % (digits, a / b)


def ours(kernel):
    """(launches, ctas, warps) from the report's launch configurations."""
    ctas = warps = 0
    for c in kernel.get("launch_configurations", []):
        n = c["count"] * math.prod(c["grid"])
        ctas += n
        warps += n * ((math.prod(c["block"]) + 31) // 32)
    return kernel.get("launches", 0), ctas, warps


def main(argv):
    args = argv[1:]
    if args[:1] == ["--header"]:
        print(HEADER)
        args = args[1:]
    if len(args) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    program, report = args[0], json.load(open(args[1]))
    plain = ncu_csv.totals(args[2])
    inst = ncu_csv.totals(args[3]) if len(args) == 4 else {}
    for k in report.get("kernels", []):
        if k.get("kind") != "kernel":
            continue  # device functions: ncu sees only kernels
        name = k["mangled"]
        launches, ctas, warps = ours(k)
        m = plain.get(name, {})
        full = m.get("launches") == launches
        g = (lambda key: m.get(key)) if full else (lambda key: None)
        targets = g("smsp__sass_branch_targets.sum")
        uniform = g("smsp__sass_branch_targets_threads_uniform.sum")
        eff_ncu = "%.2f" % (100.0 * uniform / targets) if targets else (
            "100.00" if targets == 0 else "")
        eff = k.get("branch_efficiency")
        i = inst.get(name, {})
        inst_w = i.get("smsp__inst_executed.sum") if i.get("launches") == launches else None
        row = [program, name, launches, int(m.get("launches", 0)),
               ctas, "" if g("sm__ctas_launched.sum") is None else int(g("sm__ctas_launched.sum")),
               warps, "" if g("smsp__warps_launched.sum") is None else int(g("smsp__warps_launched.sum")),
               "" if eff is None else "%.2f" % (100.0 * eff), eff_ncu,
               ratio(g("smsp__inst_executed.sum"), k.get("warp_instructions")),
               ratio(g("smsp__thread_inst_executed.sum"), k.get("thread_instructions")),
               ratio(inst_w, g("smsp__inst_executed.sum")),
               ratio(g("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                     g("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2),
               ratio(g("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                     g("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 2),
               "" if g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") is None
               else int(g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")),
               "" if g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") is None
               else int(g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")),
               ratio(g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                     g("smsp__sass_inst_executed_op_shared_ld.sum"), 2),
               ratio(g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                     g("smsp__sass_inst_executed_op_shared_st.sum"), 2)]
        print(",".join(str(x) for x in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

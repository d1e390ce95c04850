#!/usr/bin/env python3
"""Plants one bug at a time in the H200 data scripts and runs the test of
test_model_truth.py meant to catch it; prints FAILS (caught) or PASSES(!)
per bug and restores each file. Exits 1 if a bug went uncaught.

  python3 benchmarks/gpu/testdata/plant_model_truth_bugs.py
"""
import os
import subprocess
import sys

G = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/"
bugs=[
 ('model_truth.py','ratio(sums["gld_sectors_sum"], sums["gld_requests_sum"])','ratio(sums["gld_sectors_sum"], sums["gst_requests_sum"])','TruthTable.test_sectors_per_request_by_hand'),
 ('model_truth.py','l2 = sum(num(l, "lts__t_sector_hit_rate.pct", path) * num(l, "lts__t_sectors.sum", path)','l2 = sum(num(l, "lts__t_sector_hit_rate.pct", path) * sums["l2_sectors_sum"] / len(launches)','TruthTable.test_time_and_l2_hit_by_hand'),
 ('model_truth.py','"not_selected",\n          "selected",','"not_selected",','TruthTable.test_stall_share_by_hand'),
 ('model_truth.py','complete = run_launches < limit and','complete = run_launches <= limit and','TruthTable.test_configurations_and_completeness'),
 ('model_truth.py','key = (l["Kernel Name"], l["Grid Size"], l["Block Size"],','key = (l["Kernel Name"], l["Block Size"],','TruthTable.test_configurations_and_completeness'),
 ('model_compare.py','    for kernel in nk:\n        if kernel not in mk:','    for kernel in list(nk)[:-1]:\n        if kernel not in mk:','Join.test_every_kernel_and_launch_paired'),
 ('model_compare.py','errors.append("%s-%s: kernel %s measured but never modeled"','(lambda *a: None)("%s-%s: kernel %s measured but never modeled"','Join.test_dropped_kernel_is_reported'),
 ('model_compare.py','return (kernel, tuple(int(x) for x in grid),','return (kernel, (),','Join.test_every_kernel_and_launch_paired'),
 ('model_compare.py','    if head == "st":\n        return "st"','    if head == "st":\n        return "ld"','Join.test_exact_counts_summed_independently'),
 ('model_truth.py','row["cycles_per_ns"] = ratio(sum(cycles), sum(times), 4)','row["cycles_per_ns"] = ratio(sum(cycles), sum(times) + 1, 4)','CommittedData.test_h200_truth_table_rebuild'),
 ('make_dataset.py','else cut or "ncu-fewer")','else "ncu-fewer")','CommittedData.test_h200_kernel_times_rebuild'),
 ('make_dataset.py','        columns.insert(0, "device")\n','','CommittedData.test_h200_kernel_times_rebuild'),
]
missed = 0
for f, a, b, test in bugs:
    p=G+f; orig=open(p).read()
    assert orig.count(a)==1,(f,a)
    open(p,'w').write(orig.replace(a,b))
    try:
        r=subprocess.run([sys.executable,'-m','unittest','test_model_truth.'+test],cwd=G+'testdata',capture_output=True,text=True)
        last=[l for l in r.stderr.splitlines() if l.startswith(('FAILED','OK','AssertionError','Error'))]
        missed += r.returncode == 0
        print("%-16s %-52s -> %s %s" % (f, test, "FAILS" if r.returncode else "PASSES(!)", last[:1]))
    finally:
        open(p,'w').write(orig)
sys.exit(1 if missed else 0)

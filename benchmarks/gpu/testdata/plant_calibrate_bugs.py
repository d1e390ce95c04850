#!/usr/bin/env python3
"""Plants one bug at a time in calibrate.py and runs the test of
test_calibrate.py meant to catch it; prints FAILS (caught) or PASSES(!)
per bug and restores the file. Exits 1 if a bug went uncaught.

  python3 benchmarks/gpu/testdata/plant_calibrate_bugs.py
"""
import os
import subprocess
import sys

G = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/"
bugs = [
    ('median_ape=statistics.median(abs(r - 1) for r in ratio)',
     'median_ape=statistics.mean(abs(r - 1) for r in ratio)', 'Statistics.test_by_hand'),
    ('geomean=math.exp(statistics.mean(math.log(r) for r in ratio))',
     'geomean=statistics.mean(ratio)', 'Statistics.test_by_hand'),
    ('within2x=sum(0.5 <= r <= 2.0 for r in ratio)', 'within2x=sum(0.5 < r < 2.0 for r in ratio)',
     'Statistics.test_by_hand'),
    ('within30=sum(abs(r - 1) <= 0.30 for r in ratio)', 'within30=sum(abs(r - 1) <= 0.10 for r in ratio)',
     'Statistics.test_by_hand'),
    ('            r[order[k]] = (i + j) / 2.0 + 1', '            r[order[k]] = k + 1',
     'Statistics.test_spearman_ties_and_targets', 'model_compare.py'),
    ('spearman=spearman([m for m, _ in pairs], [t for _, t in pairs])',
     'spearman=spearman([m for m, _ in pairs], [m for m, _ in pairs])', 'Statistics.test_by_hand'),
    ('if any(r["complete"] != "1" for r in rs):', 'if all(r["complete"] != "1" for r in rs):',
     'Pairing.test_sums_and_left_out'),
    ('if not m or len(m["us"]) != n:', 'if not m:', 'Pairing.test_sums_and_left_out'),
    ('c = sum(float(r["sm_cycles_elapsed_max_mean"]) * int(r["ncu_launches"]) for r in rs)',
     'c = sum(float(r["sm_cycles_elapsed_max_mean"]) for r in rs)', 'Pairing.test_sums_and_left_out'),
    ('if f[0] in ("train:", "test:"):', 'if f[0] in ("train:",):', 'Pairing.test_split_file'),
    ('return statistics.mean(abs(math.log(max(r["modeled_ns"] + d * r["launches"], 1.0)',
     'return statistics.mean(abs(math.log(max(r["modeled_ns"] + d, 1.0)',
     'Fit.test_launch_overhead_recovers_a_known_cost'),
    ('(statistics.mean(m) * 1e3, float(r["time_ns_sum"]) / len(m))',
     '(statistics.mean(m) * 1e3, float(r["time_ns_sum"]))',
     'Pairing.test_per_launch_configuration'),
    ('if not m or len(m) != int(r["ncu_launches"]):', 'if not m:',
     'Pairing.test_per_launch_configuration'),
    ('or r["complete"] != "1":', ':', 'Pairing.test_per_launch_configuration'),
    ('        os.killpg(p.pid, signal.SIGKILL)', '        p.kill()',
     'RunGroup.test_timeout_kills_the_program_too'),
    ('    except OSError as e:\n        return "error", str(e)', '    except ValueError as e:\n        return "error", str(e)',
     'RunGroup.test_rc_output_and_missing_program'),
]
missed = 0
for bug in bugs:
    a, b, test = bug[:3]
    # Most bugs go into calibrate.py; a fourth field names another file
    # it uses (model_compare.py's ranks).
    p = G + (bug[3] if len(bug) > 3 else 'calibrate.py')
    with open(p) as f:
        orig = f.read()
    assert orig.count(a) == 1, a
    with open(p, 'w') as f:
        f.write(orig.replace(a, b))
    try:
        r = subprocess.run([sys.executable, '-m', 'unittest', 'test_calibrate.' + test],
                           cwd=G + 'testdata', capture_output=True, text=True)
        missed += r.returncode == 0
        print("%-60s -> %s" % (test, "FAILS" if r.returncode else "PASSES(!)"))
    finally:
        with open(p, 'w') as f:
            f.write(orig)
sys.exit(1 if missed else 0)

#!/usr/bin/env python3
"""Offline tests of benchmarks/gpu/calibrate.py (ctest benchmarks-calibrate;
no GPU, no build): its statistics on five pairs worked out by hand, its
pairing of a small measured dataset with modeled ground truth, its split
file, and its fixed-cost fit on pairs whose answer is known.

  cd benchmarks/gpu/testdata && python3 -m unittest -v test_calibrate
"""
import csv
import json
import math
import os
import shutil
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
import calibrate  # noqa: E402

# (modeled, measured): ratios 1.2, 0.5, 3.0, 0.9, 1.0.
PAIRS = [(12.0, 10.0), (10.0, 20.0), (90.0, 30.0), (36.0, 40.0), (50.0, 50.0)]

COLUMNS = ["program", "size_tag", "mangled", "grid_x", "grid_y", "grid_z", "block_x",
           "block_y", "block_z", "launches", "ncu_launches", "time_ns_sum",
           "time_ns_mean", "sm_cycles_elapsed_max_mean", "global_bytes", "size_n", "complete"]


def dataset_row(program, size, kernel, grid, n, ns, cycles, complete=1):
    return dict(program=program, size_tag=size, mangled=kernel, grid_x=grid, grid_y=1,
                grid_z=1, block_x=256, block_y=1, block_z=1, launches=n, ncu_launches=n,
                time_ns_sum=ns, time_ns_mean=ns / n, sm_cycles_elapsed_max_mean=cycles,
                global_bytes="", size_n=1, complete=complete)


def launch(kernel, grid, cycles, us):
    return {"kernel": kernel, "grid": [grid, 1, 1], "block": [256, 1, 1], "shared_bytes": 0,
            "modeled": {"config": "h100-sxm", "cycles": cycles, "microseconds": us,
                        "clock_mhz": 1605, "clock": "base", "launch_cycles": 100,
                        "sms_simulated": 1, "scaled": False}}


class Statistics(unittest.TestCase):
    def test_by_hand(self):
        s = calibrate.stats(PAIRS)
        self.assertEqual(s["n"], 5)
        # APE 0.2, 0.5, 2.0, 0.1, 0.0: median 0.2.
        self.assertAlmostEqual(s["median_ape"], 0.2)
        # (1.2 x 0.5 x 3.0 x 0.9 x 1.0) ^ (1/5) = 1.62 ^ 0.2.
        self.assertAlmostEqual(s["geomean"], 1.62 ** 0.2)
        # Within +-30%: 1.2, 0.9, 1.0; within 2x (0.5 and 2 included): 4.
        self.assertAlmostEqual(s["within30"], 0.6)
        self.assertAlmostEqual(s["within2x"], 0.8)
        # Ranks modeled 2 1 5 3 4, measured 1 2 3 4 5: sum d^2 = 8,
        # rho = 1 - 6 x 8 / (5 x 24) = 0.6.
        self.assertAlmostEqual(s["spearman"], 0.6)
        self.assertAlmostEqual(s["ratio_min"], 0.5)
        self.assertAlmostEqual(s["ratio_max"], 3.0)

    def test_spearman_ties_and_targets(self):
        # Ties take the mean rank: ranks 1.5 1.5 3 against 1 2 3.
        self.assertAlmostEqual(calibrate.spearman([1, 1, 2], [1, 2, 3]), 0.8660254037844387)
        self.assertIsNone(calibrate.spearman([1, 2], [1, 2]))
        ok = calibrate.meets(calibrate.stats(PAIRS))
        self.assertEqual(list(ok.values()), [False, False, False, False, False])
        good = calibrate.stats([(1.05 * t, t) for t in (1.0, 2.0, 3.0, 4.0)])
        self.assertEqual(list(calibrate.meets(good).values()), [True] * 5)
        rows = [dict(modeled_ns=m, measured_ns=t) for m, t in PAIRS]
        self.assertEqual(calibrate.targets_line("x", rows), "\nTargets (x): median_ape not met, "
                         "geomean not met, within30 not met, within2x not met, spearman not met.\n")
        rows = [dict(modeled_ns=1.05 * t, measured_ns=t) for t in (1.0, 2.0, 3.0)]
        self.assertEqual(calibrate.targets_line("y", rows).count(" met"), 5)
        self.assertNotIn("not met", calibrate.targets_line("y", rows))


class Pairing(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="calib")
        self.dataset = os.path.join(self.tmp, "times.csv")
        rows = [
            # Two configurations of one kernel: summed.
            dataset_row("prog", "small", "_Z1av", 4, 2, 2000.0, 1500.0),
            dataset_row("prog", "small", "_Z1av", 8, 1, 3000.0, 4000.0),
            # One configuration incomplete: the kernel is left out.
            dataset_row("prog", "small", "_Z1bv", 4, 1, 1000.0, 1500.0),
            dataset_row("prog", "small", "_Z1bv", 8, 1, 1000.0, 1500.0, complete=0),
            # Modeled twice, measured once: left out.
            dataset_row("prog", "small", "_Z1cv", 4, 1, 1000.0, 1500.0),
            # Not modeled at all (no run directory).
            dataset_row("other", "small", "_Z1dv", 4, 1, 1000.0, 1500.0),
        ]
        with open(self.dataset, "w", newline="") as f:
            f.write("# a comment line\n")
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow(r)
        run = os.path.join(self.tmp, "modeled", "prog-small")
        os.makedirs(run)
        doc = {"launches": [launch("_Z1av", 4, 1000, 0.5), launch("_Z1av", 4, 1200, 0.75),
                            launch("_Z1av", 8, 3000, 2.0), launch("_Z1bv", 4, 10, 0.01),
                            launch("_Z1bv", 8, 10, 0.01), launch("_Z1cv", 4, 10, 0.01),
                            launch("_Z1cv", 4, 10, 0.01)],
               "functions": [{"name": "_Z1av", "kernel": True, "instructions": [
                   {"opcode": "atom.global.add.u32", "warp_executions": 1},
                   {"opcode": "add.s32", "warp_executions": 99}]},
                   {"name": "_Z1bv", "kernel": True, "instructions": []},
                   {"name": "_Z1cv", "kernel": True, "instructions": []}]}
        with open(os.path.join(run, "emu-1-0.json"), "w") as f:
            json.dump(doc, f)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_per_launch_configuration(self):
        by = calibrate.launch_pairs(self.dataset, os.path.join(self.tmp, "modeled"))
        # _Z1av at grid 4: mean of 0.5 and 0.75 us against 2000 / 2 ns; at
        # grid 8 one launch each. _Z1bv: its complete configuration only;
        # _Z1cv: modeled twice, measured once; "other": not modeled.
        self.assertEqual(dict(by), {("prog", "a"): [(625.0, 1000.0), (2000.0, 3000.0)],
                                    ("prog", "b"): [(10.0, 1000.0)]})
        self.assertEqual(list(calibrate.launch_pairs(
            self.dataset, os.path.join(self.tmp, "modeled"), {"other"})), [])

    def test_sums_and_left_out(self):
        rows, skipped = calibrate.pair(self.dataset, os.path.join(self.tmp, "modeled"))
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual((r["program"], r["size_tag"], r["kernel"], r["launches"]),
                         ("prog", "small", "a", 3))
        self.assertAlmostEqual(r["measured_ns"], 5000.0)
        self.assertAlmostEqual(r["modeled_ns"], 3250.0)  # 0.5 + 0.75 + 2.0 us
        # sm__cycles_elapsed.max means x launches: 1500 x 2 + 4000.
        self.assertAlmostEqual(r["measured_cycles"], 7000.0)
        self.assertAlmostEqual(r["modeled_cycles"], 5200.0)
        self.assertAlmostEqual(r["modeled_launch_cycles"], 300.0)
        self.assertAlmostEqual(r["atomic_share"], 0.01)
        why = {(k, w.split(":")[0]) for _, _, k, w in skipped}
        self.assertEqual(why, {("_Z1bv", "measured incomplete"), ("_Z1cv", "launches differ"),
                               ("_Z1dv", "not modeled")})

    def test_split_file(self):
        p = os.path.join(self.tmp, "split.txt")
        with open(p, "w") as f:
            f.write("# comment\ntrain: a b\ntest: c\nderive: x a small k 0.5\n")
        s = calibrate.read_split(p)
        self.assertEqual(s["train"], {"a", "b"})
        self.assertEqual(s["test"], {"c"})
        self.assertEqual(s["derive"], [("x", "a", "small", "k", "0.5")])
        with open(p, "w") as f:
            f.write("train: a\ntest: a\n")
        with self.assertRaises(SystemExit):
            calibrate.read_split(p)

    def test_committed_split_covers_the_suite(self):
        # Every program of sizes.txt is on exactly one side; the derived
        # figures come from training programs only.
        s = calibrate.read_split(os.path.join(GPU, "calibration-split.txt"))
        programs = {p for p, _, _, _ in calibrate.read_sizes()}
        self.assertEqual(s["train"] | s["test"], programs)
        self.assertTrue(s["derive"])
        for spec in s["derive"]:
            self.assertIn(spec[1], s["train"])


def alive(pid):
    """Whether pid runs (a zombie, killed but not yet reaped by init, does
    not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class RunGroup(unittest.TestCase):
    def test_timeout_kills_the_program_too(self):
        # The shell (warpscope's place) starts a child (the program's) that
        # outlives it unless the whole group is killed.
        tmp = tempfile.mkdtemp(prefix="calib")
        pidfile = os.path.join(tmp, "pid")
        t0 = time.time()
        rc, _ = calibrate.run_group(
            ["sh", "-c", "sleep 30 & echo $! > %s; wait" % pidfile], 1)
        self.assertEqual(rc, "timeout")
        # Not waiting for the child to end by itself either.
        self.assertLess(time.time() - t0, 15)
        with open(pidfile) as f:
            pid = int(f.read())
        shutil.rmtree(tmp)
        time.sleep(0.2)
        self.assertFalse(alive(pid))

    def test_rc_output_and_missing_program(self):
        self.assertEqual(calibrate.run_group(["sh", "-c", "echo hi; exit 3"], 10), (3, "hi\n"))
        self.assertEqual(calibrate.run_group(["/nonexistent/warpscope"], 10)[0], "error")


class Fit(unittest.TestCase):
    def test_launch_overhead_recovers_a_known_cost(self):
        # Measured = modeled + 2000 ns per launch exactly: the fit finds it.
        rows = [dict(modeled_ns=m, measured_ns=m + 2000.0 * n, launches=n)
                for m, n in ((100.0, 1), (5000.0, 3), (40000.0, 2), (700.0, 10))]
        self.assertAlmostEqual(calibrate.fit_launch_overhead(rows), 2000.0, delta=1.0)
        self.assertAlmostEqual(calibrate.loss([dict(modeled_ns=math.e, measured_ns=1.0)]), 1.0)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Offline tests of benchmarks/gpu/derive_latency.py (ctest
benchmarks-calibrate; no GPU, no build): its reading of modeled and
measured cycles per launch configuration, and its fit on configurations
whose latency and fixed cost are known.

  cd benchmarks/gpu/testdata && python3 -m unittest -v test_derive_latency
"""
import csv
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import derive_latency  # noqa: E402
from test_calibrate import COLUMNS, dataset_row, launch  # noqa: E402


class Fit(unittest.TestCase):
    def test_known_latency_and_fixed_cost(self):
        # Configuration i holds b = 2 + 3 i DRAM latencies and a = 1000 + 50 i
        # other cycles; the GPU takes 700 cycles per latency plus 3000 fixed.
        points = {}
        for i in range(6):
            b, a = 2 + 3 * i, 1000 + 50 * i
            points[("g%d" % i, "b")] = (a + b * 480, a + b * 960, 3000 + a + b * 700)
        # One whose time does not depend on the latency: left out.
        points[("flat", "b")] = (900, 900, 50000)
        rows, (slope, icpt, r2), ts = derive_latency.fit(points, 480, 960)
        self.assertEqual(len(rows), 6)
        self.assertAlmostEqual(slope, 700)
        self.assertAlmostEqual(icpt, 3000)
        self.assertAlmostEqual(r2, 1.0)
        self.assertAlmostEqual(ts, 700)
        # The per-configuration counts come back as given.
        self.assertAlmostEqual(rows[0][1], 2)
        self.assertAlmostEqual(rows[0][2], 1000)

    def test_latency_off_the_critical_path_is_refused(self):
        # Every configuration holds as many latencies: no slope to fit.
        points = {("g%d" % i, "b"): (480 * 4 + i, 960 * 4 + i, 5000 + i) for i in range(5)}
        with self.assertRaises(SystemExit):
            derive_latency.fit(points, 480, 960)
        # Configurations without latency on their path are left out.
        points = {("g%d" % i, "b"): (100, 100, 200) for i in range(5)}
        with self.assertRaises(SystemExit):
            derive_latency.fit(points, 480, 960)


class Reading(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dlat")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_modeled_cycles_without_the_launch_cost(self):
        run = os.path.join(self.tmp, "run")
        os.makedirs(run)
        doc = {"launches": [launch("_Z1av", 4, 1000, 0.5), launch("_Z1av", 4, 1300, 0.7),
                            launch("_Z1av", 8, 3000, 2.0), launch("_Z1bv", 4, 50, 0.1)]}
        with open(os.path.join(run, "emu-1-0.json"), "w") as f:
            json.dump(doc, f)
        m = derive_latency.modeled_cycles(run, "a")
        # launch() puts 100 launch cycles in every launch.
        self.assertEqual(m, {((4, 1, 1), (256, 1, 1)): 1050.0,
                             ((8, 1, 1), (256, 1, 1)): 2900.0})

    def test_measured_cycles_and_clock(self):
        path = os.path.join(self.tmp, "times.csv")
        rows = [dataset_row("prog", "small", "_Z1av", 4, 2, 2000.0, 1600.0),
                dataset_row("prog", "small", "_Z1av", 8, 1, 3000.0, 4500.0),
                dataset_row("prog", "small", "_Z1av", 16, 1, 3000.0, ""),
                dataset_row("prog", "256", "_Z1av", 32, 1, 3000.0, 9.0),
                dataset_row("prog", "small", "_Z1bv", 4, 1, 1000.0, 1500.0)]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow(r)
        got, mhz = derive_latency.measured(path, "prog", "small", "a")
        self.assertEqual(got, {((4, 1, 1), (256, 1, 1)): 1600.0,
                               ((8, 1, 1), (256, 1, 1)): 4500.0})
        # 1600 cycles in 1000 ns and 4500 in 3000: median 1.55 per ns.
        self.assertAlmostEqual(mhz, 1550.0)


if __name__ == "__main__":
    unittest.main()

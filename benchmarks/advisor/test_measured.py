#!/usr/bin/env python3
"""Tests of evaluate.py --gpu (measured.py) and of ncu_csv.py's raw-page
reader.

GpuFixture reads the real H200 profiles committed in
test/fixtures/gpu/h200/advisor (measured 2026-11-27; see its README) and
checks the table against numbers computed here without measured.py or
ncu_csv.py: one pair's speedup from its CSV rows by hand, every pair's with
the csv module. The small CSVs of RawPage and Fabricated are FABRICATED
test inputs (made-up numbers), not results of any run.

usage: python3 -m unittest test_measured   (from benchmarks/advisor)
"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "gpu"))
import evaluate  # noqa: E402
import measured  # noqa: E402
import ncu_csv  # noqa: E402

FIXTURE = os.path.join(ROOT, "test", "fixtures", "gpu", "h200", "advisor")
EVALUATE = os.path.join(HERE, "evaluate.py")
# The pairs the H200 session measured (the manifest has grown since).
MEASURED = sorted(f[:-len("-advice.json")] for f in os.listdir(FIXTURE)
                  if f.endswith("-advice.json"))


def run_gpu(*args):
    return subprocess.run([sys.executable, EVALUATE] + list(args),
                          capture_output=True, text=True)


def table_row(table, optimizer):
    """The cells of the table's row for optimizer."""
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 1 and cells[1] == optimizer:
            return cells
    raise AssertionError("no row for %s in:\n%s" % (optimizer, table))


class GpuFixture(unittest.TestCase):
    """The committed H200 run (real measurements, not fabricated)."""

    @classmethod
    def setUpClass(cls):
        r = run_gpu("--gpu", FIXTURE, "--only", ",".join(MEASURED))
        cls.rc, cls.table = r.returncode, r.stdout
        assert r.stdout, r.stderr

    def test_register_increase_by_hand(self):
        # ncu-pairs.csv, gpu__time_duration.sum (ns) of _Z3mixPKfPfi, read
        # off the rows by eye: IDs 8 and 34 (register_increase.before,
        # rounds 1 and 2), 21 and 47 (register_increase.after).
        before, after = (18176, 18240), (5056, 4832)
        speedup = (sum(before) / 2) / (sum(after) / 2)
        cells = table_row(self.table, "register_increase")
        self.assertEqual(cells[2], "%.0f" % (sum(before) / 2))
        self.assertEqual(cells[3], "%.0f" % (sum(after) / 2))
        self.assertEqual(cells[4], "%.3fx" % speedup)
        self.assertEqual(cells[5], "%.3f, %.3f" % (before[0] / after[0],
                                                   before[1] / after[1]))
        # The estimate of the session's advice JSON (real samples), rank 1.
        with open(os.path.join(FIXTURE, "register_increase-advice.json")) as f:
            first = json.load(f)["advice"][0]
        self.assertEqual(first["optimizer"], "register_increase")
        est = first["estimated_speedup"]
        self.assertEqual(cells[6], "%.3fx" % est)
        self.assertEqual(cells[7], "1")
        self.assertEqual(cells[8], "%.1f%%" % (100 * abs(est - speedup) /
                                               speedup))

    def test_every_pair_and_the_geomean_independently(self):
        # The CSV read with the csv module alone: rows under the header
        # (after the units row), a process per program and round.
        with open(os.path.join(FIXTURE, "ncu-pairs.csv"), newline="") as f:
            lines = [l for l in f if l.startswith('"')]
        rows = list(csv.reader(lines))
        head = rows[0]
        self.assertEqual(rows[1][head.index("gpu__time_duration.sum")], "ns")
        times = {}
        for r in rows[2:]:
            rec = dict(zip(head, r))
            times.setdefault(rec["Process Name"], []).append(
                (rec["Kernel Name"], float(
                    rec["gpu__time_duration.sum"].replace(",", ""))))
        errors = []
        for p in evaluate.load_manifest(os.path.join(HERE, "manifest.json")):
            if p["name"] not in MEASURED:
                continue
            b = [t for k, t in times[p["name"] + ".before"]
                 if re.search(p["kernel"], k)]
            a = [t for k, t in times[p["name"] + ".after"]
                 if re.search(p["kernel"], k)]
            self.assertEqual((len(b), len(a)), (2, 2), p["name"])
            speedup = sum(b) / sum(a)
            cells = table_row(self.table, p["optimizer"])
            self.assertEqual(cells[4], "%.3fx" % speedup, p["name"])
            with open(os.path.join(FIXTURE, p["name"] + "-advice.json")) as f:
                advice = json.load(f)["advice"]
            est = next((x["estimated_speedup"] for x in advice
                        if x["optimizer"] == p["optimizer"]), None)
            if est is not None:
                errors.append(max(abs(est - speedup) / speedup, 1e-3))
        g = math.exp(sum(map(math.log, errors)) / len(errors))
        self.assertIn("Geomean error of the estimates from real samples vs "
                      "measured over %d pairs: %.1f%%" %
                      (len(errors), 100 * g), self.table)

    def test_plain_samples_dir_takes_counts_and_samples_apart(self):
        # GPA's hybrid mode: the instrumented run's profile and database,
        # the plain run's samples, cubins and listings, nothing else.
        with tempfile.TemporaryDirectory() as gpu:
            for d, names in (("p-inst", ["profile-7.json", "db-0a.json",
                                         "pcsamples-7.json", "emu-7-0.json"]),
                             ("p-plain", ["pcsamples-9.json", "cubin-1f.cubin",
                                          "cubin-1f.sass", "profile-9.json",
                                          "notes.txt"])):
                os.makedirs(os.path.join(gpu, d))
                for n in names:
                    open(os.path.join(gpu, d, n), "w").close()
            work = os.path.join(gpu, "work")
            d = measured.plain_samples_dir(gpu, "p", work)
            self.assertEqual(sorted(os.listdir(d)),
                             ["cubin-1f.cubin", "cubin-1f.sass", "db-0a.json",
                              "pcsamples-9.json", "profile-7.json"])
            os.remove(os.path.join(gpu, "p-plain", "pcsamples-9.json"))
            os.remove(os.path.join(gpu, "p-plain", "cubin-1f.cubin"))
            os.remove(os.path.join(gpu, "p-plain", "cubin-1f.sass"))
            self.assertIsNone(measured.plain_samples_dir(gpu, "q", work))
            self.assertIsNone(measured.plain_samples_dir(gpu, "p", work))

    def test_missing_inputs_and_exit_code(self):
        # The session's advice lacks memory-efficiency counts (an emulator
        # input): uncoalesced_access is skipped, so exit 4.
        cells = table_row(self.table, "uncoalesced_access")
        self.assertIn("advise skipped uncoalesced_access: no memory-"
                      "efficiency counts", cells[-1])
        self.assertEqual(self.rc, evaluate.EXIT_NO_MODELED)
        self.assertIn("Measured on NVIDIA H200", self.table)

    def test_modeled_columns(self):
        r = run_gpu("--gpu", FIXTURE, "--modeled",
                    os.path.join(FIXTURE, "modeled.json"),
                    "--only", "fast_math")
        with open(os.path.join(FIXTURE, "modeled.json")) as f:
            m = next(x for x in json.load(f) if x["name"] == "fast_math")
        cells = table_row(r.stdout, "fast_math")
        self.assertEqual(cells[9], "%.3fx" % m["achieved"])
        self.assertEqual(cells[10], "%.3fx" % m["estimated"])
        self.assertEqual(cells[11], "%d" % m["rank"])
        self.assertIn("estimates from modeled samples vs measured over 1 "
                      "pairs", r.stdout)


CSV_HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name",'
            '"gpu__time_duration.sum","sm__cycles_elapsed.max"\n')
CSV_UNITS = '"","","","","","ns","cycle"\n'


def launch(i, pid, proc, kernel, ns, cycles=100):
    return '"%d","%d","%s","h","%s","%s","%d"\n' % (i, pid, proc, kernel, ns,
                                                    cycles)


class Fabricated(unittest.TestCase):
    """FABRICATED CSVs: rounds, kernels and units."""

    PAIR = {"name": "p", "kernel": "work", "optimizer": "x", "tolerance": 0}

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-measured-test")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, text):
        path = os.path.join(self.dir, "ncu-pairs.csv")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_rounds_pair_in_order_and_other_kernels_are_left_out(self):
        path = self.write(
            "checksum 1\nPASS\n" + CSV_HEAD + CSV_UNITS +
            launch(0, 10, "p.before", "_Z4workv", "1,000") +
            launch(1, 10, "p.before", "_Z4initv", "9,999") +
            launch(2, 11, "p.after", "_Z4workv", "500") +
            launch(3, 12, "p.before", "_Z4workv", "1,200") +
            launch(4, 13, "p.after", "_Z4workv", "400"))
        _, procs = measured.kernel_times(path)
        row = {"notes": []}
        measured.measure(row, procs, self.PAIR)
        self.assertEqual(row["before_ns"], 1100)
        self.assertEqual(row["after_ns"], 450)
        self.assertEqual(row["rounds"], [2.0, 3.0])
        self.assertAlmostEqual(row["measured"], 1100 / 450)

    def test_microseconds_are_scaled(self):
        path = self.write(CSV_HEAD + CSV_UNITS.replace('"ns"', '"us"') +
                          launch(0, 1, "p.before", "_Z4workv", "3") +
                          launch(1, 2, "p.after", "_Z4workv", "1.5"))
        _, procs = measured.kernel_times(path)
        self.assertEqual(procs[("p.before", "1")], [("_Z4workv", 3000.0)])

    def test_a_missing_after_is_said(self):
        path = self.write(CSV_HEAD + CSV_UNITS +
                          launch(0, 1, "p.before", "_Z4workv", "3"))
        _, procs = measured.kernel_times(path)
        row = measured.gpu_row(self.PAIR, procs, None, [])
        self.assertTrue(row["measured_missing"])
        self.assertNotIn("measured", row)
        self.assertEqual(evaluate.exit_code([row]), evaluate.EXIT_NO_ADVISE)
        self.assertEqual(evaluate.exit_code([dict(row, advise_missing=False,
                                                  rank=1)]),
                         evaluate.EXIT_NO_MODELED)

    def test_unequal_rounds_are_said(self):
        path = self.write(CSV_HEAD + CSV_UNITS +
                          launch(0, 1, "p.before", "_Z4workv", "3") +
                          launch(1, 2, "p.after", "_Z4workv", "1") +
                          launch(2, 3, "p.after", "_Z4workv", "1"))
        _, procs = measured.kernel_times(path)
        row = {"notes": []}
        measured.measure(row, procs, self.PAIR)
        self.assertTrue(row["measured_missing"])
        self.assertIn("1 rounds of the before program, 2 of the after",
                      row["notes"][0])

    def test_no_units_row_is_refused(self):
        path = self.write(CSV_HEAD + launch(0, 1, "p.before", "_Z4workv", "3"))
        with self.assertRaisesRegex(ValueError, "no units row"):
            measured.kernel_times(path)


class RawPage(unittest.TestCase):
    """ncu_csv.raw on FABRICATED CSVs."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-ncu-raw-test")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, text):
        path = os.path.join(self.dir, "f.csv")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_units_and_launches(self):
        _, units, launches = ncu_csv.raw(self.write(
            "==PROF== Connected\n" + CSV_HEAD + CSV_UNITS +
            launch(0, 1, "a", "_Z1kv", "4,544", 7)))
        self.assertEqual(units["gpu__time_duration.sum"], "ns")
        self.assertEqual(units["Kernel Name"], "")
        self.assertEqual(len(launches), 1)
        self.assertEqual(ncu_csv.number(launches[0]["gpu__time_duration.sum"]),
                         4544.0)
        self.assertEqual(launches[0]["sm__cycles_elapsed.max"], "7")

    def test_details_page_is_refused(self):
        with self.assertRaisesRegex(ValueError, "details page"):
            ncu_csv.raw(os.path.join(ROOT, "test", "fixtures", "gpu", "ncu",
                                     "reduction.csv"))

    def test_ragged_row_is_refused(self):
        with self.assertRaisesRegex(ValueError, "row has 3 fields"):
            ncu_csv.raw(self.write(CSV_HEAD + CSV_UNITS + '"0","1","a"\n'))

    def test_no_csv(self):
        self.assertEqual(ncu_csv.raw(self.write("PASS\n")), ("PASS", {}, []))

    def test_unknown_time_unit(self):
        self.assertEqual(ncu_csv.nanoseconds(2, "us"), 2000)
        with self.assertRaisesRegex(ValueError, "unknown time unit"):
            ncu_csv.nanoseconds(2, "fortnight")


if __name__ == "__main__":
    unittest.main()

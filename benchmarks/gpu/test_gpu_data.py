"""Offline tests of the GPU session's scripts on real data (ctest gpu-data).

Reads what the H200 of 2026-11-27 measured: the overhead phase's runs and
NVML samples (docs/results/2026-11-27-h200/) and the SASS listings of both
builds (test/fixtures/gpu/h200/sass/). Each expectation is computed here by
another route than the script under test.
"""
import csv
import gzip
import io
import math
import os
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(ROOT, "docs", "results", "2026-11-27-h200")
SASS = os.path.join(ROOT, "test", "fixtures", "gpu", "h200", "sass")
sys.path.insert(0, HERE)

import approx_pack  # noqa: E402
import overhead_power  # noqa: E402
import sass_summary  # noqa: E402


def run_csv(main, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.csv")
        with redirect_stderr(io.StringIO()):
            main(args + ["--csv", out])
        return list(csv.DictReader(open(out)))


class SassSummary(unittest.TestCase):
    def test_counts_match_code_size(self):
        # sm_90 instructions are 16 bytes: a kernel's count is its last
        # offset / 16 + 1, read from the listing's address column.
        rows = {(r["program"], r["kernel"]): r
                for r in run_csv(sass_summary.main, [SASS])}
        for binary, col in (("reduction", "plain_sass"),
                            ("reduction.inst", "inst_sass")):
            text = gzip.open(os.path.join(
                SASS, binary, "reduction.1.sm_90.sass.gz"), "rt").read()
            for kernel in ("_Z14reduce_sum_f32PKflPf", "_Z14reduce_max_i32PKilPi"):
                body = text.split(".text.%s:" % kernel)[1].split("//----")[0]
                last = max(int(m, 16) for m in re.findall(r"/\*([0-9a-f]{4,})\*/", body))
                self.assertEqual(int(rows[("reduction", kernel)][col]), last // 16 + 1)

    def test_registers_and_probe_atomics(self):
        rows = {(r["program"], r["kernel"]): r
                for r in run_csv(sass_summary.main, [SASS])}
        r = rows[("md_neighbor", "_Z13md_build_listPK6float4PKiS3_S3_PiS4_i3Box")]
        usage = open(os.path.join(SASS, "md_neighbor.inst", "res-usage.txt")).read()
        regs = re.search(r"md_build_list\S*:\s*\n\s*REG:(\d+)", usage).group(1)
        self.assertEqual(r["inst_regs"], regs)
        text = gzip.open(os.path.join(SASS, "md_neighbor.inst",
                                      "md_neighbor.1.sm_90.sass.gz"), "rt").read()
        body = text.split(".text._Z13md_build_listPK6float4PKiS3_S3_PiS4_i3Box:")[1]
        body = body.split("//----")[0]
        self.assertEqual(int(r["red"]), len(re.findall(r"\bREDG?\.", body)))


class OverheadPower(unittest.TestCase):
    def test_overhead_is_the_time_ratio(self):
        runs = list(csv.DictReader(open(os.path.join(RESULTS, "overhead.csv"))))
        t = {(r["program"], r["variant"], r["size"], r["loading"]): float(r["time_ms"])
             for r in runs if r["pass"] == "1"}
        rows = run_csv(overhead_power.main, [RESULTS])
        large = [r for r in rows if r["size"] == "large"]
        self.assertEqual(len(large), 24)
        for r in large:
            want = t[(r["program"], "inst", "large", "eager")] / \
                t[(r["program"], "plain", "large", "eager")]
            self.assertAlmostEqual(float(r["overhead"]), want, places=3)

    def test_power_agrees_with_instant_samples(self):
        # histogram large runs 7.8 s: its energy-counter power must agree
        # with the mean of NVML's instantaneous power read in the section.
        rows = {(r["program"], r["size"]): r
                for r in run_csv(overhead_power.main, [RESULTS])}
        run = [r for r in csv.DictReader(open(os.path.join(RESULTS, "overhead.csv")))
               if r["program"] == "histogram" and r["size"] == "large"
               and r["variant"] == "plain"][0]
        s, e = int(run["section_start_ns"]), int(run["section_end_ns"])
        inst = [int(r["power_instant_mw"]) for r in csv.DictReader(
            gzip.open(os.path.join(RESULTS, "power.csv.gz"), "rt"))
            if s <= int(r["time_ns"]) <= e and r["power_instant_mw"]]
        mean_w = sum(inst) / len(inst) / 1000
        got = float(rows[("histogram", "large")]["plain_w"])
        self.assertLess(abs(got - mean_w) / mean_w, 0.03)
        self.assertGreater(int(rows[("histogram", "large")]["plain_windows"]), 70)


class ApproxPack(unittest.TestCase):
    def test_round_trip_and_damage(self):
        with tempfile.TemporaryDirectory() as d:
            data = b"".join(i.to_bytes(4, "little") for i in range(0x3f800000, 0x3f801000))
            open(os.path.join(d, "f.sweep1.bin"), "wb").write(data)
            open(os.path.join(d, "manifest.txt"), "w").write(
                "f.sweep1.bin f sweep 3f800000 4096 4\n")
            with redirect_stdout(io.StringIO()):
                approx_pack.pack(d)
            self.assertFalse(os.path.exists(os.path.join(d, "f.sweep1.bin")))
            self.assertEqual(approx_pack.read(d, "f.sweep1.bin", 4096, 4), data)
            with self.assertRaises(approx_pack.PackError):
                approx_pack.read(d, "f.sweep1.bin", 4097, 4)
            p = os.path.join(d, "f.sweep1.bin.xz")
            blob = bytearray(open(p, "rb").read())
            blob[len(blob) // 2] ^= 0xff
            open(p, "wb").write(bytes(blob))
            with self.assertRaises(approx_pack.PackError):
                approx_pack.read(d, "f.sweep1.bin", 4096, 4)


if __name__ == "__main__":
    unittest.main()

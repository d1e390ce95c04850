"""Offline tests of probe_cost.py, the probes' cost proxy (ctest
benchmarks-probe-cost). Nothing is built or run: the PTX reader and the
occupancy rules on hand-made inputs, the proxy's inputs against the H200's
SASS listings, and the committed tables against what the tool computes from
the committed features.
"""
import contextlib
import csv
import io
import os
import sys
import tempfile
import unittest
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COST = os.path.join(ROOT, "docs", "results", "2026-11-28-probe-cost")
H200 = os.path.join(ROOT, "docs", "results", "2026-11-27-h200")
sys.path.insert(0, HERE)

import probe_cost  # noqa: E402

PTX = """
.visible .entry k(
\t.param .u64 k_param_0
)
{
\t.reg .b32 %r<4>;
\tld.param.u64 %rd1, [k_param_0];
\tadd.s32 %r1, %r2, 1;
\t// begin inline asm
\t// ws:block 3
\t{
\t.reg .pred %wsp;
\tred.global.add.u64 [%rd1], 1;
\tpopc.b32 %r3, %r1;
\t}
\t// end inline asm
\t// begin inline asm
\tmov.u32 %r2, %laneid;
\t// end inline asm
\tcall.uni f;
\tret;
}
.func f()
{
\tadd.s32 %r1, %r1, 2;
\tret;
}
"""


class PtxReader(unittest.TestCase):
    def test_probe_and_program_instructions(self):
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write(PTX)
        try:
            own, calls = probe_cost.ptx_functions(f.name)
            # k: ld, add, the user's mov, call, ret; the ws: scope's 2.
            self.assertEqual(own["k"], [5, 2])
            self.assertEqual(own["f"], [2, 0])
            self.assertEqual(calls, {"k": {"f"}})
            # With its callee inlined (ptxas inlines f into k).
            self.assertEqual(probe_cost.ptx_static(f.name)["k"], (7, 2))
        finally:
            os.unlink(f.name)


class Occupancy(unittest.TestCase):
    def test_cuda_occupancy_rules(self):
        # 256-thread blocks: 64 warps per SM up to 32 registers, 2 blocks
        # (16 warps) at 128, 1 block at 194 (the H200's md_build_list).
        self.assertEqual(probe_cost.occupancy_warps(256, 32, 0), 64)
        self.assertEqual(probe_cost.occupancy_warps(256, 128, 0), 16)
        self.assertEqual(probe_cost.occupancy_warps(256, 194, 0), 8)
        # Shared memory: 100 KiB per block leaves two blocks.
        self.assertEqual(probe_cost.occupancy_warps(128, 16, 100 * 1024), 8)


class KernelRatio(unittest.TestCase):
    ROW = {"plain_cycles": "1000", "inst_cycles": "1500", "plain_sass": "100",
           "plain_ptx": "50", "inst_sass": "300", "inst_ptx_probe": "50",
           "plain_regs": "32", "inst_regs": "32", "plain_smem": "0",
           "inst_smem": "0", "launches": "256/1000/0"}

    def test_sass_pricing(self):
        # e_prog 2, e_probe 4: the modeled extra 0.5 counts twice.
        issue, occ = probe_cost.kernel_ratio(self.ROW, "large", 64, 0.35)
        self.assertAlmostEqual(issue, 2.0)
        self.assertAlmostEqual(occ, 1.0)

    def test_registers_cost_occupancy(self):
        row = dict(self.ROW, inst_regs="128")
        _, occ = probe_cost.kernel_ratio(row, "large", 64, 0.5)
        self.assertAlmostEqual(occ, 2.0)  # 64 -> 16 warps, to the power 0.5
        # A grid too small to fill the SMs at either count: no cost.
        row["launches"] = "256/10/0"
        _, occ = probe_cost.kernel_ratio(row, "small", 64, 0.5)
        self.assertAlmostEqual(occ, 1.0)


class Data(unittest.TestCase):
    def test_features_match_gpu_listings(self):
        # The local ptxas gives the H200's nvdisasm counts (a4a7785).
        feats = list(csv.DictReader(open(os.path.join(COST, "features-a4a7785.csv"))))
        gpu = {(r["program"], r["kernel"]): r for r in
               csv.DictReader(open(os.path.join(H200, "sass-static.csv")))}
        self.assertEqual(len(feats), 52)
        for r in feats:
            g = gpu[(r["program"], r["kernel"])]
            for col in ("plain_sass", "inst_sass", "inst_regs"):
                self.assertEqual(int(r[col]), int(g[col]), (r["kernel"], col))

    def run_tool(self, fn, **kw):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            fn(SimpleNamespace(**kw))
        return out.getvalue()

    def test_committed_tables(self):
        m = os.path.join(H200, "overhead-power.csv")
        cases = [
            ("check-h200-small.md", probe_cost.model,
             dict(features=os.path.join(COST, "features-a4a7785.csv"), fit=False,
                  calib=None, measured=m, size="small", json=None)),
            ("proxy-3ebef1b-large.md", probe_cost.model,
             dict(features=os.path.join(COST, "features-3ebef1b.csv"), fit=False,
                  calib=None, measured=None, size="large", json=None)),
            ("compare.md", probe_cost.compare,
             dict(before=os.path.join(COST, "features-a4a7785.csv"),
                  after=os.path.join(COST, "features-3ebef1b.csv"))),
        ]
        for name, fn, kw in cases:
            self.assertEqual(self.run_tool(fn, **kw),
                             open(os.path.join(COST, name)).read(), name)


if __name__ == "__main__":
    unittest.main()

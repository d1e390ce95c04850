#!/usr/bin/env python3
"""Offline tests of the H200 timing-model data scripts (ctest
benchmarks-model-truth; no GPU, no build):

  cd benchmarks/gpu/testdata && python3 -m unittest -v test_model_truth

model_truth.py on the real H200 raw pages in test/fixtures/gpu/h200/ncu
(hotspot, reduction and gaussian at size small; README.md there) against
values worked out by hand from the raw counters (quoted below) and against
an independent reading of the same CSVs with the csv module; model_compare.py
join against the modeled runs in test/fixtures/gpu/h200/modeled: every
measured kernel and launch finds its modeled partner, and a dropped kernel
is reported; make_dataset.py and model_truth.py rebuild the committed H200
data files byte for byte, and the H100 dataset stays as it was.
"""
import contextlib
import csv
import glob
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(GPU))
FIX = os.path.join(ROOT, "test", "fixtures", "gpu", "h200")
NCU = os.path.join(FIX, "ncu")
MODELED = os.path.join(FIX, "modeled")
DATA = os.path.join(ROOT, "benchmarks", "data")
sys.path.insert(0, GPU)
import model_compare  # noqa: E402
import model_truth  # noqa: E402


def text(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return f.read()


def raw_launches(name):
    """The fixture's launches read with the csv module alone."""
    lines = text(os.path.join(NCU, name + ".csv.gz")).splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    table = list(csv.reader(lines[start:]))
    return [dict(zip(table[0], r)) for r in table[2:]]  # table[1]: units


def val(launch, metric):
    return float(launch[metric].replace(",", ""))


def truth():
    rows, runs = model_truth.truth_rows(NCU)
    return rows, runs


def row_of(rows, program, kernel_part, grid_x):
    got = [r for r in rows if r["program"] == program and kernel_part in r["kernel"]
           and r["grid_x"] == grid_x]
    assert len(got) == 1, (program, kernel_part, grid_x, len(got))
    return got[0]


class TruthTable(unittest.TestCase):
    def test_sectors_per_request_by_hand(self):
        # hotspot small, hotspot_step grid 7x7: its 4 launches each have
        # l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 5,022 and
        # l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum 1,624:
        # 20,088 / 6,496 = 3.0924.
        rows, _ = truth()
        r = row_of(rows, "hotspot", "hotspot_step", "7")
        self.assertEqual(r["launches"], 4)
        self.assertEqual(r["gld_sectors_sum"], "20088")
        self.assertEqual(r["gld_requests_sum"], "6496")
        self.assertEqual(r["gld_sectors_per_request"], "3.092")
        # The same from the raw page read here.
        ls = raw_launches("hotspot-small")
        s = sum(val(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") for l in ls)
        q = sum(val(l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") for l in ls)
        self.assertEqual(r["gld_sectors_per_request"], "%.3f" % (s / q))
        # Stores: sectors / requests of the same launches.
        s = sum(val(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") for l in ls)
        q = sum(val(l, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") for l in ls)
        self.assertEqual(r["gst_sectors_per_request"], "%.3f" % (s / q))

    def test_time_and_l2_hit_by_hand(self):
        # Times 3,680, 3,584, 3,680, 3,616 ns: median 3,648.0. L2 hit rates
        # 72.94, 80.30, 75.11, 74.69 % over 12,353, 12,344, 13,040, 12,925
        # sectors: 3,837,053.7 / 50,662 = 75.74 %.
        rows, _ = truth()
        r = row_of(rows, "hotspot", "hotspot_step", "7")
        self.assertEqual(r["time_ns_median"], "3648.0")
        self.assertEqual(r["time_ns_sum"], "14560")
        self.assertEqual(r["l2_sectors_sum"], "50662")
        self.assertEqual(r["l2_hit_rate_pct"], "75.74")
        self.assertEqual(r["shared_ld_conflicts_sum"], str(4 * 1488))

    def test_stall_share_by_hand(self):
        # reduction small, reduce_sum_f32 grid 1 (one launch): the 19
        # WarpStateStats ratios sum to 15.96; barrier 6.50 -> 0.4073, the
        # top reason; selected 1 -> 0.0627.
        rows, _ = truth()
        r = row_of(rows, "reduction", "reduce_sum_f32", "1")
        self.assertEqual(r["stall_top"], "barrier")
        self.assertEqual(r["stall_barrier_share"], "0.4073")
        self.assertEqual(r["stall_selected_share"], "0.0627")
        self.assertEqual(r["warp_cycles_per_issue"], "15.96")
        shares = [float(r["stall_%s_share" % s]) for s in model_truth.STALLS]
        self.assertAlmostEqual(sum(shares), 1.0, delta=1e-3)

    def test_configurations_and_completeness(self):
        rows, runs = truth()
        # One row per (kernel, grid, block) of the raw pages, launches summed.
        for name in ("hotspot-small", "reduction-small", "gaussian-small"):
            program = name.split("-")[0]
            ls = raw_launches(name)
            keys = {(l["Kernel Name"], l["Grid Size"], l["Block Size"]) for l in ls}
            mine = [r for r in rows if r["program"] == program]
            self.assertEqual(len(mine), len(keys), name)
            self.assertEqual(sum(r["launches"] for r in mine), len(ls), name)
        # gaussian small launches 126 kernels; ncu stopped at its 60.
        by = {(p, s): (n, lim) for p, s, n, lim, _ in runs}
        self.assertEqual(by[("gaussian", "small")], (60, 60))
        for r in rows:
            self.assertEqual(r["run_complete"], 0 if r["program"] == "gaussian" else 1,
                             r["program"])


class Join(unittest.TestCase):
    def join(self, modeled_dir):
        out = tempfile.mkdtemp(prefix="ws-join-")
        self.addCleanup(shutil.rmtree, out)
        kpath, cpath = os.path.join(out, "k.csv"), os.path.join(out, "c.csv")
        args = ["join", NCU, modeled_dir, "--kernels", kpath, "--configs", cpath, "--check"]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            sys.argv = ["model_compare.py"] + args
            rc = model_compare.main()
        krows = list(csv.DictReader(io.StringIO(text(kpath)))) if os.path.exists(kpath) else []
        crows = list(csv.DictReader(io.StringIO(text(cpath)))) if os.path.exists(cpath) else []
        return rc, krows, crows, err.getvalue()

    def test_every_kernel_and_launch_paired(self):
        rc, krows, crows, err = self.join(MODELED)
        self.assertEqual((rc, err), (0, ""))
        for name in ("hotspot-small", "reduction-small", "gaussian-small"):
            program = name.split("-")[0]
            ls = raw_launches(name)
            kernels = {l["Kernel Name"] for l in ls}
            self.assertEqual({r["kernel"] for r in krows if r["program"] == program},
                             kernels, name)
            # Every measured launch paired, per configuration.
            for k in kernels:
                n = sum(int(r["paired"]) for r in crows
                        if r["program"] == program and r["kernel"] == k)
                self.assertEqual(n, sum(l["Kernel Name"] == k for l in ls), (name, k))
            # Launches per configuration: ncu's on both sides.
            for r in crows:
                if r["program"] != program:
                    continue
                g = "(%s)" % r["grid"].replace("x", ", ")
                want = sum(l["Kernel Name"] == r["kernel"] and l["Grid Size"] == g
                           for l in ls)
                self.assertEqual(int(r["paired"]), want, (name, r["kernel"], g))
        # gaussian: ncu stopped at 60 of the 126 launches the emulator ran.
        g = [r for r in krows if r["program"] == "gaussian"]
        self.assertEqual(sorted((r["ncu_launches"], r["modeled_launches"]) for r in g),
                         [("30", "63"), ("30", "63")])
        self.assertTrue(all(r["complete"] == "0" for r in g))

    def test_instructions_beside_inst_executed(self):
        # Fixtures from before the model wrote its instruction count: the
        # columns stay empty.
        rc, krows, _, err = self.join(MODELED)
        self.assertEqual((rc, err), (0, ""))
        self.assertTrue(all(r["modeled_inst"] == r["ratio_inst"] == "" for r in krows))
        # With 1000 per modeled launch: the paired launches' sum against
        # ncu's inst_executed of the same launches, read with csv alone.
        tmp = tempfile.mkdtemp(prefix="ws-inst-")
        self.addCleanup(shutil.rmtree, tmp)
        for d in ("hotspot-small", "reduction-small", "gaussian-small"):
            shutil.copytree(os.path.join(MODELED, d), os.path.join(tmp, d))
            shutil.copy(os.path.join(MODELED, d + ".out"), tmp)
            for path in glob.glob(os.path.join(tmp, d, "emu-*.json")):
                j = json.loads(text(path))
                for l in j["launches"]:
                    l["modeled"]["instructions"] = 1000
                with open(path, "w") as f:
                    json.dump(j, f)
        rc, krows, _, err = self.join(tmp)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(len(krows), 5)  # hotspot 1, reduction 2, gaussian 2
        for r in krows:
            ls = [l for l in raw_launches("%s-small" % r["program"])
                  if l["Kernel Name"] == r["kernel"]]
            measured = sum(val(l, "smsp__inst_executed.sum") for l in ls)
            self.assertEqual(int(r["measured_inst"]), measured, r["kernel"])
            self.assertEqual(int(r["modeled_inst"]), 1000 * int(r["paired"]), r["kernel"])
            self.assertAlmostEqual(float(r["ratio_inst"]),
                                   1000 * int(r["paired"]) / measured, places=4)

    def test_dropped_kernel_is_reported(self):
        tmp = tempfile.mkdtemp(prefix="ws-drop-")
        self.addCleanup(shutil.rmtree, tmp)
        for d in ("hotspot-small", "reduction-small", "gaussian-small"):
            shutil.copytree(os.path.join(MODELED, d), os.path.join(tmp, d))
            shutil.copy(os.path.join(MODELED, d + ".out"), tmp)
        path = glob.glob(os.path.join(tmp, "reduction-small", "emu-*.json"))[0]
        j = json.loads(text(path))
        j["launches"] = [l for l in j["launches"] if "reduce_max" not in l["kernel"]]
        with open(path, "w") as f:
            json.dump(j, f)
        rc, krows, _, err = self.join(tmp)
        self.assertEqual(rc, 1)
        self.assertIn("reduction-small: kernel _Z14reduce_max_i32PKilPi measured but never modeled",
                      err)
        self.assertNotIn("_Z14reduce_max_i32PKilPi", {r["kernel"] for r in krows})

    def test_exact_counts_summed_independently(self):
        # reduction small: ours = the ground truth's global_sectors of every
        # ld.global of reduce_sum_f32, ncu's = the raw page's sum; both 4,100.
        _, krows, _, _ = self.join(MODELED)
        r = [x for x in krows if x["kernel"] == "_Z14reduce_sum_f32PKflPf"][0]
        j = json.loads(text(glob.glob(os.path.join(MODELED, "reduction-small", "emu-*.json"))[0]))
        f = [f for f in j["functions"] if f["name"] == "_Z14reduce_sum_f32PKflPf"][0]
        ours = sum(i.get("global_sectors", 0) for i in f["instructions"]
                   if i["opcode"].startswith("ld."))
        theirs = sum(val(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
                     for l in raw_launches("reduction-small")
                     if l["Kernel Name"] == "_Z14reduce_sum_f32PKflPf")
        self.assertEqual((int(r["ours_gld_sectors"]), int(r["ncu_gld_sectors"])),
                         (ours, int(theirs)))
        self.assertEqual(ours, 4100)


class CommittedData(unittest.TestCase):
    def run_py(self, *args):
        return subprocess.run([sys.executable] + list(args), capture_output=True,
                              text=True, check=True, cwd=ROOT).stdout

    def test_h200_kernel_times_rebuild(self):
        tmp = tempfile.mkdtemp(prefix="ws-h200-")
        self.addCleanup(shutil.rmtree, tmp)
        head = text(os.path.join(DATA, "2026-11-27-h200-kernel-times.csv"))
        phase = [l for l in head.splitlines() if l.startswith("#   (benchmarks/gpu/session.sh times")][0]
        out = os.path.join(tmp, "h200.csv")
        self.run_py("benchmarks/gpu/make_dataset.py", "benchmarks/data/2026-11-27-h200/times",
                    "--features", "benchmarks/data/2026-11-23-h100", "--device", "NVIDIA H200",
                    "--ncu-limit", "5000", "--phase-command", phase[4:], "-o", out)
        self.assertEqual(text(out), head)
        rows = list(csv.DictReader(l for l in head.splitlines() if not l.startswith("#")))
        self.assertTrue(all(r["device"] == "NVIDIA H200" for r in rows))
        notes = {r["note"] for r in rows if r["program"] == "gaussian" and r["size_tag"] == "large-1"}
        self.assertEqual(notes, {"", "ncu-cut-short-at-1757"})
        # The H100 dataset is unchanged by the new options.
        out = os.path.join(tmp, "h100.csv")
        self.run_py("benchmarks/gpu/make_dataset.py", "benchmarks/data/2026-11-23-h100", "-o", out)
        self.assertEqual(text(out), text(os.path.join(DATA, "2026-11-23-h100-kernel-times.csv")))

    def test_h200_truth_table_rebuild(self):
        tmp = tempfile.mkdtemp(prefix="ws-truth-")
        self.addCleanup(shutil.rmtree, tmp)
        out = os.path.join(tmp, "truth.csv")
        self.run_py("benchmarks/gpu/model_truth.py", "benchmarks/data/2026-11-27-h200/model",
                    "-o", out)
        self.assertEqual(text(out), text(os.path.join(DATA, "2026-11-27-h200-model-truth.csv")))


if __name__ == "__main__":
    unittest.main()

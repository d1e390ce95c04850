#!/usr/bin/env python3
"""Unit tests of evaluate.py's parsing, table and exit-code logic, and of
the manifest and pairs as committed.

The emu-*.json files, advice documents and rows below are FABRICATED test
inputs (made-up numbers), not results of any run.

usage: python3 -m unittest test_evaluate   (from benchmarks/advisor)
"""
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402


def fabricated_truth(launches):
    """A FABRICATED emu-*.json body with the given launches."""
    return {"schema": "warpscope-emu/1", "module": "fake.ptx",
            "functions": [], "launches": launches}


class ModeledCycles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-eval-test")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, body):
        with open(os.path.join(self.dir, name), "w") as f:
            json.dump(body, f)

    def test_sums_the_matching_kernels_launches(self):
        self.write("emu-1-0.json", fabricated_truth([
            {"kernel": "_Z8classifyPKfPfii", "modeled": {"cycles": 1000}},
            {"kernel": "_Z5otherv", "modeled": {"cycles": 77}},
            {"kernel": "_Z8classifyPKfPfii", "modeled": {"cycles": 500}}]))
        self.assertEqual(evaluate.modeled_cycles(self.dir, "classify"),
                         (1500, ""))

    def test_missing_modeled_time_is_said(self):
        self.write("emu-1-0.json", fabricated_truth([
            {"kernel": "_Z8classifyPKfPfii", "grid": [1, 1, 1]}]))
        cycles, why = evaluate.modeled_cycles(self.dir, "classify")
        self.assertIsNone(cycles)
        self.assertIn("modeled time not available", why)

    def test_no_ground_truth(self):
        cycles, why = evaluate.modeled_cycles(self.dir, "classify")
        self.assertIsNone(cycles)
        self.assertIn("no emu-*.json", why)

    def test_no_matching_kernel(self):
        self.write("emu-1-0.json", fabricated_truth([
            {"kernel": "_Z5otherv", "modeled": {"cycles": 77}}]))
        cycles, why = evaluate.modeled_cycles(self.dir, "classify")
        self.assertIsNone(cycles)
        self.assertIn("no launch", why)


class Advice(unittest.TestCase):
    # FABRICATED advice document.
    DOC = {"schema": "warpscope-advice/1", "advice": [
        {"optimizer": "loop_unrolling", "kernel": "_Z3firPKfS0_Pfi",
         "estimated_speedup": 1.4},
        {"optimizer": "divergence", "kernel": "_Z5otherv",
         "estimated_speedup": 1.9},
        {"optimizer": "divergence", "kernel": "_Z8classifyPKfPfii",
         "estimated_speedup": 1.25}]}

    def test_rank_is_the_first_entry_for_the_kernel(self):
        self.assertEqual(evaluate.rank_of(self.DOC, "divergence", "classify"),
                         (3, 1.25))

    def test_folded_optimizer_takes_the_items_rank_and_its_own_estimate(self):
        doc = {"schema": "warpscope-advice/1", "advice": [
            {"optimizer": "fast_math", "kernel": "_Z5scalePfi",
             "estimated_speedup": 1.5},
            {"optimizer": "global_memory_access_adjustment",
             "kernel": "_Z5scalePfi", "estimated_speedup": 1.3,
             "also_found_by": [{"optimizer": "uncoalesced_access",
                                "estimated_speedup": 1.2}]}]}
        self.assertEqual(evaluate.rank_of(doc, "uncoalesced_access", "scale"),
                         (2, 1.2))

    def test_absent_optimizer(self):
        self.assertEqual(evaluate.rank_of(self.DOC, "fast_math", "classify"),
                         (None, None))

    def test_skipped_optimizer_names_its_missing_inputs(self):
        doc = dict(self.DOC, skipped=[
            {"optimizer": "fast_math", "missing": ["PC samples"]}])
        self.assertEqual(evaluate.skipped_for(doc, "fast_math"),
                         ["PC samples"])
        self.assertIsNone(evaluate.skipped_for(doc, "divergence"))
        self.assertIsNone(evaluate.skipped_for(self.DOC, "fast_math"))

    def test_other_schema_is_refused(self):
        with self.assertRaises(ValueError):
            evaluate.rank_of({"schema": "warpscope-advice/2", "advice": []},
                             "divergence", "classify")


class Numbers(unittest.TestCase):
    def test_relative_error(self):
        self.assertAlmostEqual(evaluate.relative_error(1.1, 1.0), 0.1)
        self.assertAlmostEqual(evaluate.relative_error(1.5, 2.0), 0.25)

    def test_geomean_floors_zero(self):
        self.assertAlmostEqual(evaluate.geomean([0.1, 0.4]), 0.2)
        self.assertAlmostEqual(evaluate.geomean([0.0, 0.1]), 0.01)
        self.assertIsNone(evaluate.geomean([]))

    def test_checksums(self):
        self.assertEqual(evaluate.parse_checksum("checksum 1.5e+03\nPASS\n"),
                         1500.0)
        self.assertIsNone(evaluate.parse_checksum("checksum 1.5e+03\nFAIL\n"))
        self.assertTrue(evaluate.checksums_agree(1.0, 1.0 + 1e-7, 1e-6))
        self.assertFalse(evaluate.checksums_agree(1.0, 1.01, 1e-3))
        self.assertFalse(evaluate.checksums_agree(float("inf"),
                                                  float("inf"), 1e-6))


class Table(unittest.TestCase):
    # FABRICATED rows.
    ROWS = [
        {"kernel": "classify", "optimizer": "divergence", "original": 12000,
         "achieved": 1.6, "estimated": 1.76, "rank": 1, "notes": [],
         "estimate_kind": "formula",
         "error": evaluate.relative_error(1.76, 1.6)},
        {"kernel": "fir", "optimizer": "loop_unrolling", "rank": None,
         "modeled_missing": True, "advise_missing": True,
         "notes": ["modeled time not available"]}]

    def test_table_shape_and_geomean(self):
        t = evaluate.render_table(self.ROWS)
        self.assertIn("| kernel | optimization | original time (modeled "
                      "cycles) | achieved | estimated | error |", t)
        self.assertIn("| classify | divergence | 12000 | 1.600x | 1.760x | "
                      "10.0% | 1 | formula | 1.10 |  |", t)
        self.assertIn("| fir | loop_unrolling | - | - | - | - | - | - | - | "
                      "modeled time not available |", t)
        self.assertIn("Geomean error over 1 pairs: 10.0%", t)
        self.assertIn("In the top 5: 1 of 2 pairs", t)
        self.assertIn("Largest factor off the achieved speedup: 1.10; more "
                      "than 1.5x off: 0", t)
        # Per optimizer kind: pairs, pairs with an estimate, their errors.
        self.assertIn("| divergence | 1 | 1 | 10.0% | 10.0% |", t)
        self.assertIn("| loop_unrolling | 1 | 0 | - | - |", t)

    def test_factor_off_counts_both_directions(self):
        # FABRICATED: estimated 1.0x against 1.6x achieved is 1.6x off.
        rows = [dict(self.ROWS[0], estimated=1.0,
                     error=evaluate.relative_error(1.0, 1.6))]
        t = evaluate.render_table(rows)
        self.assertIn("more than 1.5x off: 1", t)
        self.assertAlmostEqual(evaluate.times_off(1.0, 1.6), 1.6)
        self.assertAlmostEqual(evaluate.times_off(2.4, 1.6), 1.5)

    def test_estimate_kind(self):
        # FABRICATED advice: a re-simulated item and a folded formula.
        doc = {"schema": evaluate.ADVICE_SCHEMA, "advice": [
            {"optimizer": "occupancy_limiter", "kernel": "_Z1kv",
             "estimated_speedup": 1.5, "estimate_kind": "re-simulated",
             "also_found_by": [{"optimizer": "x", "estimated_speedup": 1.2}]}]}
        self.assertEqual(evaluate.estimate_kind_of(doc, "occupancy_limiter",
                                                   "k"), "re-simulated")
        self.assertEqual(evaluate.estimate_kind_of(doc, "x", "k"), "formula")
        self.assertIsNone(evaluate.estimate_kind_of(doc, "y", "k"))

    def test_no_numbers_no_geomean(self):
        t = evaluate.render_table(self.ROWS[1:])
        self.assertIn("Geomean error: not computed", t)

    def test_exit_codes(self):
        ok = dict(self.ROWS[0])
        self.assertEqual(evaluate.exit_code([ok]), evaluate.EXIT_OK)
        self.assertEqual(evaluate.exit_code([ok, dict(ok, rank=6)]),
                         evaluate.EXIT_NOT_IN_TOP)
        self.assertEqual(evaluate.exit_code([dict(ok, rank=None)]),
                         evaluate.EXIT_NOT_IN_TOP)
        self.assertEqual(evaluate.exit_code([ok, self.ROWS[1]]),
                         evaluate.EXIT_NO_ADVISE)
        self.assertEqual(evaluate.exit_code(
            [dict(ok, modeled_missing=True)]), evaluate.EXIT_NO_MODELED)
        self.assertEqual(evaluate.exit_code(
            [ok, dict(ok, rank=None, inputs_missing=True)]),
            evaluate.EXIT_NO_MODELED)
        self.assertEqual(evaluate.exit_code([self.ROWS[1], {"failed": True}]),
                         evaluate.EXIT_FAILED)


class CommittedPairs(unittest.TestCase):
    """The manifest and pairs as committed (not fabricated)."""

    def setUp(self):
        self.pairs = evaluate.load_manifest(
            os.path.join(evaluate.HERE, "manifest.json"))

    def test_enough_pairs_and_optimizers(self):
        self.assertGreaterEqual(len(self.pairs), 12)
        ids = {p["optimizer"] for p in self.pairs}
        self.assertGreaterEqual(len(ids), 10)
        for must in ("divergence", "uncoalesced_access", "bank_conflicts",
                     "occupancy_limiter"):
            self.assertIn(must, ids)

    def test_each_pair_differs_in_one_marked_line(self):
        for p in self.pairs:
            d = os.path.join(evaluate.HERE, "pairs", p["name"])
            with open(os.path.join(d, "before.cu")) as f:
                before = f.read().splitlines()
            with open(os.path.join(d, "after.cu")) as f:
                after = f.read().splitlines()
            self.assertEqual(len(before), len(after), p["name"])
            diff = [(b, a) for b, a in zip(before, after) if b != a]
            # The header's "before:"/"after:" comment, and the change.
            code = [x for x in diff if not x[0].startswith("// before:")]
            self.assertEqual(len(code), 1, p["name"])
            self.assertTrue(code[0][0].endswith("// CHANGE"), p["name"])
            self.assertTrue(code[0][1].endswith("// CHANGE"), p["name"])


# A FABRICATED `warpscope`: `run ... -o DIR -- EXE` prints a checksum and
# writes an emu-*.json whose modeled cycles depend on EXE's name (before
# 3000, after 1000; any other name fails); `advise DIR` prints advice only
# for a run of p.before.inst.
FAKE_WS = r"""#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
if a[0] == "run":
    out, exe = a[a.index("-o") + 1], a[a.index("--") + 1]
    cycles = {"p.before": 3000, "p.after": 1000,
              "p.before.inst": 3000}.get(os.path.basename(exe))
    if cycles is None:
        sys.exit("no such program %s" % exe)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "emu-1-0.json"), "w") as f:
        json.dump({"launches": [{"kernel": "_Z4workv",
                                 "modeled": {"cycles": cycles}}]}, f)
    with open(os.path.join(out, "program"), "w") as f:
        f.write(os.path.basename(exe))
    print("checksum 1.0\nPASS")
elif a[0] == "advise":
    with open(os.path.join(a[1], "program")) as f:
        inst = f.read() == "p.before.inst"
    print(json.dumps({"schema": "warpscope-advice/1", "advice": [
        {"optimizer": "x", "kernel": "_Z4workv",
         "estimated_speedup": 2.5}] if inst else []}))
"""


class Binaries(unittest.TestCase):
    """--binaries: prebuilt programs instead of builds (FABRICATED
    warpscope and programs)."""

    PAIR = {"name": "p", "optimizer": "x", "kernel": "work", "tolerance": 0}

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-eval-bin")
        self.ws = os.path.join(self.dir, "warpscope")
        with open(self.ws, "w") as f:
            f.write(FAKE_WS)
        os.chmod(self.ws, 0o755)
        self.bins = os.path.join(self.dir, "bins")
        os.makedirs(self.bins)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_runs_the_prebuilt_programs(self):
        for tag in ("before", "after", "before.inst"):
            open(os.path.join(self.bins, "p." + tag), "w").close()
        row = evaluate.evaluate_pair(self.ws, self.PAIR,
                                     os.path.join(self.dir, "work"), False,
                                     binaries=self.bins)
        self.assertFalse(row.get("failed"), row["notes"])
        self.assertEqual(row["original"], 3000)
        self.assertEqual(row["achieved"], 3.0)
        self.assertEqual((row["rank"], row["estimated"]), (1, 2.5))

    def test_a_missing_program_fails_the_pair(self):
        open(os.path.join(self.bins, "p.before"), "w").close()
        row = evaluate.evaluate_pair(self.ws, self.PAIR,
                                     os.path.join(self.dir, "work"), False,
                                     binaries=self.bins)
        self.assertTrue(row["failed"])
        self.assertIn("p.after not found", row["notes"][0])


class BadManifest(unittest.TestCase):
    def test_duplicate_and_missing_fields(self):
        d = tempfile.mkdtemp(prefix="ws-eval-test")
        try:
            path = os.path.join(d, "m.json")
            pair = {"name": "a", "optimizer": "x", "kernel": "k",
                    "tolerance": 0}
            for body, what in (
                    ({"schema": "other", "pairs": [pair]}, "schema"),
                    ({"schema": "warpscope-advisor-pairs/1",
                      "pairs": [pair, pair]}, "twice"),
                    ({"schema": "warpscope-advisor-pairs/1",
                      "pairs": [{"name": "a"}]}, "no 'optimizer'")):
                with open(path, "w") as f:
                    json.dump(body, f)
                with self.assertRaisesRegex(ValueError, re.escape(what)):
                    evaluate.load_manifest(path)
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()

"""wsrun.py, the one Python reader of a run directory: which files are of
which kind, their order, the flattened launches, functions and PC samples,
the pruning, and the error for an unreadable file."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wsrun  # noqa: E402


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))


def truth_doc(module, kernels):
    return {"module": module,
            "launches": [{"kernel": k, "grid": [1, 1, 1], "block": [32, 1, 1]}
                         for k in kernels],
            "functions": [{"name": k, "kernel": True, "instructions": []}
                          for k in kernels]}


class RunDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_truth_in_module_load_order(self):
        # Module 10 follows module 9 (a name sort would put it second), and
        # a lower pid comes first.
        write(self.d, "emu-77-10.json", truth_doc("m10", ["k10"]))
        write(self.d, "emu-77-9.json", truth_doc("m9", ["k9a", "k9b"]))
        write(self.d, "emu-8-0.json", truth_doc("p8", ["k0"]))
        self.assertEqual([doc["module"] for _, doc in wsrun.truth(self.d)],
                         ["p8", "m9", "m10"])
        self.assertEqual([l["kernel"] for _, l in wsrun.launches(self.d)],
                         ["k0", "k9a", "k9b", "k10"])
        self.assertEqual([f["name"] for _, f in wsrun.functions(self.d)],
                         ["k0", "k9a", "k9b", "k10"])
        path, _ = wsrun.launches(self.d)[1]
        self.assertEqual(os.path.basename(path), "emu-77-9.json")

    def test_kinds_do_not_mix(self):
        write(self.d, "emu-1-0.json", truth_doc("m", ["k"]))
        write(self.d, "profile-1.json", {"modules": [{"module_id": "a"}]})
        write(self.d, "pcsamples-1.json",
              {"pcs": [{"function": "k", "samples": 3},
                       {"function": "k", "samples": 4}]})
        write(self.d, "launches-1.jsonl", "{}\n")
        write(self.d, "emu-notes.txt", "not a ground truth")
        self.assertEqual(len(wsrun.truth(self.d)), 1)
        self.assertEqual([doc["modules"][0]["module_id"]
                          for _, doc in wsrun.profiles(self.d)], ["a"])
        self.assertEqual([pc["samples"] for _, pc in wsrun.pc_samples(self.d)],
                         [3, 4])
        self.assertTrue(wsrun.has(self.d, wsrun.TRUTH))

    def test_empty_and_missing_directory(self):
        self.assertEqual(wsrun.truth(self.d), [])
        self.assertFalse(wsrun.has(self.d, wsrun.PC_SAMPLES))
        self.assertEqual(wsrun.launches(os.path.join(self.d, "absent")), [])

    def test_keep_only(self):
        for n in ("emu-1-0.json", "pcsamples-1.json", "profile-1.json",
                  "db-ab.json", "warpscope-runs.jsonl"):
            write(self.d, n, "{}")
        os.mkdir(os.path.join(self.d, "sub"))
        wsrun.keep_only(self.d, wsrun.TRUTH, wsrun.PC_SAMPLES)
        self.assertEqual(sorted(os.listdir(self.d)),
                         ["emu-1-0.json", "pcsamples-1.json", "sub"])

    def test_unreadable_file_names_itself(self):
        write(self.d, "emu-1-0.json", "{truncated")
        with self.assertRaises(wsrun.RunDirError) as e:
            wsrun.truth(self.d)
        self.assertIn("emu-1-0.json", str(e.exception))


if __name__ == "__main__":
    unittest.main()

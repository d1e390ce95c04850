"""Checks that free probes leave the timing model's view of a program alone.

Usage: check_free_probes.py PLAIN FREE MODELED
Three `warpscope run --emulate --pc-sampling` directories of one program:
its plain build, its instrumented build with probes free (the default) and
the instrumented build with --model-probes. First checks the premise: the
instrumented build's instructions outside probe scopes are the plain
build's, opcode for opcode and execution for execution, in every function.
Then that FREE's modeled cycles equal PLAIN's launch by launch and its
modeled PC samples equal PLAIN's at every program instruction (function,
ptx_index, source line, stall reasons), and that MODELED's launches all
cost more cycles. Prints one line per check for FileCheck.
"""
import glob
import json
import sys


def load(d, pattern):
    files = sorted(glob.glob("%s/%s" % (d, pattern)))
    assert files, "no %s in %s" % (pattern, d)
    return [json.load(open(f)) for f in files]


def program(d):
    """Per function: (opcode, thread executions) of its program
    instructions, in order."""
    out = {}
    for doc in load(d, "emu-*.json"):
        for f in doc["functions"]:
            out[f["name"]] = [(i["opcode"], i["thread_executions"])
                              for i in f["instructions"]
                              if not i.get("instrumentation")]
    return out


def launches(d):
    out = []
    for doc in load(d, "emu-*.json"):
        out += [(l["kernel"], l["grid"], l["block"], l["modeled"])
                for l in doc["launches"]]
    return out


def samples(d):
    doc, = load(d, "pcsamples-*.json")
    return doc, {(p["function"], p["ptx_index"]):
                 (p["file"], p["line"], p["samples"], p["stalls"])
                 for p in doc["pcs"]}


plain_dir, free_dir, modeled_dir = sys.argv[1:4]
plain, inst = program(plain_dir), program(free_dir)
assert plain.keys() == inst.keys(), (plain.keys(), inst.keys())
for name in plain:
    assert plain[name] == inst[name], \
        "premise fails: %s's instrumented build runs other instructions " \
        "than its plain build outside the probes" % name
print("program instructions identical in %d function(s)" % len(plain))

pl, fr, mo = launches(plain_dir), launches(free_dir), launches(modeled_dir)
assert len(pl) == len(fr) == len(mo), (len(pl), len(fr), len(mo))
for p, f, m in zip(pl, fr, mo):
    assert p[:3] == f[:3] == m[:3], (p, f, m)
    assert "probes" not in p[3], p
    assert f[3]["probes"] == "free" and m[3]["probes"] == "modeled", (f, m)
    assert f[3]["cycles"] == p[3]["cycles"], \
        "%s: %d modeled cycles with free probes, %d plain" % (
            p[0], f[3]["cycles"], p[3]["cycles"])
    assert f[3]["instructions"] == p[3]["instructions"], \
        "%s: %d modeled SASS instructions with free probes, %d plain" % (
            p[0], f[3]["instructions"], p[3]["instructions"])
print("modeled cycles equal in %d launch(es)" % len(pl))

pdoc, ps = samples(plain_dir)
fdoc, fs = samples(free_dir)
assert "model_probes" not in pdoc and fdoc["model_probes"] == "free", fdoc
for key in sorted(set(ps) | set(fs)):
    assert ps.get(key) == fs.get(key), \
        "samples differ at %s: plain %s, free probes %s" % (
            key, ps.get(key), fs.get(key))
assert pdoc["total_samples"] == fdoc["total_samples"]
print("modeled samples equal at %d instruction(s), %d samples" %
      (len(ps), pdoc["total_samples"]))

mdoc, _ = samples(modeled_dir)
assert mdoc["model_probes"] == "modeled", mdoc
more = [m for p, m in zip(pl, mo) if m[3]["cycles"] > p[3]["cycles"]]
assert len(more) == len(pl), "probes modeled cost nothing in some launch"
print("with probes modeled: more cycles in %d launch(es)" % len(more))

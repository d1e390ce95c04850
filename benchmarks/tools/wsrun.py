"""The one place Python reads a warpscope run directory (issue 33).

A run directory (WARPSCOPE_OUT, or `warpscope run -o DIR`) holds one file
per kind and process: the emulator's ground truth emu-PID-N.json, the
probes' profile-PID.json, the PC samples pcsamples-PID.json (names from
include/warpscope/ABI/Files.h). The benchmark scripts need what
`warpscope report --format json` does not give (every launch's modeled
cycles, every instruction's warp and thread executions, each file's
counters as written), so they read the files here, through these
functions, and never glob or parse a run directory themselves: a change of
a file's name or layout is then made once, in this file.

    import wsrun
    for path, doc in wsrun.truth(d): ...        # ground truth, load order
    for path, l in wsrun.launches(d): ...       # every launch of every module
    for path, f in wsrun.functions(d): ...      # every function of every module
    for path, doc in wsrun.profiles(d): ...     # the probes' profiles
    for path, pc in wsrun.pc_samples(d): ...    # every sampled PC
    wsrun.keep_only(d, wsrun.TRUTH, wsrun.PC_SAMPLES)

Each reader yields (path, item) so that an error can name the file.
"""

import json
import os
import re

# File kinds: (prefix, suffix), as include/warpscope/ABI/Files.h names them.
TRUTH = ("emu-", ".json")
PROFILE = ("profile-", ".json")
PC_SAMPLES = ("pcsamples-", ".json")
DATABASE = ("db-", ".json")
CUBIN = ("cubin-", ".cubin")
SASS_LISTING = ("cubin-", ".sass")


class RunDirError(Exception):
    """A file of a run directory cannot be read or parsed."""


def _load_order(name):
    # emu-PID-N.json: N is the module's load order within process PID;
    # numbers compare as numbers so module 10 follows module 9.
    return [int(x) for x in re.findall(r"\d+", name)], name


def paths(d, kind):
    """The files of KIND in directory D, by (pid, module index)."""
    prefix, suffix = kind
    try:
        names = os.listdir(d)
    except OSError:
        return []
    names = [n for n in names if n.startswith(prefix) and n.endswith(suffix)]
    return [os.path.join(d, n) for n in sorted(names, key=_load_order)]


def has(d, kind):
    """Whether directory D holds a file of KIND."""
    return bool(paths(d, kind))


def load(path):
    """One file's JSON document; RunDirError naming the file when unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise RunDirError("cannot read %s: %s" % (path, e)) from e


def documents(d, kind):
    """[(path, document)] of every file of KIND in D, in load order."""
    return [(p, load(p)) for p in paths(d, kind)]


def truth(d):
    """[(path, ground-truth document)] of D, in module load order."""
    return documents(d, TRUTH)


def profiles(d):
    """[(path, profile document)] of D."""
    return documents(d, PROFILE)


def launches(d):
    """[(path, launch)] of every ground-truth launch of D, in launch order
    per module."""
    return [(p, l) for p, doc in truth(d) for l in doc.get("launches", [])]


def functions(d):
    """[(path, function)] of every ground-truth function of D."""
    return [(p, f) for p, doc in truth(d) for f in doc.get("functions", [])]


def pc_samples(d):
    """[(path, pc)] of every sampled PC (pcsamples-*.json "pcs") of D."""
    return [(p, pc) for p, doc in documents(d, PC_SAMPLES)
            for pc in doc.get("pcs", [])]


def keep_only(d, *kinds):
    """Remove every file of D that is of none of KINDS (a run kept for its
    ground truth alone, say)."""
    for n in os.listdir(d):
        if not any(n.startswith(p) and n.endswith(s) for p, s in kinds):
            path = os.path.join(d, n)
            if os.path.isfile(path):
                os.remove(path)

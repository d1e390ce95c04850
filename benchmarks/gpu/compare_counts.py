#!/usr/bin/env python3
"""Compares the exact counts of two runs of the same instrumented program.

  compare_counts.py [--quiet] A.json B.json

A.json, B.json: `warpscope report --format json` of two runs of one build
(for instance one on a GPU and one on the emulator, same arguments).
Kernels are matched by mangled name, blocks by id, branches by position in
the kernel's list, with the same id and kind (both reports come from one
database; lines are not compared). For every block
the thread and warp executions must agree; for every branch its visits,
divergent visits, active threads and per-successor threads.

Thread-level counts depend only on what each thread executes, so two runs
of a deterministic program agree on them on any machine. Warp-level counts
(warp executions, visits, divergent visits) also depend on how the lanes of
a warp are scheduled: they differ only where lanes that split did not run a
block together again. Prints one line per difference, then a summary:

  compared K kernels, B blocks, R branches: thread-level D1 differ,
  warp-level D2 differ

Exit status: 0 when nothing differs, 1 when something does or the runs do
not match (different kernels or databases), 2 on bad usage.
"""
import json
import sys

THREAD_BLOCK = ("thread_executions",)
WARP_BLOCK = ("warp_executions",)
THREAD_BRANCH = ("active_threads", "successor_threads")
WARP_BRANCH = ("visits", "divergent")


def kernels(report):
    return {k["mangled"]: k for k in report.get("kernels", [])}


def compare(a, b, say):
    """Returns (kernels, blocks, branches, thread_diffs, warp_diffs, errors)."""
    ka, kb = kernels(a), kernels(b)
    errors = []
    for name in sorted(set(ka) ^ set(kb)):
        errors.append("kernel %s is in only one report" % name)
    nk = nb = nr = dt = dw = 0
    for name in sorted(set(ka) & set(kb)):
        x, y = ka[name], kb[name]
        nk += 1
        bx = {b["id"]: b for b in x.get("blocks", [])}
        by = {b["id"]: b for b in y.get("blocks", [])}
        if set(bx) != set(by):
            errors.append("%s: the reports have different blocks "
                          "(different builds?)" % name)
            continue
        for i in sorted(bx):
            nb += 1
            where = "%s block %d (line %s)" % (name, i, bx[i].get("line"))
            for f in THREAD_BLOCK + WARP_BLOCK:
                if bx[i].get(f) != by[i].get(f):
                    say("%s: %s %s vs %s" % (where, f, bx[i].get(f), by[i].get(f)))
                    if f in THREAD_BLOCK:
                        dt += 1
                    else:
                        dw += 1
        # Branches by id and kind, not by line: the lines of a build's
        # branches follow the plugin's placement rule, which may have changed
        # since a GPU's report was made (inlined code, 2026-11-29).
        rx, ry = x.get("branches", []), y.get("branches", [])
        # (A report of before 2026-11-24 has no branch ids: its position.)
        if len(rx) != len(ry) or any(
                (p.get("id", j), p.get("kind")) != (q.get("id", j), q.get("kind"))
                for j, (p, q) in enumerate(zip(rx, ry))):
            errors.append("%s: the reports have different branches" % name)
            continue
        for j, (p, q) in enumerate(zip(rx, ry)):
            nr += 1
            where = "%s branch %d (line %s:%s)" % (name, j, p.get("line"), p.get("column"))
            for f in THREAD_BRANCH + WARP_BRANCH:
                if p.get(f) != q.get(f):
                    say("%s: %s %s vs %s" % (where, f, p.get(f), q.get(f)))
                    if f in THREAD_BRANCH:
                        dt += 1
                    else:
                        dw += 1
    return nk, nb, nr, dt, dw, errors


def main(argv):
    quiet = "--quiet" in argv
    args = [a for a in argv[1:] if a != "--quiet"]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        a, b = (json.load(open(p)) for p in args)
    except (OSError, ValueError) as e:
        print("compare_counts.py: error: %s" % e, file=sys.stderr)
        return 2
    nk, nb, nr, dt, dw, errors = compare(
        a, b, (lambda s: None) if quiet else print)
    for e in errors:
        print("compare_counts.py: error: %s" % e, file=sys.stderr)
    print("compared %d kernels, %d blocks, %d branches: thread-level %d "
          "differ, warp-level %d differ" % (nk, nb, nr, dt, dw))
    return 1 if (errors or dt or dw or nk == 0) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

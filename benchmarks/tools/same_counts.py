#!/usr/bin/env python3
"""Do two `warpscope run --emulate` profiles of one program count the same?

  same_counts.py DIR_A DIR_B

Compares what must not depend on how many host threads ran the CTAs
(issue 24): the probes' counters of every module (profile-*.json), and the
emulator's ground truth (emu-*.json) per instruction (warp and thread
executions, active threads, memory requests and sectors, divergence) and
per launch (grid, block, modeled cycles). Prints one line per difference
(at most 20) and exits 1 when there is any, 0 when all agree.
"""
import sys

import wsrun  # the run directory's one reader

# Ground-truth fields of an instruction that are counts.
COUNTS = ('warp_executions', 'thread_executions', 'active_threads',
          'visits', 'divergent', 'global_requests', 'global_sectors',
          'global_ideal_sectors', 'atomic_addresses')


def profile_counts(d):
    """Module id -> counters, over every profile file of DIR."""
    out = {}
    for _, doc in wsrun.profiles(d):
        for m in doc.get('modules', []):
            out.setdefault(m['module_id'], []).append(m.get('counters'))
    return out


def truth(d):
    """A list of (what, value) pairs from every emu-*.json of DIR, in order."""
    items = []
    for _, g in wsrun.truth(d):
        mod = g.get('module', '?')
        for f in g.get('functions', []):
            for ins in f.get('instructions', []):
                key = f"{mod} {f['name']} #{ins['index']} {ins['opcode']}"
                items.append((key, tuple(ins.get(c) for c in COUNTS)))
        for i, l in enumerate(g.get('launches', [])):
            cycles = (l.get('modeled') or {}).get('cycles')
            items.append((f"{mod} launch {i} {l['kernel']}",
                          (l['grid'], l['block'], cycles)))
    return items


def main(argv):
    if len(argv) != 2:
        sys.exit('usage: same_counts.py DIR_A DIR_B')
    a, b = argv
    diffs = []
    pa, pb = profile_counts(a), profile_counts(b)
    if not pa or not wsrun.has(a, wsrun.TRUTH):
        sys.exit(f'same_counts.py: {a} has no profile-*.json or emu-*.json; '
                 'run the program with `warpscope run --emulate -o DIR`')
    if pa != pb:
        for mod in sorted(set(pa) | set(pb)):
            ca, cb = pa.get(mod), pb.get(mod)
            if ca != cb:
                diffs.append(f'module {mod}: probe counters differ')
    ta, tb = truth(a), truth(b)
    if len(ta) != len(tb):
        diffs.append(f'ground truth: {len(ta)} entries in {a}, {len(tb)} in {b}')
    for (ka, va), (kb, vb) in zip(ta, tb):
        if ka != kb:
            diffs.append(f'ground truth order differs: {ka} / {kb}')
            break
        if va != vb:
            names = COUNTS if len(va) == len(COUNTS) else \
                ('grid', 'block', 'modeled cycles')
            what = ', '.join(f'{n} {x} vs {y}'
                             for n, x, y in zip(names, va, vb) if x != y)
            diffs.append(f'{ka}: {what}')
    for line in diffs[:20]:
        print(line)
    if len(diffs) > 20:
        print(f'... {len(diffs) - 20} more differences')
    return 1 if diffs else 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except wsrun.RunDirError as e:
        sys.exit(f'same_counts.py: {e}')

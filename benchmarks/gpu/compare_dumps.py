#!/usr/bin/env python3
"""Compare a conformance program's --dump from a GPU with the emulator's.

  compare_dumps.py GPU_DIR [--build DIR] [--only NAME]

GPU_DIR holds NAME.dump files written on the GPU by session.sh's
`conformance` phase. For each, this runs build/conformance/NAME on the
emulator with --dump and compares line by line. A dump line is
`form<TAB>case<TAB>inputs<TAB>result[<TAB>marker]`; a marker (`nan-any`,
`approx`, `sat-zero-sign`, ...) says the suite's check accepts more than
one result for that form, so differences there are counted separately
(each side passed the suite's own check: see the GPU's conf-NAME.log), not
as mismatches.
Prints per program: lines compared, identical, accepted differences and
mismatches (the first 10 listed); exits 1 when any program mismatches or
a dump is missing on either side.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def read_dump(path):
    out = {}
    with open(path, errors='replace') as fh:
        for line in fh:
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 4:
                continue
            marker = parts[4] if len(parts) > 4 else ''
            out['\t'.join(parts[:3])] = (parts[3], marker)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('gpu_dir')
    ap.add_argument('--build', default=os.path.join(
        os.path.dirname(__file__), '..', '..', 'build'))
    ap.add_argument('--only')
    a = ap.parse_args()
    dumps = sorted(f for f in os.listdir(a.gpu_dir) if f.endswith('.dump'))
    if a.only:
        dumps = [f for f in dumps if f == a.only + '.dump']
    if not dumps:
        sys.exit(f'compare_dumps.py: no NAME.dump in {a.gpu_dir}')
    bad = 0
    env = dict(os.environ,
               LD_LIBRARY_PATH=os.path.join(a.build, 'lib', 'emu'))
    for f in dumps:
        name = f[:-len('.dump')]
        exe = os.path.join(a.build, 'conformance', name)
        with tempfile.NamedTemporaryFile(suffix='.dump') as tmp:
            subprocess.run([exe, '--dump', tmp.name], env=env,
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            emu = read_dump(tmp.name)
        gpu = read_dump(os.path.join(a.gpu_dir, f))
        same = accepted = 0
        mism = []
        for key, (g, marker) in gpu.items():
            if key not in emu:
                mism.append(f'{key}: on the GPU only')
                continue
            e = emu[key][0]
            if e == g:
                same += 1
            elif marker or emu[key][1]:
                accepted += 1
            else:
                mism.append(f'{key}: gpu {g} emulator {e}')
        missing = len(set(emu) - set(gpu))
        print(f'{name}: {len(gpu)} lines, {same} identical, {accepted} '
              f'differ where the suite accepts either, {len(mism)} mismatches'
              + (f', {missing} only on the emulator' if missing else ''))
        for m in mism[:10]:
            print('  ' + m)
        bad += bool(mism or missing or not gpu)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Compare the conformance programs' --dump from a GPU with the emulator's.

  compare_dumps.py GPU_DIR [--build DIR] [--exe-dir DIR] [--only NAME]
                   [--emu-dir DIR] [--subset] [--exact] [--suite-check]
                   [--list FILE] [--all]
  compare_dumps.py GPU_DIR --make-fixture OUT --emu-dir EMU_DIR
                   [--current DIR] [--skip-forms FILE] [--sample N]

GPU_DIR holds NAME.dump or NAME.dump.xz files written on the GPU by
session.sh's `conformance` phase (or a fixture: see below). For each, this
runs EXE_DIR/NAME (default BUILD/conformance/NAME) on the emulator
(BUILD/lib/emu) with --dump and compares result by result.

Dump formats (one reader each, all turned into `key -> (result, marker)`):
* tab lines `form<TAB>case<TAB>inputs<TAB>result[<TAB>marker]` (instr,
  memory, atomics, control, textures, and fixtures);
* matrix (`warpscope-matrixconf/1`): `spec mode warp d0 d1 ...`, one
  result per D element;
* math (`warpscope-mathconf/1`, binary): `name count width` then the raw
  results.
A marker says the suite's check accepts more than one result: `nan-any`
(any NaN of the result's type for an expected NaN), `sat-zero-sign` (a
zero of either sign for an expected zero), `zero-sign` (the same, for
forms whose zero sign the ISA leaves open); a type word (f16, f32, f64)
names the elements' type where the form name does not (its first float
type otherwise, cvt.DST.SRC; several hex words in a result are several
elements). `approx` (.approx forms: the suite checks an error bound),
`bound` (matrix `general` results: the ISA leaves the accumulation order
open, the suite checks a bound) and `order` (a contended exch's final
value: any order of the threads is right) results are not compared, only
counted. The marker of the emulator's dump decides (the current suite); a
difference it accepts is counted apart, any other is a mismatch.

--subset: GPU_DIR holds a sample (a fixture): results only the emulator
has are not an error. --exact: a result the suite accepts either way must
still equal the GPU's (the emulator copies sm_90's choices there). --suite-check: also apply the instr suite's own
checks to the GPU's instr results (instr --check-dump), so that its host
reference is held against the GPU too.

--make-fixture OUT writes, per program, the GPU's results that differ from
the emulator's (EMU_DIR's dumps: those of the emulator the GPU run is
compared with) plus every Nth other result (--sample, default 97) as
OUT/NAME.dump.xz in the tab format. Left out: `approx`, `bound` and `order`
results, forms listed in --skip-forms FILE (one name a line, `#` comments),
and, with --current DIR (dumps of the current build), results the current
suite no longer has (a test redesigned since the GPU run).
Exits 1 when any program mismatches or a dump is missing on either side.
"""
import argparse
import lzma
import os
import re
import subprocess
import sys
import tempfile

SKIP_MARKERS = ('approx', 'bound', 'order')


def open_dump(path):
    if path.endswith('.xz'):
        return lzma.open(path, 'rb')
    return open(path, 'rb')


def read_tab(lines, out):
    for raw in lines:
        parts = raw.decode('utf-8', 'replace').rstrip('\n').split('\t')
        if len(parts) < 4:
            continue
        marker = parts[4] if len(parts) > 4 else ''
        out['\t'.join(parts[:3])] = (parts[3], marker)


def read_matrix(lines, out):
    """D elements; the markers are matrix.cu's checks: any NaN for a NaN,
    either zero sign where f16/bf16/tf32 products are accumulated."""
    for raw in lines:
        tok = raw.decode().split()
        if len(tok) < 4:
            continue
        name, mode, warp = tok[:3]
        width = {4: 'f16', 8: 'f32', 16: 'f64'}.get(len(tok[3]), '')
        if mode == 'general':
            marker = 'bound'
        elif 's8' in name or 'u8' in name:
            marker = ''
        else:
            marker = 'nan-any ' + ('' if width == 'f64' else 'zero-sign ') + \
                width
        for i, v in enumerate(tok[3:]):
            out[f'{name}\t{mode} {warp}\t{i}'] = (v, marker)


def read_math(fh, out):
    while True:
        head = fh.readline()
        if not head:
            return
        name, count, width = head.decode().split()
        count, width = int(count), int(width)
        data = fh.read(count * width)
        for i in range(count):
            v = int.from_bytes(data[i * width:(i + 1) * width], 'little')
            out[f'{name}\t{i}\t-'] = (f'{v:x}', '')


def read_dump(path):
    out = {}
    with open_dump(path) as fh:
        head = fh.readline()
        if head.startswith(b'warpscope-matrixconf/'):
            read_matrix(fh, out)
        elif head.startswith(b'warpscope-mathconf/'):
            read_math(fh, out)
        else:
            read_tab([head], out)
            read_tab(fh, out)
    return out


# The element type of a result, from the form's name: the first float type
# in it is the destination's (cvt.DST.SRC, add.rn.f16x2, ...).
TYPE_RE = re.compile(r'\.(f16x2|bf16x2|f16|bf16|f32|f64)(?![0-9x])')


def elements(key, value, marker):
    """The result as (kind, bits) elements: 'h' f16, 'b' bf16, 'f' f32,
    'd' f64, 'i' integer (a form whose destination is no float type)."""
    typed = [w for w in marker.split() if TYPE_RE.match('.' + w)]
    form = key.split('\t')[0].split()[0]
    m = TYPE_RE.match('.' + typed[0]) if typed else \
        re.search(r'\.((?:[subf]|bf)\d+(?:x2)?)\b', form)
    t = m.group(1) if m else ''
    out = []
    for word in value.split():
        v = int(word, 16)
        if t in ('f16x2', 'bf16x2'):
            k = 'h' if t == 'f16x2' else 'b'
            out += [(k, v & 0xffff), (k, v >> 16 & 0xffff)]
        else:
            out.append(({'f16': 'h', 'bf16': 'b', 'f32': 'f',
                         'f64': 'd'}.get(t, 'i'), v))
    return out


EXP = {'h': (0x7c00, 0x7fff), 'b': (0x7f80, 0x7fff),
       'f': (0x7f800000, 0x7fffffff),
       'd': (0x7ff0000000000000, 0x7fffffffffffffff)}


def accepts(marker, key, gpu, emu):
    """Whether the marker's rule lets `emu` stand for `gpu`."""
    if gpu == emu:
        return True
    words = marker.split()
    if not words:
        return False
    try:
        ge, ee = elements(key, gpu, marker), elements(key, emu, marker)
    except ValueError:
        return False
    if len(ge) != len(ee):
        return False
    for (k, g), (_, e) in zip(ge, ee):
        if g == e or k == 'i':
            if g != e:
                return False
            continue
        inf, mag = EXP[k]
        if 'nan-any' in words and g & mag > inf and e & mag > inf:
            continue
        if (('sat-zero-sign' in words or 'zero-sign' in words) and
                g & mag == 0 and e & mag == 0):
            continue
        return False
    return True


def emulator_dump(a, name, env):
    """The emulator's dump of program NAME (kept in --emu-dir if given)."""
    path = os.path.join(a.emu_dir, name + '.dump') if a.emu_dir else None
    if path and os.path.exists(path):
        return read_dump(path)
    exe = os.path.join(a.exe_dir, name)
    with tempfile.TemporaryDirectory() as tmp:
        out = path or os.path.join(tmp, name + '.dump')
        subprocess.run([exe, '--dump', out], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return read_dump(out) if os.path.exists(out) else {}


def write_fixture(path, gpu, emu, cur, skip_forms, every):
    """Returns (lines kept, differing lines kept, lines dropped because the
    current build lacks them)."""
    n = kept = diff = gone = 0
    with lzma.open(path, 'wt', preset=9) as fh:
        for key, (g, marker) in gpu.items():
            e = emu.get(key, (None, ''))
            c = cur.get(key, (None, '')) if cur is not None else e
            if marker in SKIP_MARKERS or e[1] in SKIP_MARKERS or \
                    c[1] in SKIP_MARKERS or key.split('\t')[0] in skip_forms:
                continue
            if c[0] is None:
                gone += 1
                continue
            n += 1
            if e[0] != g or n % every == 0:
                fh.write(f'{key}\t{g}' + (f'\t{marker}' if marker else '') +
                         '\n')
                kept += 1
                diff += e[0] != g
    return kept, diff, gone


def suite_check(a, gpu, env):
    """instr --check-dump over the GPU's instr results; True when they pass."""
    with tempfile.NamedTemporaryFile('w', suffix='.dump') as tmp:
        for key, (g, marker) in gpu.items():
            tmp.write(f'{key}\t{g}\n')
        tmp.flush()
        r = subprocess.run([os.path.join(a.exe_dir, 'instr'), '--check-dump',
                            tmp.name], env=env, capture_output=True, text=True)
    lines = r.stdout.splitlines()
    print('instr --check-dump: ' + (lines[-1] if lines else 'no output'))
    for line in lines[:-1][:10]:
        print('  ' + line)
    return r.returncode == 0


def compare(name, gpu, emu, a, listing):
    same = accepted = skipped = 0
    mism = []
    for key, (g, gmark) in gpu.items():
        if key not in emu:
            mism.append(f'{key}: on the GPU only')
            continue
        e, marker = emu[key]
        if e == g:
            same += 1
        elif marker in SKIP_MARKERS or gmark in SKIP_MARKERS:
            skipped += 1
        elif not a.exact and accepts(marker, key, g, e):
            accepted += 1
        else:
            mism.append(f'{key}: gpu {g} emulator {e}')
            if listing:
                listing.write(f'{name}\t{key}\t{g}\t{e}\t{marker}\n')
    missing = 0 if a.subset else len(set(emu) - set(gpu))
    print(f'{name}: {len(gpu)} results, {same} identical, {accepted} '
          f'differ where the suite accepts either, {skipped} differ in '
          f'approx/bound-checked results, {len(mism)} mismatches' +
          (f', {missing} only on the emulator' if missing else ''))
    for m in mism[:None if a.all else 10]:
        print('  ' + m)
    return bool(mism or missing or not gpu)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('gpu_dir')
    ap.add_argument('--build', default=os.path.join(
        os.path.dirname(__file__), '..', '..', 'build'))
    ap.add_argument('--exe-dir', help='the programs (BUILD/conformance)')
    ap.add_argument('--only', help='one program')
    ap.add_argument('--emu-dir', help='keep (or reuse) the emulator dumps')
    ap.add_argument('--subset', action='store_true')
    ap.add_argument('--exact', action='store_true')
    ap.add_argument('--list', help='write every mismatch to this file')
    ap.add_argument('--all', action='store_true', help='print all mismatches')
    ap.add_argument('--suite-check', action='store_true')
    ap.add_argument('--make-fixture', metavar='OUT')
    ap.add_argument('--sample', type=int, default=97)
    ap.add_argument('--current', metavar='DIR')
    ap.add_argument('--skip-forms', metavar='FILE')
    a = ap.parse_args()
    a.exe_dir = a.exe_dir or os.path.join(a.build, 'conformance')
    names = sorted(re.sub(r'\.dump(\.xz)?$', '', f)
                   for f in os.listdir(a.gpu_dir)
                   if re.search(r'\.dump(\.xz)?$', f))
    if a.only:
        names = [n for n in names if n == a.only]
    if not names:
        sys.exit(f'compare_dumps.py: no NAME.dump[.xz] in {a.gpu_dir}')
    env = dict(os.environ,
               LD_LIBRARY_PATH=os.path.join(a.build, 'lib', 'emu'))
    if a.emu_dir:
        os.makedirs(a.emu_dir, exist_ok=True)
    listing = open(a.list, 'w') if a.list else None
    skip_forms = set()
    if a.skip_forms:
        skip_forms = {ln.split('#')[0].strip() for ln in open(a.skip_forms)}
    bad = 0
    for name in names:
        path = os.path.join(a.gpu_dir, name + '.dump')
        gpu = read_dump(path if os.path.exists(path) else path + '.xz')
        emu = emulator_dump(a, name, env)
        if a.make_fixture:
            os.makedirs(a.make_fixture, exist_ok=True)
            cur = read_dump(os.path.join(a.current, name + '.dump')) \
                if a.current else None
            kept, diff, gone = write_fixture(
                os.path.join(a.make_fixture, name + '.dump.xz'), gpu, emu,
                cur, skip_forms, a.sample)
            print(f'{name}: {kept} of {len(gpu)} results in the fixture '
                  f'({diff} that differ from EMU_DIR\'s; {gone} left out: '
                  'not in the current suite)')
            continue
        bad += compare(name, gpu, emu, a, listing)
        if a.suite_check and name == 'instr':
            bad += not suite_check(a, gpu, env)
    if listing:
        listing.close()
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

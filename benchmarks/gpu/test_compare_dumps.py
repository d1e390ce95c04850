#!/usr/bin/env python3
"""Unit tests of compare_dumps.py's readers, marker rules and fixture
writer (ctest benchmarks-gpu-compare-dumps; no GPU, no emulator)."""
import lzma
import os
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_dumps as cd  # noqa: E402


class Readers(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_tab_xz_keeps_marker(self):
        with lzma.open(self.path('a.dump.xz'), 'wt') as fh:
            fh.write('add.f32\t0\t1 2 0\t40400000\n'
                     'add.f32\t1\t7fc00000 0 0\t7fffffff\tnan-any\n')
        d = cd.read_dump(self.path('a.dump.xz'))
        self.assertEqual(d['add.f32\t1\t7fc00000 0 0'], ('7fffffff', 'nan-any'))
        self.assertEqual(len(d), 2)

    def test_matrix_elements_and_markers(self):
        with open(self.path('m.dump'), 'w') as fh:
            fh.write('warpscope-matrixconf/1\n'
                     'mma.x.f16.f32.f32 special 0 00000000 7fffffff\n'
                     'mma.x.f16.f32.f32 general 1 3f800000\n'
                     'mma.y.f64.f64.f64 exact 0 0000000000000000\n'
                     'wmma.s8.s32 exact 0 00000005\n')
        d = cd.read_dump(self.path('m.dump'))
        self.assertEqual(d['mma.x.f16.f32.f32\tspecial 0\t1'],
                         ('7fffffff', 'nan-any zero-sign f32'))
        self.assertEqual(d['mma.x.f16.f32.f32\tgeneral 1\t0'][1], 'bound')
        self.assertEqual(d['mma.y.f64.f64.f64\texact 0\t0'][1], 'nan-any f64')
        self.assertEqual(d['wmma.s8.s32\texact 0\t0'][1], '')

    def test_math_binary(self):
        with open(self.path('math.dump'), 'wb') as fh:
            fh.write(b'warpscope-mathconf/1\nexpf 2 4\n')
            fh.write(struct.pack('<II', 0x3f800000, 0x7fffffff))
        d = cd.read_dump(self.path('math.dump'))
        self.assertEqual(d['expf\t1\t-'], ('7fffffff', ''))


class Markers(unittest.TestCase):
    def test_nan_any_by_type(self):
        self.assertTrue(cd.accepts('nan-any', 'add.f32\t0\tx',
                                   '7fffffff', '7fc00000'))
        self.assertFalse(cd.accepts('nan-any', 'add.f32\t0\tx',
                                    '7fffffff', '3f800000'))
        # f64: a pattern that is a NaN as f32 bits is not one as f64 bits.
        self.assertFalse(cd.accepts('nan-any', 'add.f64\t0\tx',
                                    '7fffffff', '7fc00000'))

    def test_x2_elements_each(self):
        key = 'fma.rn.f16x2\t0\tx'
        self.assertTrue(cd.accepts('nan-any', key, '7fff3c00', '7e003c00'))
        self.assertFalse(cd.accepts('nan-any', key, '7fff3c00', '7e003c01'))

    def test_zero_sign_not_for_integers(self):
        self.assertTrue(cd.accepts('sat-zero-sign', 'add.sat.f32\t0\tx',
                                   '0', '80000000'))
        # cvt.rni.s64.f32: the destination is an integer.
        self.assertFalse(cd.accepts('sat-zero-sign',
                                    'cvt.rni.s64.f32\t0\tx',
                                    '8000000000000000', '0'))
        self.assertFalse(cd.accepts('', 'add.sat.f32\t0\tx', '0',
                                    '80000000'))

    def test_type_word_and_words(self):
        self.assertTrue(cd.accepts('nan-any zero-sign f16',
                                   'mma.m16n8k16.f16.f32.f32\tspecial 0\t3',
                                   '7fff', '7e00'))
        self.assertTrue(cd.accepts('nan-any', 'atom.add.f32 %0;\tglobal\tx',
                                   '1 7fffffff', '1 7fc00000'))
        self.assertFalse(cd.accepts('nan-any', 'atom.add.f32 %0;\tglobal\tx',
                                    '1 7fffffff', '2 7fc00000'))


class Fixture(unittest.TestCase):
    def test_kept_and_left_out(self):
        gpu = {f'f\t{i}\tx': (str(i), '') for i in range(10)}
        gpu['f\t10\tx'] = ('a', 'approx')
        gpu['gone\t0\tx'] = ('1', '')
        gpu['skip\t0\tx'] = ('1', '')
        emu = dict(gpu)
        emu['f\t3\tx'] = ('99', '')
        cur = {k: v for k, v in gpu.items() if not k.startswith('gone')}
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'f.dump.xz')
            kept, diff, gone = cd.write_fixture(out, gpu, emu, cur, {'skip'},
                                                4)
            lines = lzma.open(out, 'rt').read().splitlines()
        # f 3 differs; every 4th other result (f 3 is the 4th counted).
        self.assertEqual((kept, diff, gone), (2, 1, 1))
        self.assertEqual(lines, ['f\t3\tx\t3', 'f\t7\tx\t7'])


if __name__ == '__main__':
    unittest.main()

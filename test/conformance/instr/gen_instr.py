#!/usr/bin/env python3
"""Generates instr_forms.h for the instruction conformance suite (issue 16).

Each form is one PTX instruction in inline asm (asm volatile), operands in
registers or as an immediate in one literal syntax; the host reference in
ref.h gives the expected bits. Run from anywhere:
    python3 test/conformance/instr/gen_instr.py
and check in the regenerated instr_forms.h and covered-forms.txt.
"""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_extra  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CTYPE = {'h': 'unsigned short', 'r': 'unsigned int', 'l': 'unsigned long long'}
FORMS = []  # (name, ptx, dst, srcs, case class, ref expr, check)
BOUNDS = {}  # name -> (max relative, max absolute error, rounding ulps)


def form(name, ptx, dst, srcs, cls, ref, check='exact'):
    if '.sat.' in name and 'f32' in name:
        check = 'satz'  # see Check::Satz in instr.cu
    # A name is a dump key: a second form of that name must be the same
    # instruction on the same inputs (imm_variants repeats some immediates
    # the float forms have) and is not emitted again.
    for f in FORMS:
        if f[0] == name:
            if (f[1], f[2], f[3], f[4], f[6]) != (ptx, dst, srcs, cls, check):
                sys.exit(f'gen_instr: two different forms named {name!r}')
            return
    FORMS.append((name, ptx, dst, srcs, cls, ref, check))


def bounds(name):
    """The Form fields rel, abs and (where not half an ulp) ulps."""
    rel, ab, ulps = BOUNDS.get(name, (0, 0, 0.5))
    return f'{rel!r}, {ab!r}' + ('' if ulps == 0.5 else f', {ulps!r}')


def approx_forms():
    """.approx f32 forms: the reference is the exact value in double (ref
    returns double bits); the check allows the PTX ISA's documented maximum
    error, relative (rel) or absolute (abs), plus the rounding to f32 (half
    an ulp, a whole one for lg2, whose result the GPU truncates: lg2(2^-126)
    is -125.99999237 on an H200, 2026-11-27), and needs infinities, NaNs and
    zeros where the exact result has them. div.approx is a * (1/b), and
    for 2^126 < |b| < 2^128 the ISA (and the CUDA guide, __fdividef) gives
    1/b = 0: a zero, or NaN for an infinite or NaN a."""
    x = '(double)ref::fz(FTZ, ref::f(a))'
    y = '(double)ref::fz(FTZ, ref::f(b))'
    big = f'std::fabs({y}) > 0x1p126 && !std::isinf({y})'
    ops = [('rcp', f'1.0 / {x}', 2 ** -23, 0, 1),
           ('sqrt', f'std::sqrt({x})', 2 ** -23, 0, 1),
           ('rsqrt', f'1.0 / std::sqrt({x})', 2 ** -22.9, 0, 1),
           ('ex2', f'std::exp2({x})', 2 ** -22.5, 0, 1),
           ('lg2', f'std::log2({x})', 0, 2 ** -22.6, 1),
           ('sin', f'std::fabs({x}) <= 100 * M_PI ? std::sin({x}) : ref::d(ref::kUnbounded)', 0,
            2 ** -20.5, 1),
           ('cos', f'std::fabs({x}) <= 100 * M_PI ? std::cos({x}) : ref::d(ref::kUnbounded)', 0,
            2 ** -20.5, 1),
           ('div', f'{big} ? {x} * 0.0 : {x} / {y}', 2 ** -22, 0, 2)]
    for op, e, rel, ab, n in ops:
        for ftz in ['', '.ftz']:
            name = f'{op}.approx{ftz}.f32'
            srcs = ', '.join(['%1', '%2'][:n])
            expr = e.replace('FTZ', 'true' if ftz else 'false')
            form(name, f'{name} %0, {srcs};', 'r', 'r' * n, f'f32_{n}',
                 f'ref::bits((double)({expr}))', 'approx')
            BOUNDS[name] = (rel, ab, 1 if op == 'lg2' else 0.5)
    form('tanh.approx.f32', 'tanh.approx.f32 %0, %1;', 'r', 'r', 'f32_1',
         'ref::bits(std::tanh((double)ref::f(a)))', 'approx')
    BOUNDS['tanh.approx.f32'] = (2 ** -10.9, 0, 0.5)


RMS = ['rn', 'rz', 'rm', 'rp']


def float_forms():
    ops = [('add', 'ADD', 2), ('sub', 'SUB', 2), ('mul', 'MUL', 2),
           ('fma', 'FMA', 3), ('div', 'DIV', 2), ('sqrt', 'SQRT', 1),
           ('rcp', 'RCP', 1)]
    regs = ['%1', '%2', '%3']
    for op, OP, n in ops:
        for rm in RMS:
            srcs = regs[:n]
            for ftz in ['', '.ftz']:
                for sat in ['', '.sat']:
                    if sat and op in ('div', 'sqrt', 'rcp'):
                        continue
                    name = f'{op}.{rm}{ftz}{sat}.f32'
                    form(name, f'{name} %0, {", ".join(srcs)};', 'r',
                         'r' * n, f'f32_{n}',
                         f'ref::f32op(ref::{OP}, ref::{rm.upper()}, '
                         f'{str(bool(ftz)).lower()}, {str(bool(sat)).lower()},'
                         ' a, b, c)', 'nan')
            name = f'{op}.{rm}.f64'
            form(name, f'{name} %0, {", ".join(srcs)};', 'l', 'l' * n,
                 f'f64_{n}', f'ref::f64op(ref::{OP}, ref::{rm.upper()}, a, b, c)',
                 'nan')
    # mad.rn.f32 is fma.rn.f32 under another name.
    form('mad.rn.f32', 'mad.rn.f32 %0, %1, %2, %3;', 'r', 'rrr', 'f32_3',
         'ref::f32op(ref::FMA, ref::RN, false, false, a, b, c)', 'nan')
    for mm in ['min', 'max']:
        mx = 'true' if mm == 'max' else 'false'
        for ftz in ['', '.ftz']:
            form(f'{mm}{ftz}.f32', f'{mm}{ftz}.f32 %0, %1, %2;', 'r', 'rr',
                 'f32_2', f'ref::f32minmax({mx}, {str(bool(ftz)).lower()}, a, b)')
        form(f'{mm}.f64', f'{mm}.f64 %0, %1, %2;', 'l', 'll', 'f64_2',
             f'ref::f64minmax({mx}, a, b)', 'nan')
    # abs/neg: the ISA says "NaN inputs yield an unspecified NaN".
    for ftz in ['', '.ftz']:
        fl = str(bool(ftz)).lower()
        form(f'abs{ftz}.f32', f'abs{ftz}.f32 %0, %1;', 'r', 'r', 'f32_1',
             f'ref::f32abs({fl}, a)', 'nan')
        form(f'neg{ftz}.f32', f'neg{ftz}.f32 %0, %1;', 'r', 'r', 'f32_1',
             f'ref::f32neg({fl}, a)', 'nan')
    form('abs.f64', 'abs.f64 %0, %1;', 'l', 'l', 'f64_1',
         'a & 0x7fffffffffffffffull', 'nan')
    form('neg.f64', 'neg.f64 %0, %1;', 'l', 'l', 'f64_1',
         'a ^ 0x8000000000000000ull', 'nan')
    # Immediates in each float literal syntax.
    for lit, val in [('0f3F800000', '1.0f'), ('0fBF000000', '-0.5f'),
                     ('0f7F800000', 'INFINITY'), ('0f80000000', '-0.0f')]:
        form(f'add.rn.f32 imm {lit}', f'add.rn.f32 %0, %1, {lit};', 'r', 'r',
             'f32_1', f'ref::f32op(ref::ADD, ref::RN, false, false, a, '
             f'ref::bits((float)({val})), 0)', 'nan')
    for lit, val in [('0d3FF0000000000000', '1.0'),
                     ('0dC338000000000000', '-0x1.8p+52'),
                     ('0d8000000000000000', '-0.0'), ('1.5', '1.5'),
                     ('-2.25', '-2.25')]:
        form(f'add.rn.f64 imm {lit}', f'add.rn.f64 %0, %1, {lit};', 'l', 'l',
             'f64_1', f'ref::f64op(ref::ADD, ref::RN, a, ref::bits({val}), 0)',
             'nan')


def cvt_forms():
    ints = [('s32', 'r', 'int32_t'), ('u32', 'r', 'uint32_t'),
            ('s64', 'l', 'int64_t'), ('u64', 'l', 'uint64_t')]
    for rm in RMS:
        R = f'ref::{rm.upper()}'
        for it, reg, cty in ints:
            form(f'cvt.{rm}i.{it}.f32', f'cvt.{rm}i.{it}.f32 %0, %1;', reg, 'r',
                 'f32_1', f'(u64)ref::toInt<{cty}>({R}, ref::f(a)) & '
                 f'ref::mask({32 if reg == "r" else 64})')
            form(f'cvt.{rm}i.{it}.f64', f'cvt.{rm}i.{it}.f64 %0, %1;', reg, 'l',
                 'f64_1', f'(u64)ref::toInt<{cty}>({R}, ref::d(a)) & '
                 f'ref::mask({32 if reg == "r" else 64})')
            icls = 'i32_1' if reg == 'r' else 'i64_1'
            form(f'cvt.{rm}.f32.{it}', f'cvt.{rm}.f32.{it} %0, %1;', 'r', reg,
                 icls, f'ref::bits(ref::fromInt<float>({R}, ({cty})a))')
            form(f'cvt.{rm}.f64.{it}', f'cvt.{rm}.f64.{it} %0, %1;', 'l', reg,
                 icls, f'ref::bits(ref::fromInt<double>({R}, ({cty})a))')
        for ftz in ['', '.ftz']:
            fl = str(bool(ftz)).lower()
            form(f'cvt.{rm}i{ftz}.f32.f32', f'cvt.{rm}i{ftz}.f32.f32 %0, %1;',
                 'r', 'r', 'f32_1',
                 f'ref::bits(ref::toIntegral({R}, ref::fz({fl}, ref::f(a))))',
                 'nan')
            form(f'cvt.{rm}{ftz}.f32.f64', f'cvt.{rm}{ftz}.f32.f64 %0, %1;',
                 'r', 'l', 'f64_1',
                 f'ref::bits(ref::f64tof32({R}, {fl}, ref::d(a)))', 'nan')
        form(f'cvt.{rm}i.f64.f64', f'cvt.{rm}i.f64.f64 %0, %1;', 'l', 'l',
             'f64_1', f'ref::bits(ref::toIntegral({R}, ref::d(a)))', 'nan')
    for ftz in ['', '.ftz']:
        fl = str(bool(ftz)).lower()
        form(f'cvt{ftz}.f64.f32', f'cvt{ftz}.f64.f32 %0, %1;', 'l', 'r',
             'f32_1', f'ref::bits((double)ref::fz({fl}, ref::f(a)))', 'nan')
    # Integer widening/narrowing.
    form('cvt.s64.s32', 'cvt.s64.s32 %0, %1;', 'l', 'r', 'i32_1',
         '(u64)ref::sext(a, 32)')
    form('cvt.u64.u32', 'cvt.u64.u32 %0, %1;', 'l', 'r', 'i32_1',
         'a & 0xffffffffull')
    form('cvt.u32.u64', 'cvt.u32.u64 %0, %1;', 'r', 'l', 'i64_1',
         'a & 0xffffffffull')
    form('cvt.s32.s8', 'cvt.s32.s8 %0, %1;', 'r', 'r', 'i32_1',
         '(u64)ref::sext(a, 8) & 0xffffffffull')
    form('cvt.u32.u16', 'cvt.u32.u16 %0, %1;', 'r', 'r', 'i32_1',
         'a & 0xffffull')
    form('cvt.sat.s32.s64', 'cvt.sat.s32.s64 %0, %1;', 'r', 'l', 'i64_1',
         '(u64)(uint32_t)((int64_t)a < INT32_MIN ? INT32_MIN : '
         '(int64_t)a > INT32_MAX ? INT32_MAX : (int64_t)a)')


def int_forms():
    for w, reg, cls in [(32, 'r', 'i32_2'), (64, 'l', 'i64_2')]:
        m = f'ref::mask({w})'
        b = f'b{w}'
        s, u = f's{w}', f'u{w}'
        two = [
            (f'add.{s}', f'(a + b) & {m}'), (f'sub.{s}', f'(a - b) & {m}'),
            (f'mul.lo.{s}', f'(a * b) & {m}'),
            (f'mul.hi.{u}', f'ref::mulhiU(a, b, {w})'),
            (f'mul.hi.{s}', f'ref::mulhiS(a, b, {w}) & {m}'),
            (f'and.{b}', 'a & b'), (f'or.{b}', 'a | b'),
            (f'xor.{b}', 'a ^ b'),
            (f'min.{s}', f'(u64)(ref::sext(a,{w}) < ref::sext(b,{w}) ? a : b)'),
            (f'max.{s}', f'(u64)(ref::sext(a,{w}) > ref::sext(b,{w}) ? a : b)'),
            (f'min.{u}', f'((a & {m}) < (b & {m}) ? a : b)'),
            (f'max.{u}', f'((a & {m}) > (b & {m}) ? a : b)'),
        ]
        for n, e in two:
            form(n, f'{n} %0, %1, %2;', reg, reg * 2, cls, e)
        # Shift amounts are always .u32.
        for n, e in [(f'shl.{b}', f'ref::shl(a, b, {w})'),
                     (f'shr.{u}', f'ref::shrU(a, b, {w})'),
                     (f'shr.{s}', f'ref::shrS(a, b, {w})')]:
            form(n, f'{n} %0, %1, %2;', reg, reg + 'r', f'sh{w}', e)
        one = [(f'not.{b}', f'~a & {m}'), (f'neg.{s}', f'(0 - a) & {m}'),
               (f'abs.{s}', f'(u64)(ref::sext(a,{w}) < 0 ? 0 - a : a) & {m}'),
               (f'cnot.{b}', f'(u64)((a & {m}) == 0)')]
        for n, e in one:
            form(n, f'{n} %0, %1;', reg, reg, cls.replace('_2', '_1'), e)
        for n, e in [(f'popc.{b}', 'ref::popc(a)'),
                     (f'clz.{b}', f'ref::clz(a, {w})'),
                     (f'bfind.{u}', f'ref::bfind(a, {w}, false, false)'),
                     (f'bfind.{s}', f'ref::bfind(a, {w}, true, false)'),
                     (f'bfind.shiftamt.{u}', f'ref::bfind(a, {w}, false, true)')]:
            form(n, f'{n} %0, %1;', 'r', reg, cls.replace('_2', '_1'), e)
        form(f'brev.{b}', f'brev.{b} %0, %1;', reg, reg, cls.replace('_2', '_1'),
             f'ref::brev(a, {w})')
        form(f'mad.lo.{s}', f'mad.lo.{s} %0, %1, %2, %3;', reg, reg * 3,
             cls.replace('_2', '_3'), f'(a * b + c) & {m}')
        for sg in ['u', 's']:
            form(f'bfe.{sg}{w}', f'bfe.{sg}{w} %0, %1, %2, %3;', reg, reg + 'rr',
                 'bfe', f'ref::bfe(a, b, c, {w}, {str(sg == "s").lower()})')
        form(f'div.{u}', f'div.{u} %0, %1, %2;', reg, reg * 2, f'div{w}',
             f'(a & {m}) / (b & {m})')
        form(f'rem.{u}', f'rem.{u} %0, %1, %2;', reg, reg * 2, f'div{w}',
             f'(a & {m}) % (b & {m})')
        form(f'div.{s}', f'div.{s} %0, %1, %2;', reg, reg * 2, f'div{w}',
             f'(u64)(ref::sext(a,{w}) / ref::sext(b,{w})) & {m}')
        form(f'rem.{s}', f'rem.{s} %0, %1, %2;', reg, reg * 2, f'div{w}',
             f'(u64)(ref::sext(a,{w}) % ref::sext(b,{w})) & {m}')
    form('mul.wide.s32', 'mul.wide.s32 %0, %1, %2;', 'l', 'rr', 'i32_2',
         '(u64)(ref::sext(a,32) * ref::sext(b,32))')
    form('mul.wide.u32', 'mul.wide.u32 %0, %1, %2;', 'l', 'rr', 'i32_2',
         '(a & 0xffffffffull) * (b & 0xffffffffull)')
    form('add.sat.s32', 'add.sat.s32 %0, %1, %2;', 'r', 'rr', 'i32_2',
         '(u64)(uint32_t)std::min<int64_t>(INT32_MAX, std::max<int64_t>('
         'INT32_MIN, ref::sext(a,32) + ref::sext(b,32)))')
    # Integer immediates in each literal syntax.
    for lit, val in [('7', '7ull'), ('-1', '0xffffffffull'),
                     ('0x80000000', '0x80000000ull'), ('0xFFFFFFFF', '0xffffffffull'),
                     ('-2147483648', '0x80000000ull'), ('017', '15ull'),
                     ('0b101', '5ull')]:
        form(f'add.s32 imm {lit}', f'add.s32 %0, %1, {lit};', 'r', 'r',
             'i32_1', f'(a + {val}) & 0xffffffffull')
    for lit, val in [('-1', '~0ull'), ('0x8000000000000000', '1ull << 63'),
                     ('4294967296', '1ull << 32'), ('-4294967297', '0ull - 4294967297ull')]:
        form(f'add.s64 imm {lit}', f'add.s64 %0, %1, {lit};', 'l', 'l',
             'i64_1', f'a + ({val})')


def mov_forms():
    for lit, val in [('0dC338000000000000', '0xC338000000000000ull'),
                     ('0d7FF8000000000001', '0x7FF8000000000001ull'),
                     ('0x123456789ABCDEF0', '0x123456789ABCDEF0ull'),
                     ('-1', '~0ull'), ('-9223372036854775808', '1ull << 63'),
                     ('1.5', '0x3FF8000000000000ull')]:
        for ty in ['b64', 'u64', 'f64']:
            isF = lit[:2] in ('0d', '0f') or '.' in lit
            if (ty[0] == 'f' and not isF) or (ty[0] == 'u' and isF):
                continue  # ptxas rejects these pairings
            form(f'mov.{ty} imm {lit}', f'mov.{ty} %0, {lit};', 'l', '',
                 'idx', val)
    for lit, val in [('0f3FC00000', '0x3FC00000ull'), ('0f80000001', '0x80000001ull'),
                     ('0x89ABCDEF', '0x89ABCDEFull'), ('-2', '0xFFFFFFFEull'),
                     ('1.5', '0x3FC00000ull')]:
        for ty in ['b32', 'u32', 'f32']:
            isF = lit[:2] in ('0d', '0f') or '.' in lit
            if (ty[0] == 'f' and not isF) or (ty[0] == 'u' and isF) or (
                    ty[0] == 'b' and lit == '1.5'):
                continue  # ptxas rejects these pairings
            form(f'mov.{ty} imm {lit}', f'mov.{ty} %0, {lit};', 'r', '',
                 'idx', val)
    sregs = [('%tid.x', 'a % 128'), ('%ntid.x', '128'), ('%ctaid.x', 'a / 128'),
             ('%laneid', 'a % 32'), ('%lanemask_eq', '1ull << (a % 32)'),
             ('%lanemask_lt', '(1ull << (a % 32)) - 1'),
             ('%lanemask_le', '((2ull << (a % 32)) - 1) & 0xffffffffull'),
             ('%lanemask_gt', '~((2ull << (a % 32)) - 1) & 0xffffffffull'),
             ('%lanemask_ge', '~((1ull << (a % 32)) - 1) & 0xffffffffull'),
             ('%tid.y', '0'), ('%nctaid.y', '1')]
    for sr, e in sregs:
        form(f'mov.u32 {sr}', f'mov.u32 %0, %{sr};', 'r', '', 'idx', e)
    form('mov.b64 pack', 'mov.b64 %0, {%1, %2};', 'l', 'rr', 'i32_2',
         '(a & 0xffffffffull) | (b << 32)')
    form('mov.b64 unpack',
         '{ .reg .b32 lo, hi; mov.b64 {lo, hi}, %1; xor.b32 %0, lo, hi; }',
         'r', 'l', 'i64_1', '(a ^ (a >> 32)) & 0xffffffffull')
    form('mov.b32 pack16', '{ .reg .b16 x, y; cvt.u16.u32 x, %1; '
         'cvt.u16.u32 y, %2; mov.b32 %0, {x, y}; }', 'r', 'rr', 'i32_2',
         '(a & 0xffffull) | ((b & 0xffffull) << 16)')


def cmp_forms():
    fcmp = {'eq': 'x == y', 'ne': '!(x != x || y != y) && x != y',
            'lt': 'x < y', 'le': 'x <= y', 'gt': 'x > y', 'ge': 'x >= y',
            'equ': 'x != x || y != y || x == y', 'neu': 'x != y',
            'ltu': '!(x >= y)', 'leu': '!(x > y)', 'gtu': '!(x <= y)',
            'geu': '!(x < y)', 'num': 'x == x && y == y',
            'nan': 'x != x || y != y'}
    for c, e in fcmp.items():
        for ty, reg, conv in [('f32', 'r', 'ref::f'), ('f64', 'l', 'ref::d')]:
            body = (f'{{ .reg .pred p; setp.{c}.{ty} p, %1, %2; '
                    'selp.u32 %0, 1, 0, p; }')
            form(f'setp.{c}.{ty}', body, 'r', reg * 2, f'{ty}_2',
                 f'[&] {{ auto x = {conv}(a), y = {conv}(b); return (u64)({e}); }}()')
        form(f'set.{c}.u32.f32', f'set.{c}.u32.f32 %0, %1, %2;', 'r', 'rr',
             'f32_2', f'[&] {{ auto x = ref::f(a), y = ref::f(b); '
             f'return ({e}) ? 0xffffffffull : 0ull; }}()')
    for c, op in [('eq', '=='), ('ne', '!='), ('lt', '<'), ('le', '<='),
                  ('gt', '>'), ('ge', '>=')]:
        for ty in ['s32', 'u32', 's64', 'u64']:
            w = int(ty[1:])
            reg = 'r' if w == 32 else 'l'
            cast = f'ref::sext(a,{w})' if ty[0] == 's' else f'(a & ref::mask({w}))'
            castb = cast.replace('a', 'b').replace('mbsk', 'mask')
            body = (f'{{ .reg .pred p; setp.{c}.{ty} p, %1, %2; '
                    'selp.u32 %0, 1, 0, p; }')
            form(f'setp.{c}.{ty}', body, 'r', reg * 2, f'i{w}_2',
                 f'(u64)({cast} {op} {castb})')
    for c, op in [('lo', '<'), ('hi', '>'), ('ls', '<='), ('hs', '>=')]:
        body = (f'{{ .reg .pred p; setp.{c}.u32 p, %1, %2; '
                'selp.u32 %0, 1, 0, p; }')
        form(f'setp.{c}.u32', body, 'r', 'rr', 'i32_2',
             f'(u64)((a & 0xffffffffull) {op} (b & 0xffffffffull))')
    form('selp.b32', '{ .reg .pred p; setp.ne.u32 p, %3, 0; '
         'selp.b32 %0, %1, %2, p; }', 'r', 'rrr', 'i32_3',
         '(c & 0xffffffffull) ? a : b')
    form('selp.f64', '{ .reg .pred p; setp.ne.u64 p, %3, 0; '
         'selp.f64 %0, %1, %2, p; }', 'l', 'lll', 'i64_3', 'c ? a : b')
    form('setp.lt.and.s32', '{ .reg .pred p, q; setp.ne.u32 q, %3, 0; '
         'setp.lt.s32.and p, %1, %2, q; selp.u32 %0, 1, 0, p; }', 'r', 'rrr',
         'i32_3', '(u64)((ref::sext(a,32) < ref::sext(b,32)) && (c & 0xffffffffull))')


def key_of(name):
    """The scripts/ptx-forms.py key of a suite form name."""
    spec = importlib.util.spec_from_file_location(
        'ptxforms', os.path.join(HERE, '..', '..', '..', 'scripts',
                                 'ptx-forms.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    parts = [p for p in name.split() if not p.startswith('#')]
    if len(parts) == 1:
        return parts[0]
    if parts[1] == 'imm':
        kinds = []
        for lit in parts[2:]:
            if mod.operand_kind(lit) not in kinds:
                kinds.append(mod.operand_kind(lit))
        return ' '.join([parts[0]] + kinds)
    if parts[1].startswith('%'):
        return f'{parts[0]} {mod.operand_kind(parts[1])}'
    return f'{parts[0]} vec'


def imm_variants():
    """Second operand as an immediate, for the binary forms clang emits so."""
    lits32 = [('7', '7ull'), ('-3', '0xfffffffdull'), ('0xF0F0F0F0', '0xf0f0f0f0ull')]
    lits64 = [('7', '7ull'), ('-3', '~2ull'), ('0x7FFFFFFFFFFFFFFF', '~0ull >> 1')]
    litsh = [('5', '5ull'), ('31', '31ull')]
    base = list(FORMS)
    for name, ptx, dst, srcs, cls, ref, check in base:
        if ' ' in name or srcs not in ('rr', 'll', 'lr'):
            continue
        op = name.split('.')[0]
        if cls in ('f32_2', 'f64_2'):
            if op not in ('add', 'sub', 'mul', 'div', 'min', 'max', 'setp'):
                continue
            if op in ('add', 'sub', 'mul', 'div') and '.rn.' not in name and \
                    '.rz.' not in name:
                continue
            lits = [('0f3F800000', '0x3f800000ull'), ('0fFF800000', '0xff800000ull')] \
                if cls == 'f32_2' else [('0d3FF0000000000000', '0x3ff0000000000000ull'),
                                        ('0dC338000000000000', '0xc338000000000000ull')]
        elif cls in ('i32_2', 'i64_2'):
            lits = lits32 if cls == 'i32_2' else lits64
        elif cls in ('sh32', 'sh64'):
            lits = litsh
        else:
            continue
        for lit, val in lits:
            form(f'{name} imm {lit}', ptx.replace('%2', lit), dst, srcs[0],
                 cls[:-1] + '1' if cls[-1] == '2' else cls,
                 f'[&] {{ b = {val}; return {ref}; }}()', check)


def half_forms():
    """f16/bf16 conversions that clang emits."""
    for rm in RMS:
        form(f'cvt.{rm}.f16.f32', f'cvt.{rm}.f16.f32 %0, %1;', 'h', 'r', 'f32_1',
             f'ref::narrow(ref::{rm.upper()}, ref::f(a), 10, -14, 15)', 'nan16')
        form(f'cvt.{rm}.bf16.f32', f'cvt.{rm}.bf16.f32 %0, %1;', 'h', 'r',
             'f32_1', f'ref::narrow(ref::{rm.upper()}, ref::f(a), 7, -126, 127)',
             'nanbf16')
    form('cvt.f32.f16', 'cvt.f32.f16 %0, %1;', 'r', 'h', 'i32_1',
         'ref::f16tof32(a & 0xffff)', 'nan')
    form('cvt.f32.bf16', 'cvt.f32.bf16 %0, %1;', 'r', 'h', 'i32_1',
         '(a & 0xffffull) << 16', 'nan')


def carry_bit_forms():
    """Carry chains, funnel shifts, byte permute, lop3, bfi, dp4a."""
    M = '0xffffffffull'
    cin = f'((c & {M}) != 0)'
    form('add.cc.u32', '{ .reg .b32 t; add.cc.u32 t, %1, %2; '
         'addc.u32 %0, 0, 0; }', 'r', 'rr', 'i32_2',
         f'((a & {M}) + (b & {M})) >> 32')
    form('addc.u32', '{ .reg .b32 t; add.cc.u32 t, %3, -1; '
         'addc.u32 %0, %1, %2; }', 'r', 'rrr', 'i32_3',
         f'(a + b + {cin}) & {M}')
    form('addc.cc.u32', '{ .reg .b32 t, u; add.cc.u32 t, %3, -1; '
         'addc.cc.u32 u, %1, %2; addc.u32 %0, 0, 0; }', 'r', 'rrr', 'i32_3',
         f'((a & {M}) + (b & {M}) + {cin}) >> 32')
    form('sub.cc.u32', '{ .reg .b32 t; sub.cc.u32 t, %1, %2; '
         'subc.u32 %0, 0, 0; }', 'r', 'rr', 'i32_2',
         f'(a & {M}) < (b & {M}) ? {M} : 0')
    form('subc.u32', '{ .reg .b32 t; sub.cc.u32 t, 0, %3; '
         'subc.u32 %0, %1, %2; }', 'r', 'rrr', 'i32_3',
         f'(a - b - {cin}) & {M}')
    form('subc.cc.u32', '{ .reg .b32 t, u; sub.cc.u32 t, 0, %3; '
         'subc.cc.u32 u, %1, %2; subc.u32 %0, 0, 0; }', 'r', 'rrr', 'i32_3',
         f'(a & {M}) < (b & {M}) + {cin} ? {M} : 0')
    cin64 = '(c != 0)'
    form('add.cc.s64', '{ .reg .b64 t; add.cc.s64 t, %1, %2; '
         'addc.s64 %0, 0, 0; }', 'l', 'll', 'i64_2', '(u64)(a + b < a)')
    form('addc.cc.s64', '{ .reg .b64 t, u; add.cc.s64 t, %3, -1; '
         'addc.cc.s64 u, %1, %2; addc.s64 %0, 0, 0; }', 'l', 'lll', 'i64_3',
         f'(u64)(((unsigned __int128)a + b + {cin64}) >> 64)')
    form('mad.lo.cc.u32', '{ .reg .b32 t; mad.lo.cc.u32 t, %1, %2, %3; '
         'addc.u32 %0, 0, 0; }', 'r', 'rrr', 'i32_3',
         f'((((a & {M}) * (b & {M})) & {M}) + (c & {M})) >> 32')
    form('madc.hi.u32', '{ .reg .b32 t; mad.lo.cc.u32 t, %1, %2, %3; '
         'madc.hi.u32 %0, %1, %2, 0; }', 'r', 'rrr', 'i32_3',
         f'(ref::mulhiU(a, b, 32) + (((((a & {M}) * (b & {M})) & {M}) + '
         f'(c & {M})) >> 32)) & {M}')
    form('madc.lo.cc.u32', '{ .reg .b32 t, u; add.cc.u32 t, %3, -1; '
         'madc.lo.cc.u32 u, %1, %2, %3; addc.u32 %0, 0, 0; }', 'r', 'rrr',
         'i32_3', f'((((a & {M}) * (b & {M})) & {M}) + (c & {M}) + {cin}) >> 32')
    for d, m in [('l', 'wrap'), ('l', 'clamp'), ('r', 'wrap'), ('r', 'clamp')]:
        n = '(c & 31)' if m == 'wrap' else 'std::min<u64>(c & 0xffffffffull, 32)'
        e = (f'(((b << 32 | (a & {M})) << {n}) >> 32) & {M}' if d == 'l' else
             f'((b << 32 | (a & {M})) >> {n}) & {M}')
        form(f'shf.{d}.{m}.b32', f'shf.{d}.{m}.b32 %0, %1, %2, %3;', 'r', 'rrr',
             'i32_3', e)
    form('shf.l.wrap.b32 imm 5', 'shf.l.wrap.b32 %0, %1, %2, 5;', 'r', 'rr',
         'i32_2', f'(((b << 32 | (a & {M})) << 5) >> 32) & {M}')
    form('prmt.b32', 'prmt.b32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         'ref::prmt(a, b, c)')
    form('prmt.b32 imm 0x7531', 'prmt.b32 %0, %1, %2, 0x7531;', 'r', 'rr',
         'i32_2', 'ref::prmt(a, b, 0x7531)')
    for lut in ['0x96', '0xE8', '0x1E']:
        form(f'lop3.b32 imm {lut}', f'lop3.b32 %0, %1, %2, %3, {lut};', 'r',
             'rrr', 'i32_3', f'ref::lop3(a, b, c, {lut})')
    form('bfi.b32', '{ .reg .b32 t; mov.b32 t, 0x12345678; '
         'bfi.b32 %0, %1, t, %2, %3; }', 'r', 'rrr', 'bfe',
         'ref::bfi(a, 0x12345678, b, c, 32)')
    form('dp4a.s32.s32', 'dp4a.s32.s32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         'ref::dp4a(a, b, c)')


def warp_forms():
    """shfl and vote on full warps: lane j of a warp holds value(j), so the
    reference knows every lane's input (class idx: a is the thread index)."""
    val = 'v(a - a % 32 + ({j}))'
    pre = ('{ .reg .b32 v; mad.lo.u32 v, %1, -1640531527, 1; ')
    for mode, c, src in [('idx', 31, '5'), ('up', 0, 'a % 32 >= 3 ? a % 32 - 3 : a % 32'),
                         ('down', 31, 'a % 32 + 3 <= 31 ? a % 32 + 3 : a % 32'),
                         ('bfly', 31, '(a % 32) ^ 3')]:
        lane = '5' if mode == 'idx' else '3'
        form(f'shfl.sync.{mode}.b32 imm {lane} -1',
             pre + f'shfl.sync.{mode}.b32 %0, v, {lane}, {c}, -1; }}', 'r', 'r',
             'idx', '[&] { auto v = [](u64 i) { return (i * 0x9E3779B9ull + 1) '
             f'& 0xffffffffull; }}; return {val.format(j=src)}; }}()')
    body = ('{ .reg .pred p, q; .reg .b32 t; and.b32 t, %1, 5; '
            'setp.ne.u32 p, t, 0; ')
    warp = ('[&] { u64 r = 0; for (u64 j = 0; j < 32; ++j) r |= (u64)(((a - a % 32 + j) '
            '& 5) != 0) << j; return EXPR; }()')
    form('vote.sync.ballot.b32 imm -1', body + 'vote.sync.ballot.b32 %0, p, -1; }',
         'r', 'r', 'idx', warp.replace('EXPR', 'r'))
    form('vote.sync.any.pred imm -1', body + 'vote.sync.any.pred q, p, -1; '
         'selp.u32 %0, 1, 0, q; }', 'r', 'r', 'idx',
         warp.replace('EXPR', '(u64)(r != 0)'))
    form('vote.sync.all.pred imm -1', '{ .reg .pred p, q; setp.ne.u32 p, %1, 7; '
         'vote.sync.all.pred q, p, -1; selp.u32 %0, 1, 0, q; }', 'r', 'r', 'idx',
         '(u64)(a / 32 != 0)')


def more_forms():
    """Aliases and small forms clang emits (see clang-forms.txt)."""
    for op, OP in [('add', 'ADD'), ('sub', 'SUB'), ('mul', 'MUL')]:
        form(f'{op}.f32', f'{op}.f32 %0, %1, %2;', 'r', 'rr', 'f32_2',
             f'ref::f32op(ref::{OP}, ref::RN, false, false, a, b, c)', 'nan')
        form(f'{op}.f64', f'{op}.f64 %0, %1, %2;', 'l', 'll', 'f64_2',
             f'ref::f64op(ref::{OP}, ref::RN, a, b, c)', 'nan')
    form('add.sat.f32', 'add.sat.f32 %0, %1, %2;', 'r', 'rr', 'f32_2',
         'ref::f32op(ref::ADD, ref::RN, false, true, a, b, c)', 'nan')
    for t, m in [('u32', '0xffffffffull'), ('u64', '~0ull')]:
        reg = 'r' if t == 'u32' else 'l'
        form(f'add.{t}', f'add.{t} %0, %1, %2;', reg, reg * 2, f'i{t[1:]}_2',
             f'(a + b) & {m}')
    form('mad.lo.u64', 'mad.lo.u64 %0, %1, %2, %3;', 'l', 'lll', 'i64_3',
         'a * b + c')
    form('mad.wide.u32', 'mad.wide.u32 %0, %1, %2, %3;', 'l', 'rrl', 'i32_3',
         '(a & 0xffffffffull) * (b & 0xffffffffull) + c')
    form('mad.hi.s32', 'mad.hi.s32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         '(ref::mulhiS(a, b, 32) + c) & 0xffffffffull')
    form('mul24.lo.s32', 'mul24.lo.s32 %0, %1, %2;', 'r', 'rr', 'i32_2',
         '(u64)(ref::sext(a, 24) * ref::sext(b, 24)) & 0xffffffffull')
    form('mul24.hi.u32', 'mul24.hi.u32 %0, %1, %2;', 'r', 'rr', 'i32_2',
         '(((a & 0xffffffull) * (b & 0xffffffull)) >> 16) & 0xffffffffull')
    form('sad.u32', 'sad.u32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         '(((a & 0xffffffffull) > (b & 0xffffffffull) ? a - b : b - a) + c) & 0xffffffffull')
    form('sad.s32', 'sad.s32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         '((u64)(ref::sext(a,32) > ref::sext(b,32) ? ref::sext(a,32) - ref::sext(b,32)'
         ' : ref::sext(b,32) - ref::sext(a,32)) + c) & 0xffffffffull')
    for t, w in [('s16', 16), ('u16', 16)]:
        form(f'sub.{t}', f'sub.{t} %0, %1, %2;', 'h', 'hh', 'i32_2',
             '(a - b) & 0xffffull')
        form(f'mul.lo.{t}', f'mul.lo.{t} %0, %1, %2;', 'h', 'hh', 'i32_2',
             '(a * b) & 0xffffull')
    form('mul.hi.u16', 'mul.hi.u16 %0, %1, %2;', 'h', 'hh', 'i32_2',
         '((a & 0xffffull) * (b & 0xffffull)) >> 16')
    form('shr.u16', 'shr.u16 %0, %1, %2;', 'h', 'hr', 'sh32',
         'ref::shrU(a & 0xffff, b, 16)')
    for s, d, e in [('s16', 's32', '(u64)ref::sext(a, 16) & 0xffffffffull'),
                    ('s16', 's64', '(u64)ref::sext(a, 16)'),
                    ('u16', 'u64', 'a & 0xffffull')]:
        form(f'cvt.{d}.{s}', f'cvt.{d}.{s} %0, %1;', 'r' if d[1:] == '32' else 'l',
             'h', 'i32_1', e)
    form('cvt.u16.u32', 'cvt.u16.u32 %0, %1;', 'h', 'r', 'i32_1', 'a & 0xffffull')
    form('cvt.sat.s8.s32', 'cvt.sat.s8.s32 %0, %1;', 'h', 'r', 'i32_1',
         '(u64)(uint8_t)(int8_t)std::max<int64_t>(-128, std::min<int64_t>(127, ref::sext(a, 32)))'
         ' & 0xffull', 'low8')
    form('cvt.sat.u8.u32', 'cvt.sat.u8.u32 %0, %1;', 'h', 'r', 'i32_1',
         '(a & 0xffffffffull) > 255 ? 255 : (a & 0xffffffffull)', 'low8')
    form('cvt.rzi.s16.f32', 'cvt.rzi.s16.f32 %0, %1;', 'h', 'r', 'f32_1',
         '(u64)(uint16_t)ref::toInt<int16_t>(ref::RZ, ref::f(a))')
    form('cvt.sat.f32.f32', 'cvt.sat.f32.f32 %0, %1;', 'r', 'r', 'f32_1',
         'ref::bits(ref::sat(ref::f(a)))')
    form('copysign.f32', 'copysign.f32 %0, %1, %2;', 'r', 'rr', 'f32_2',
         '(b & 0x7fffffffull) | (a & 0x80000000ull)')
    form('copysign.f64', 'copysign.f64 %0, %1, %2;', 'l', 'll', 'f64_2',
         '(b & ~0ull >> 1) | (a & 1ull << 63)')
    for t, fn in [('finite', 'std::isfinite(x)'), ('infinite', 'std::isinf(x)'),
                  ('number', '!std::isnan(x)'), ('notanumber', 'std::isnan(x)'),
                  # "positive and negative zero are considered normal"
                  ('normal', 'std::isnormal(x) || x == 0'),
                  ('subnormal', 'std::fpclassify(x) == FP_SUBNORMAL')]:
        for ty, reg, conv in [('f32', 'r', 'ref::f'), ('f64', 'l', 'ref::d')]:
            form(f'testp.{t}.{ty}', f'{{ .reg .pred p; testp.{t}.{ty} p, %1; '
                 'selp.u32 %0, 1, 0, p; }', 'r', reg, f'{ty}_1',
                 f'[&] {{ auto x = {conv}(a); return (u64)({fn}); }}()')
    for op, e in [('and', '&&'), ('or', '||'), ('xor', '!=')]:
        form(f'{op}.pred', f'{{ .reg .pred p, q, r; setp.ne.u32 p, %1, 0; '
             f'setp.ne.u32 q, %2, 0; {op}.pred r, p, q; selp.u32 %0, 1, 0, r; }}',
             'r', 'rr', 'i32_2',
             f'(u64)(((a & 0xffffffffull) != 0) {e} ((b & 0xffffffffull) != 0))')
    form('not.pred', '{ .reg .pred p, r; setp.ne.u32 p, %1, 0; not.pred r, p; '
         'selp.u32 %0, 1, 0, r; }', 'r', 'r', 'i32_1',
         '(u64)((a & 0xffffffffull) == 0)')
    form('slct.u32.s32', 'slct.u32.s32 %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
         'ref::sext(c, 32) >= 0 ? a : b')
    form('slct.f32.f32', 'slct.f32.f32 %0, %1, %2, %3;', 'r', 'rrr', 'f32_3',
         'ref::f(c) >= 0.0f || (c & 0xffffffffull) == 0x80000000ull ? a : b')
    for t in ['b32', 'b64']:
        reg = 'r' if t == 'b32' else 'l'
        for c, op in [('eq', '=='), ('ne', '!=')]:
            form(f'setp.{c}.{t}', f'{{ .reg .pred p; setp.{c}.{t} p, %1, %2; '
                 'selp.u32 %0, 1, 0, p; }', 'r', reg * 2, f'i{t[1:]}_2',
                 f'(u64)(a {op} b)')
    form('selp.b64', '{ .reg .pred p; setp.ne.u64 p, %3, 0; '
         'selp.b64 %0, %1, %2, p; }', 'l', 'lll', 'i64_3', 'c ? a : b')
    form('selp.f32', '{ .reg .pred p; setp.ne.u32 p, %3, 0; '
         'selp.f32 %0, %1, %2, p; }', 'r', 'rrr', 'f32_3',
         '(c & 0xffffffffull) ? a : b')
    for t, reg in [('b16', 'h'), ('b32', 'r'), ('b64', 'l'), ('u32', 'r')]:
        form(f'mov.{t}', f'mov.{t} %0, %1;', reg, reg, 'i64_1',
             f'a & {"0xffffull" if reg == "h" else "0xffffffffull" if reg == "r" else "~0ull"}')


def matrix_forms():
    """Scalar forms of the warp-matrix family (emitted last so that the
    kernels before keep their numbers)."""
    form('cvt.rna.tf32.f32', 'cvt.rna.tf32.f32 %0, %1;', 'r', 'r', 'f32_1',
         'ref::tf32Rna(ref::f(a))', 'nan')


def emit():
    float_forms()
    approx_forms()
    half_forms()
    carry_bit_forms()
    warp_forms()
    more_forms()
    cvt_forms()
    int_forms()
    mov_forms()
    cmp_forms()
    imm_variants()
    matrix_forms()
    gen_extra.emit_all(form)
    out = ['// GENERATED by test/conformance/instr/gen_instr.py -- do not edit.',
           '// Regenerate: python3 test/conformance/instr/gen_instr.py',
           '// clang-format off', '#pragma once', '']
    table = []
    for i, (name, ptx, dst, srcs, cls, ref, check) in enumerate(FORMS):
        args = ['const u64 *A', 'const u64 *B', 'const u64 *C', 'u64 *O',
                'int n']
        body = [f'  {CTYPE[dst]} d;']
        ins = []
        for j, s in enumerate(srcs):
            arr = 'ABC'[j]
            body.append(f'  {CTYPE[s]} s{j} = ({CTYPE[s]}){arr}[i];')
            ins.append(f'"{s}"(s{j})')
        esc = ptx.replace('"', '\\"')
        body.append(f'  asm volatile("{esc}" : "={dst}"(d) : {", ".join(ins)});'
                    if ins else f'  asm volatile("{esc}" : "={dst}"(d));')
        out.append(f'// {name}')
        out.append(f'__global__ void k{i}({", ".join(args)}) {{')
        out.append('  int i = blockIdx.x * blockDim.x + threadIdx.x;')
        out.append('  if (i >= n)\n    return;')
        out += body
        out.append('  O[i] = d;\n}')
        table.append(f'    {{"{name}", k{i}, "{cls}", {len(srcs)}, {"r" if dst == "r" else ("h" if dst == "h" else "l")!r}, '
                     f'[](u64 a, u64 b, u64 c) -> u64 {{ (void)a; (void)b; (void)c; return {ref}; }}, '
                     f'Check::{check.capitalize()}, '
                     f'{bounds(name)}}},')
    out.append('')
    out.append('static const Form kForms[] = {')
    out += table
    out.append('};')
    with open(os.path.join(HERE, 'instr_forms.h'), 'w') as fh:
        fh.write('\n'.join(out) + '\n')
    with open(os.path.join(HERE, 'covered-forms.txt'), 'w') as fh:
        fh.write('# GENERATED by gen_instr.py: forms the suite covers\n')
        for f in sorted({key_of(f[0]) for f in FORMS}):
            fh.write(f + '\n')
    print(f'{len(FORMS)} forms')


if __name__ == '__main__':
    emit()

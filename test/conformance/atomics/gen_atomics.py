#!/usr/bin/env python3
"""Generates atomics_forms.h for the atomics conformance suite (issue 16).

One kernel per variant: a PTX atom/red form spelled as clang 22 emits it (see
test/conformance/instr/clang-forms.txt), in asm volatile, with register
operands or with the operand(s) clang gives as an immediate in that literal
syntax (each immediate form runs with a few literals). .global and .shared
forms convert the generic pointer in the same asm block (cvta.to.*);
generic forms take the pointer as it is, so the harness (atomics.cu) runs
them on global memory and on a generic address of shared memory. The host
reference is in atomics_ref.h. Run from anywhere:
    python3 test/conformance/atomics/gen_atomics.py
and check in the regenerated atomics_forms.h and covered-forms.txt.
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))

# The atom/red forms of clang-forms.txt (ptx-forms.py keys).
CLANG_FORMS = """
atom.acquire.sys.cas.b32
atom.acquire.sys.global.cas.b32
atom.acquire.sys.global.cas.b32 imm:dec
atom.acquire.sys.global.cas.b32 imm:neg
atom.add.f32
atom.add.f64
atom.add.u32
atom.add.u64
atom.and.b32
atom.dec.u32
atom.exch.b32
atom.global.add.f32
atom.global.add.f32 imm:0f
atom.global.add.f64 imm:0d
atom.global.add.u32
atom.global.add.u32 imm:dec
atom.global.add.u64
atom.global.and.b32
atom.global.dec.u32 imm:dec
atom.global.exch.b32 imm:dec
atom.global.inc.u32
atom.global.inc.u32 imm:dec
atom.global.max.s32
atom.global.min.s32
atom.global.min.s32 imm:dec
atom.global.or.b32
atom.global.or.b32 imm:dec
atom.global.xor.b32
atom.global.xor.b32 imm:dec
atom.inc.u32
atom.max.s32
atom.min.s32
atom.or.b32
atom.shared.add.f32
atom.shared.add.u32 imm:dec
atom.shared.cas.b32 imm:dec
atom.shared.max.s32
atom.shared.or.b32
atom.xor.b32
red.global.add.u64
red.global.add.u64 imm:dec
red.shared.add.u32
""".split('\n')

# Forms clang does not emit for the repository's sources but CUDA programs
# reach through the atomic intrinsics (unsigned and 64-bit min/max, 64-bit
# bit operations, reductions of every kind), register operands only.
EXTRA_FORMS = """
atom.global.min.u32
atom.global.max.u32
atom.global.min.u64
atom.global.max.u64
atom.global.min.s64
atom.global.max.s64
atom.global.and.b64
atom.global.or.b64
atom.global.xor.b64
atom.global.exch.b64
atom.global.cas.b64
atom.global.cas.b32
atom.global.dec.u32
atom.global.exch.b32
atom.global.add.f64
atom.shared.add.u64
atom.shared.add.f64
atom.shared.inc.u32
atom.shared.dec.u32
atom.shared.min.u32
atom.shared.exch.b64
atom.shared.cas.b64
atom.min.u64
atom.max.s64
atom.cas.b64
atom.relaxed.gpu.global.add.u32
atom.acq_rel.gpu.global.exch.b32
red.global.add.u32
red.global.add.s32
red.global.add.f32
red.global.add.f64
red.global.and.b32
red.global.or.b32
red.global.xor.b32
red.global.min.s32
red.global.max.u32
red.global.inc.u32
red.global.dec.u32
red.global.min.s64
red.global.max.u64
red.shared.add.f32
red.shared.add.u64
red.shared.min.u32
red.shared.xor.b32
red.add.u32
red.add.f32
red.release.gpu.global.add.u32
""".split('\n')

# Literals per immediate kind and operation: edges of each type.
LITERALS = {
    ('imm:dec', 'u32'): ['0', '1', '4294967295'],
    ('imm:dec', 'inc'): ['0', '1', '5', '4294967295'],
    ('imm:dec', 's32'): ['0', '7', '2147483647'],
    ('imm:dec', 'b32'): ['0', '1', '2147483648', '4294967295'],
    ('imm:dec', 'u64'): ['1', '4294967296', '9223372036854775807'],
    ('imm:neg', 'b32'): ['-1', '-2147483648'],
    ('imm:0f', 'f32'): ['0f3F800000', '0f80000000', '0f00000001',
                        '0f807FFFFF', '0f7F800000', '0fFFC00000'],
    ('imm:0d', 'f64'): ['0d3FF0000000000000', '0d8000000000000000',
                        '0d0000000000000001', '0dFFF0000000000000',
                        '0d7FF8000000000000'],
}
CTYPE = {'r': 'unsigned', 'l': 'unsigned long long'}


def ptx_forms():
    spec = importlib.util.spec_from_file_location(
        'ptx_forms', os.path.join(ROOT, 'scripts', 'ptx-forms.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def lit_value(lit, width):
    """The bits an immediate literal stands for, as a C++ constant."""
    mask = (1 << width) - 1
    if lit[:2] in ('0f', '0d'):
        return f'0x{int(lit[2:], 16):x}ull'
    return f'0x{int(lit) & mask:x}ull'


def variants(key):
    """(instruction text, b literal, c literal) for one form key."""
    parts = key.split()
    opc, kinds = parts[0], parts[1:]
    mods = opc.split('.')
    op, ty = mods[-2], mods[-1]
    if not kinds:
        return [(opc, None, None)]
    kind = kinds[0]
    lits = LITERALS.get((kind, 'inc' if op in ('inc', 'dec') else ty))
    out = []
    for lit in lits:
        out.append((opc, lit, None))
        if op == 'cas':  # the swap value, and both, as immediates
            out.append((opc, None, lit))
            out.append((opc, lit, lits[-1 if lit == lits[0] else 0]))
    return out


def kernel(i, opc, blit, clit):
    mods = opc.split('.')
    is_red = mods[0] == 'red'
    op, ty = mods[-2], mods[-1]
    reg = 'l' if ty.endswith('64') else 'r'
    space = 'global' if 'global' in mods else 'shared' if 'shared' in mods \
        else ''
    # Operand numbers: atom's destination is %0.
    n0 = 0 if is_red else 1
    ptr, bop, cop = f'%{n0}', f'%{n0 + 1}', f'%{n0 + 2}'
    addr = ptr
    pre = ''
    if space:
        pre = f'.reg .u64 wsa; cvta.to.{space}.u64 wsa, {ptr}; '
        addr = 'wsa'
    srcs = [blit or bop]
    if op == 'cas':
        srcs.append(clit or cop)
    dst = '' if is_red else '%0, '
    text = f'{opc} {dst}[{addr}], {", ".join(srcs)};'
    asm = '{ ' + pre + text + ' }'
    ins = f'"l"(p), "{reg}"(b), "{reg}"(c)'
    call = (f'asm volatile("{asm}" :: {ins} : "memory");' if is_red else
            f'asm volatile("{asm}" : "={reg}"(d) : {ins} : "memory");')
    c = CTYPE[reg]
    return text, [
        f'__global__ void k{i}(u64 *M, const u64 *B, const u64 *C, u64 *O, '
        'int n, int sh) {',
        '  __shared__ u64 S[kBlock];',
        '  int i = blockIdx.x * blockDim.x + threadIdx.x;',
        '  if (i >= n)',
        '    return;',
        '  u64 *p = sh ? &S[threadIdx.x] : &M[i];',
        '  if (sh)',
        '    *p = M[i];',
        f'  {c} b = ({c})B[i], c = ({c})C[i], d = ({c})kUnset;',
        '  (void)c;',
        f'  {call}',
        '  if (sh)',
        '    M[i] = *p;',
        '  O[i] = d;',
        '}']


def emit():
    pf = ptx_forms()
    keys = [k.strip() for k in CLANG_FORMS + EXTRA_FORMS if k.strip()]
    out = ['// GENERATED by test/conformance/atomics/gen_atomics.py -- do not '
           'edit.', '// Regenerate: python3 '
           'test/conformance/atomics/gen_atomics.py', '// clang-format off',
           '#pragma once', '']
    table, covered = [], set()
    for key in keys:
        for opc, blit, clit in variants(key):
            i = len(table)
            text, lines = kernel(i, opc, blit, clit)
            got = pf.form_key(text.rstrip(';'))
            assert got == key, (got, key)  # the kernel is the form it claims
            covered.add(key)
            out.append(f'// {text}')
            out += lines
            mods = opc.split('.')
            op, ty = mods[-2], mods[-1]
            space = ('Global' if 'global' in mods else 'Shared'
                     if 'shared' in mods else 'Generic')
            w = 64 if ty.endswith('64') else 32
            bv = lit_value(blit, w) if blit else '0'
            cv = lit_value(clit, w) if clit else '0'
            table.append(
                f'    {{"{key}", "{text}", k{i}, Op::{op.capitalize()}, '
                f'Ty::{ty.upper()}, Space::{space}, '
                f'{str(mods[0] == "atom").lower()}, '
                f'{str(blit is not None).lower()}, {bv}, '
                f'{str(clit is not None).lower()}, {cv}}},')
    out.append('')
    out.append('static const Form kForms[] = {')
    out += table
    out.append('};')
    with open(os.path.join(HERE, 'atomics_forms.h'), 'w') as fh:
        fh.write('\n'.join(out) + '\n')
    with open(os.path.join(HERE, 'covered-forms.txt'), 'w') as fh:
        fh.write('# GENERATED by gen_atomics.py: forms the atomics suite '
                 'covers\n')
        for k in sorted(covered):
            fh.write(k + '\n')
    print(f'{len(table)} kernels, {len(covered)} forms')


if __name__ == '__main__':
    emit()

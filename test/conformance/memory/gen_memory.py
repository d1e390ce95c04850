#!/usr/bin/env python3
"""Generates memory_forms.h for the memory conformance suite (issue 16).

One kernel per PTX memory form (ld, st, cvta, isspacep, cp.async, fence,
membar), the instruction in inline asm (asm volatile) spelled as the form
key has it; memory.cu gives the host reference and runs them. The forms are
those of the clang corpus list (test/conformance/instr/clang-forms.txt) with
these opcodes, plus EXTRA; a corpus form this generator cannot test stops it
with an error. Run from anywhere:
    python3 test/conformance/memory/gen_memory.py
and check in the regenerated memory_forms.h and covered-forms.txt.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, '..', 'instr', 'clang-forms.txt')
OPCODES = ('ld', 'st', 'cvta', 'isspacep', 'cp', 'fence', 'membar')
# Forms clang does not emit that close gaps in what the corpus forms check:
# signed and 16-bit sub-word loads, isspacep for the other spaces, the const
# round trip.
EXTRA = ['ld.global.s8', 'ld.global.s16', 'ld.global.u16', 'ld.s8',
         'ld.shared.s16', 'ld.local.u8', 'isspacep.global',
         'isspacep.local', 'cvta.to.const.u64']

SPACES = {'global': 'g', 'shared': 's', 'local': 'l', 'const': 'c',
          'param': 'p'}
CTYPE = {'h': 'unsigned short', 'r': 'unsigned', 'l': 'unsigned long long',
         'f': 'float', 'd': 'double'}
WIDTH = {'h': 16, 'r': 32, 'l': 64, 'f': 32, 'd': 64}
# Store immediates per element size and literal kind (decimal, negative).
IMMS = {(1, 'dec'): ['0', '127', '128', '255'],
        (2, 'dec'): ['0', '255', '32768', '65535'],
        (4, 'dec'): ['0', '1', '2147483648', '4294967295'],
        (4, 'neg'): ['-1', '-2', '-2147483648'],
        (8, 'dec'): ['0', '1', '4294967296', '9223372036854775807',
                     '18446744073709551615'],
        (8, 'neg'): ['-1', '-4294967296', '-9223372036854775808']}
LOAD_WIN, STORE_WIN, PARAM_WIN = 64, 32, 16


class Mem:
    """An ld/st form key, taken apart."""

    def __init__(self, key):
        self.key = key
        parts = key.split()
        ops = parts[0].split('.')
        self.op = ops[0]
        self.imm = next((p[4:] for p in parts[1:] if p.startswith('imm:')),
                        None)
        self.space = 'G'
        self.vec, self.quals = 1, []
        for m in ops[1:-1]:
            if m in SPACES:
                self.space = SPACES[m]
            elif m in ('v2', 'v4'):
                self.vec = int(m[1])
            elif m in ('nc', 'volatile'):
                self.quals.append(m)
            else:
                sys.exit(f'gen_memory: {key}: unknown modifier .{m}; teach '
                         'gen_memory.py about it')
        t = ops[-1]
        if not re.fullmatch(r'[bsuf](8|16|32|64)', t) or t in ('f8', 'f16'):
            sys.exit(f'gen_memory: {key}: unknown type .{t}')
        self.kind, self.es = t[0], int(t[1:]) // 8
        self.ptx = parts[0]
        self.ident = re.sub(r'[^A-Za-z0-9]', '_', key)

    def regs(self):
        """Register constraints the value may live in (wider ones test the
        extension of loads and the truncation of stores)."""
        if self.vec > 1:
            return ['d' if self.kind == 'f' and self.es == 8 else
                    'f' if self.kind == 'f' else
                    'h' if self.es <= 2 else 'r' if self.es == 4 else 'l']
        if self.kind == 'f':
            return ['f' if self.es == 4 else 'd']
        return {1: ['h', 'r', 'l'], 2: ['h', 'r', 'l'], 4: ['r', 'l'],
                8: ['l']}[self.es]

    def size(self):
        return self.es * self.vec


def vec_ops(first, n):
    if n == 1:
        return f'%{first}'
    return '{' + ', '.join(f'%{first + i}' for i in range(n)) + '}'


def addr_prelude(space):
    """asm text that puts the address of generic pointer %A into a, in the
    state space of the form."""
    name = {'g': 'global', 's': 'shared', 'l': 'local', 'c': 'const'}
    if space == 'G':
        return '.reg .u64 a; mov.u64 a, %A;'
    return f'.reg .u64 a; cvta.to.{name[space]}.u64 a, %A;'


def as_u64(c, expr):
    if c == 'f':
        return f'(unsigned long long)__float_as_uint({expr})'
    if c == 'd':
        return f'(unsigned long long)__double_as_longlong({expr})'
    return f'(unsigned long long){expr}'


def load_kernel(f):
    n = LOAD_WIN // f.size()
    regs = f.regs()
    out = [f'__global__ void {f.ident}(const unsigned char *pat, '
           'unsigned long long *out, int backing) {',
           '  WSM_WINDOW(p, pat, backing);',
           f'  int t = threadIdx.x;\n  if (t >= {n})\n    return;',
           f'  const unsigned char *q = p + t * {f.size()};']
    for w, c in enumerate(regs):
        outs = ', '.join(f'"={c}"(r[{e}])' for e in range(f.vec))
        text = (f'{{ {addr_prelude(f.space).replace("%A", f"%{f.vec}")} '
                f'{f.ptx} {vec_ops(0, f.vec)}, [a]; }}')
        out.append(f'  {{\n    {CTYPE[c]} r[{f.vec}];')
        out.append(f'    asm volatile("{text}" : {outs} : "l"(q) : '
                   '"memory");')
        for e in range(f.vec):
            out.append(f'    out[({w} * {n} + t) * {f.vec} + {e}] = '
                       f'{as_u64(c, f"r[{e}]")};')
        out.append('  }')
    out.append('}')
    return '\n'.join(out), n, regs


def src_value(c, expr):
    if c == 'f':
        return f'__uint_as_float((unsigned)({expr}))'
    if c == 'd':
        return f'__longlong_as_double((long long)({expr}))'
    return f'({CTYPE[c]})({expr})'


def store_kernel(f):
    noff = STORE_WIN // f.size()
    variants = IMMS[(f.es, f.imm)] if f.imm else f.regs()
    out = [f'__global__ void {f.ident}(const unsigned char *bg, '
           'const unsigned long long *vals, unsigned char *outw, '
           'int backing, int nval) {',
           f'  __shared__ __align__(16) unsigned char sw[128 * {STORE_WIN}];',
           f'  __align__(16) unsigned char lw[{STORE_WIN}];',
           '  int c = blockIdx.x * blockDim.x + threadIdx.x;',
           f'  int per = {noff} * (nval), var = c / per;',
           f'  if (var >= {len(variants)})\n    return;',
           f'  int off = c % per % {noff} * {f.size()}, vi = c % per / {noff};',
           f'  unsigned char *w = backing == 0 ? outw + c * {STORE_WIN} : '
           f'backing == 1 ? sw + threadIdx.x * {STORE_WIN} : lw;',
           f'  for (int i = 0; i < {STORE_WIN}; ++i)\n    w[i] = bg[i];',
           '  unsigned char *q = w + off;',
           '  switch (var) {']
    for v, var in enumerate(variants):
        if f.imm:
            text = (f'{{ {addr_prelude(f.space).replace("%A", "%0")} '
                    f'{f.ptx} [a], {var}; }}')
            out.append(f'  case {v}:\n    asm volatile("{text}" :: "l"(q) : '
                       '"memory");\n    break;')
            continue
        ins = ', '.join(
            f'"{var}"({src_value(var, f"vals[(vi + {e}) % nval]")})'
            for e in range(f.vec))
        text = (f'{{ {addr_prelude(f.space).replace("%A", "%0")} '
                f'{f.ptx} [a], {vec_ops(1, f.vec)}; }}')
        out.append(f'  case {v}:\n    asm volatile("{text}" :: "l"(q), {ins} '
                   ': "memory");\n    break;')
    out += ['  }',
            '  if (backing != 0)',
            f'    for (int i = 0; i < {STORE_WIN}; ++i)',
            f'      outw[c * {STORE_WIN} + i] = w[i];', '}']
    return '\n'.join(out), noff, variants


PARAM_CTYPE = {('b', 1): 'unsigned char', ('u', 1): 'unsigned char',
               ('s', 1): 'signed char', ('b', 2): 'unsigned short',
               ('u', 2): 'unsigned short', ('s', 2): 'short',
               ('b', 4): 'unsigned', ('u', 4): 'unsigned', ('s', 4): 'int',
               ('f', 4): 'float', ('b', 8): 'unsigned long long',
               ('u', 8): 'unsigned long long', ('s', 8): 'long long',
               ('f', 8): 'double'}


def param_type(f):
    if f.vec == 1:
        return PARAM_CTYPE[(f.kind, f.es)]
    return {(2, 4): 'uint2', (4, 4): 'uint4', (2, 8): 'ulonglong2'}[
        (f.vec, f.es)]


def ldparam_kernel(f):
    """ld.param of a kernel's parameters: every offset of a 64-byte block
    parameter and two scalar (or vector) parameters of the form's type, one
    thread; the parameters are named as clang names them (extern "C")."""
    name = 'wsm_' + f.ident
    noff = LOAD_WIN // f.size()
    ty = param_type(f)
    out = [f'extern "C" __global__ void {name}(unsigned long long *out, '
           f'WsmBlock blk, {ty} s0, {ty} s1) {{',
           '  if (threadIdx.x || blockIdx.x)\n    return;', '  int k = 0;']
    regs = f.regs()
    places = [f'{name}_param_1+{o * f.size()}' for o in range(noff)] + \
        [f'{name}_param_2', f'{name}_param_3']
    for c in regs:
        for pl in places:
            outs = ', '.join(f'"={c}"(r[{e}])' for e in range(f.vec))
            out.append(f'  {{\n    {CTYPE[c]} r[{f.vec}];')
            out.append(f'    asm volatile("{f.ptx} {vec_ops(0, f.vec)}, '
                       f'[{pl}];" : {outs});')
            for e in range(f.vec):
                out.append(f'    out[k++] = {as_u64(c, f"r[{e}]")};')
            out.append('  }')
    out.append('}')
    launch = [f'static void launch_{f.ident}(unsigned long long *out, '
              'const unsigned char *blk, const unsigned char *s0, '
              'const unsigned char *s1) {',
              '  WsmBlock b;\n  std::memcpy(&b, blk, sizeof b);',
              f'  {ty} a0, a1;',
              '  std::memcpy(&a0, s0, sizeof a0);',
              '  std::memcpy(&a1, s1, sizeof a1);',
              f'  {name}<<<1, 1>>>(out, b, a0, a1);', '}']
    return '\n'.join(out) + '\n' + '\n'.join(launch), noff, regs


def background(i):
    """memory.cu's background byte i."""
    return (0x5a ^ (i * 0x1d)) & 0xff


def stparam_kernel(f):
    """st.param into a call's argument space (the only place a body's .param
    may be written): a 16-byte argument filled with the background, the
    store at each offset, then a call of wsm_echo16, which returns it.

    The ISA's argument .param variable is a mapping onto what the call
    passes, not memory: stores of 4 bytes and more overwrite the background
    (two st.param.b64) as memory would, but sm_90 gave a b8/b16 store over
    it no defined merge (it rewrote the whole 32-bit word). So for those
    the other slots get the background by st.param of the same width, in
    offset order, and every byte is written once (as in the ISA's
    byte-array example)."""
    noff = PARAM_WIN // f.size()
    variants = IMMS[(f.es, f.imm)] if f.imm else f.regs()
    out = [f'__global__ void {f.ident}(const unsigned long long *bg, '
           'const unsigned long long *vals, unsigned long long *outw, '
           'int nval) {',
           '  int c = blockIdx.x * blockDim.x + threadIdx.x;',
           f'  int per = {noff} * (nval), var = c / per;',
           f'  if (var >= {len(variants)})\n    return;',
           f'  int oi = c % per % {noff}, vi = c % per / {noff};',
           '  unsigned long long lo = 0, hi = 0;',
           '  (void)vi;',
           f'  switch (var * {noff} + oi) {{']
    pre = ('{ .param .align 16 .b8 wa[16]; .param .align 8 .b8 wr[16]; '
           'st.param.b64 [wa+0], %2; st.param.b64 [wa+8], %3; ')
    post = ('call.uni (wr), wsm_echo16, (wa); ld.param.b64 %0, [wr+0]; '
            'ld.param.b64 %1, [wr+8]; }')
    sub = f.size() < 4
    for v, var in enumerate(variants):
        for o in range(noff):
            at = f'[wa+{o * f.size()}]'
            store = f'{f.ptx} {at}, {var if f.imm else vec_ops(4, f.vec)}; '
            if sub:
                n = f.size()
                slots = [store if j == o else
                         f'st.param.b{8 * n} [wa+{j * n}], ' +
                         str(sum(background(j * n + k) << (8 * k)
                                 for k in range(n))) + '; '
                         for j in range(noff)]
                text = (pre.split('st.param')[0] + ''.join(slots) + post)
            else:
                text = pre + store + post
            if f.imm:
                ins = ''
            else:
                ins = ', ' + ', '.join(
                    f'"{var}"({src_value(var, f"vals[(vi + {e}) % nval]")})'
                    for e in range(f.vec))
            out.append(f'  case {v * noff + o}:\n    asm volatile("{text}" : '
                       f'"=l"(lo), "=l"(hi) : "l"(bg[0]), "l"(bg[1]){ins} : '
                       '"memory");\n    break;')
    out += ['  }', '  outw[2 * c] = lo;', '  outw[2 * c + 1] = hi;', '}']
    return '\n'.join(out), noff, variants


def cstr(s):
    return '"' + s.replace('"', '\\"') + '"'


def mem_forms(keys):
    kernels, table = [], []
    for key in keys:
        f = Mem(key)
        if f.op == 'ld' and f.space == 'p':
            text, noff, regs = ldparam_kernel(f)
            cat, kern, var = 'P', f'launch_{f.ident}', ''.join(regs)
        elif f.op == 'ld':
            text, noff, regs = load_kernel(f)
            cat, kern, var = 'L', f.ident, ''.join(regs)
        elif f.space == 'p':
            text, noff, var = stparam_kernel(f)
            cat, kern, var = 'Q', f.ident, ''.join(var)
        else:
            text, noff, var = store_kernel(f)
            cat, kern, var = 'S', f.ident, ''.join(var)
        if f.space == 'c' and f.op == 'st':
            sys.exit(f'gen_memory: {key}: stores to .const do not exist')
        imms = 'nullptr'
        if f.imm:
            lits = IMMS[(f.es, f.imm)]
            imms = f'k_{f.ident}_imm'
            kernels.append(f'static const char *const {imms}[] = {{' +
                           ', '.join(cstr(x) for x in lits) + '};')
            var = 'i' * len(lits)
        kernels.append(text)
        table.append(f'    {{{cstr(key)}, \'{cat}\', \'{f.space}\', {f.es}, '
                     f'{f.vec}, \'{f.kind}\', {noff}, {cstr(var)}, {imms}, '
                     f'(void *){kern}}},')
    return kernels, table


CVTA_SPACES = ['global', 'shared', 'local', 'const']


def cvta_kernel(sp):
    """cvta.to.SP of a generic address into SP's window and cvta.SP back:
    the round trip, offsets within the space, the symbol's address (shared
    and const windows are symbols) and loads through both addresses."""
    b = CVTA_SPACES.index(sp)
    sym = {'shared': 'wsm_sw', 'const': 'wsm_cw'}.get(sp)
    lines = [f'__global__ void cvta_{sp}(const unsigned char *pat, '
             'unsigned long long *out, int) {',
             f'  WSM_WINDOW(p, pat, {b});',
             '  int t = threadIdx.x;\n  if (t >= 64)\n    return;',
             '  const unsigned char *q = p + t;',
             '  unsigned long long a, a0, g, s = 0;',
             '  unsigned short v1, v2;',
             f'  asm volatile("cvta.to.{sp}.u64 %0, %1;" : "=l"(a) : '
             '"l"(q));',
             f'  asm volatile("cvta.to.{sp}.u64 %0, %1;" : "=l"(a0) : '
             '"l"(p));',
             f'  asm volatile("cvta.{sp}.u64 %0, %1;" : "=l"(g) : "l"(a));',
             f'  asm volatile("ld.{sp}.b8 %0, [%1];" : "=h"(v1) : "l"(a) : '
             '"memory");',
             '  asm volatile("ld.b8 %0, [%1];" : "=h"(v2) : "l"(g) : '
             '"memory");']
    if sym:
        lines.append(f'  asm volatile("mov.u64 %0, {sym};" : "=l"(s));')
    lines += ['  out[t * 5 + 0] = g - (unsigned long long)q;',
              '  out[t * 5 + 1] = a - a0;',
              f'  out[t * 5 + 2] = {"a - s" if sym else "t"};',
              '  out[t * 5 + 3] = v1;', '  out[t * 5 + 4] = v2;', '}']
    return '\n'.join(lines)


ISSPACEP = ['shared', 'global', 'local']


def isspacep_kernel():
    """isspacep.S of a generic address into each window (global, shared,
    local, const) for each S."""
    lines = ['__global__ void isspacep_all(const unsigned char *pat, '
             'unsigned long long *out, int) {',
             '  WSM_WINDOW(p, pat, 0);', '  (void)p;',
             '  int t = threadIdx.x;\n  if (t >= 64)\n    return;',
             '  const unsigned char *base[4] = {pat, wsm_sw, lw_, wsm_cw};',
             '  for (int b = 0; b < 4; ++b) {',
             '    const unsigned char *q = base[b] + t;', '    unsigned r;']
    for s, sp in enumerate(ISSPACEP):
        lines.append(f'    asm volatile("{{ .reg .pred p; isspacep.{sp} p, '
                     '%1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(q));')
        lines.append(f'    out[(t * 4 + b) * {len(ISSPACEP)} + {s}] = r;')
    lines += ['  }', '}']
    return '\n'.join(lines)


# Addressing modes of ld/st (the form keys leave them out): register plus a
# positive and a negative offset, a symbol plus an offset (the shared and
# const windows are symbols) and 32-bit shared addresses. Each mode: (name,
# address expression, base: 'q' (the thread's address) or 's' (the window
# start), offset from that base).
ADDR_SPACES = ['global', 'shared', 'local', 'const', 'generic', 'param']


def addr_modes(sp, store):
    sym = {'shared': 'wsm_sw', 'const': 'wsm_cw'}.get(sp)
    modes = [('[a]', '[a]', 'q', 0), ('[a+16]', '[a+16]', 'q', 16),
             ('[a+-4]', '[a+-4]', 'q', -4)]
    if sym and not store:
        modes += [(f'[{sym}]', f'[{sym}]', 's', 0),
                  (f'[{sym}+20]', f'[{sym}+20]', 's', 20)]
    if sp == 'shared':
        modes += [('[r32]', '[b]', 'q', 0), ('[r32+8]', '[b+8]', 'q', 8)]
    return modes


def addr_param_kernel():
    """ld.param.b32 through a register holding the address of a kernel
    parameter (mov of its name, as clang emits for a dynamic index into a
    by-value struct), with offsets, and through the name plus an offset."""
    name = 'addr_ld_param'
    sym = f'{name}_param_1'
    modes = [('[a]', '[a]', 'q', 0), ('[a+16]', '[a+16]', 'q', 16),
             ('[a+-4]', '[a+-4]', 'q', -4), ('[param]', f'[{sym}]', 's', 0),
             ('[param+20]', f'[{sym}+20]', 's', 20)]
    lines = [f'extern "C" __global__ void {name}(unsigned long long *out, '
             'WsmBlock blk) {',
             '  int t = threadIdx.x;\n  if (t >= 8)\n    return;',
             '  unsigned long long o = 16 + t * 4;', '  unsigned r;']
    for m, (_, at, _, _) in enumerate(modes):
        text = (f'{{ .reg .u64 a; mov.u64 a, {sym}; add.u64 a, a, %1; '
                f'ld.param.b32 %0, {at}; }}')
        lines.append(f'  asm volatile("{text}" : "=r"(r) : "l"(o));')
        lines.append(f'  out[t * {len(modes)} + {m}] = r;')
    lines += ['}', f'static void launch_{name}(unsigned long long *out, '
              'const unsigned char *blk) {',
              '  WsmBlock b;\n  std::memcpy(&b, blk, sizeof b);',
              f'  {name}<<<1, 64>>>(out, b);', '}']
    table = (f'    {{"ld.param.b32", false, \'p\', {len(modes)}, '
             f'{{{", ".join(cstr(n) for n, _, _, _ in modes)}}}, '
             f'{{{", ".join(repr(bs) for _, _, bs, _ in modes)}}}, '
             f'{{{", ".join(str(o) for _, _, _, o in modes)}}}, '
             f'(void *)launch_{name}}},')
    return '\n'.join(lines), table


def addr_kernel(sp, store):
    """ld/st.SP.b32 through each addressing mode: loads from the load
    window at p + 16 + 4t (8 threads), stores of 0xa1b2c3d4 into each
    thread's 32-byte window at w + 8 (+ offset)."""
    b = ADDR_SPACES.index(sp) if sp != 'generic' else 'backing'
    space = '' if sp == 'generic' else f'.{sp}'
    pre = ('.reg .u64 a; .reg .u32 b; ' +
           ('mov.u64 a, %1; ' if sp == 'generic' else
            f'cvta.to.{sp}.u64 a, %1; ') + 'cvt.u32.u64 b, a; ')
    modes = addr_modes(sp, store)
    kind = 'st' if store else 'ld'
    name = f'addr_{kind}_{sp}'
    if store:
        lines = [f'__global__ void {name}(const unsigned char *bg, '
                 'unsigned char *outw, int backing) {',
                 f'  __shared__ __align__(16) unsigned char sw[64 * {STORE_WIN}];',
                 f'  __align__(16) unsigned char lw[{STORE_WIN}];',
                 '  int t = threadIdx.x;',
                 f'  if (t >= {len(modes)})\n    return;',
                 f'  unsigned char *w = backing == 0 ? outw + t * {STORE_WIN} : '
                 f'backing == 1 ? sw + t * {STORE_WIN} : lw;',
                 f'  for (int i = 0; i < {STORE_WIN}; ++i)\n    w[i] = bg[i];',
                 '  unsigned char *q = w + 8;', '  switch (t) {']
        for m, (_, at, _, _) in enumerate(modes):
            text = pre.replace('%1', '%0') + f'st{space}.b32 {at}, %1;'
            lines.append(f'  case {m}:\n    asm volatile("{{ {text} }}" :: '
                         '"l"(q), "r"(0xa1b2c3d4u) : "memory");\n    break;')
        lines += ['  }', '  if (backing != 0)',
                  f'    for (int i = 0; i < {STORE_WIN}; ++i)',
                  f'      outw[t * {STORE_WIN} + i] = w[i];', '}']
    else:
        lines = [f'__global__ void {name}(const unsigned char *pat, '
                 'unsigned long long *out, int backing) {',
                 f'  WSM_WINDOW(p, pat, {b});',
                 '  int t = threadIdx.x;\n  if (t >= 8)\n    return;',
                 '  const unsigned char *q = p + 16 + t * 4;', '  unsigned r;']
        for m, (_, at, _, _) in enumerate(modes):
            text = pre + f'ld{space}.b32 %0, {at};'
            lines.append(f'  asm volatile("{{ {text} }}" : "=r"(r) : "l"(q) '
                         ': "memory");')
            lines.append(f'  out[t * {len(modes)} + {m}] = r;')
        lines.append('}')
    table = (f'    {{"{kind}{space}.b32", {"true" if store else "false"}, '
             f'\'{"G" if sp == "generic" else SPACES[sp]}\', {len(modes)}, '
             f'{{{", ".join(cstr(n) for n, _, _, _ in modes)}}}, '
             f'{{{", ".join(repr(bs) for _, _, bs, _ in modes)}}}, '
             f'{{{", ".join(str(o) for _, _, _, o in modes)}}}, '
             f'(void *){name}}},')
    return '\n'.join(lines), table


# A kernel whose parameters mix sizes and alignments (a byte after a
# pointer, a double after it, a short, a uint4, ...): each read with the
# ld.param form of its type; memory.cu passes the same values and knows
# what each must read as. (C type, ld.param type, register, vector width.)
PARAM_MIX = [('unsigned char', 'b8', 'h', 1), ('double', 'b64', 'l', 1),
             ('short', 's16', 'r', 1), ('uint4', 'b32', 'r', 4),
             ('signed char', 'b8', 'r', 1), ('float', 'b32', 'r', 1),
             ('long long', 'u64', 'l', 1), ('uint2', 'b32', 'r', 2),
             ('unsigned short', 'b16', 'h', 1), ('int', 's32', 'l', 1)]


def param_mix_kernel():
    name = 'wsm_param_mix'
    args = ', '.join(f'{t} p{i}' for i, (t, _, _, _) in enumerate(PARAM_MIX))
    lines = [f'extern "C" __global__ void {name}(unsigned long long *out, '
             f'{args}) {{', '  int k = 0;']
    for i, (_, ty, c, n) in enumerate(PARAM_MIX):
        v = f'.v{n}' if n > 1 else ''
        outs = ', '.join(f'"={c}"(r[{e}])' for e in range(n))
        lines += [f'  {{\n    {CTYPE[c]} r[{n}];',
                  f'    asm volatile("ld.param{v}.{ty} {vec_ops(0, n)}, '
                  f'[{name}_param_{i + 1}];" : {outs});']
        lines += [f'    out[k++] = {as_u64(c, f"r[{e}]")};' for e in range(n)]
        lines.append('  }')
    lines.append('}')
    return '\n'.join(lines)


# cp.async variants: (cache op, cp-size, src-size: None, an int literal or
# 'r' + int for a register).
# Odd-numbered variants take a 32-bit shared address (as clang emits for
# __pipeline_memcpy_async: cp.async.cg.shared.global [%r], [%rd], 16, 16).
CP_ASYNC = [('ca', 4, None), ('ca', 8, None), ('ca', 16, None),
            ('cg', 16, None), ('ca', 4, 'r3'), ('ca', 8, 5), ('ca', 16, 0),
            ('cg', 16, 'r7'), ('ca', 16, 'r16'), ('cg', 16, 16)]


def cp_async_kernel(i, cache, size, src):
    """Two groups per thread (its own chunk of two shared buffers filled
    with a background): after wait_group 1 the first group's bytes are
    there, after wait_group 0 the second's; bytes from src-size on are
    zeros."""
    extra, ins = '', ''
    if isinstance(src, int):
        extra = f', {src}'
    elif src:
        extra, ins = ', %2', f', "r"({int(src[1:])})'
    dst = '%0'
    if i % 2:
        dst = 's'  # the low 32 bits: shared addresses fit
    cp = (f'{{ .reg .u64 g; .reg .u32 s; cvt.u32.u64 s, %0; '
          f'cvta.to.global.u64 g, %1; cp.async.{cache}.'
          f'shared.global [{dst}], [g], {size}{extra}; }}')
    lines = [f'__global__ void cp_async_{i}(const unsigned char *src, '
             'unsigned char *out) {',
             f'  __shared__ __align__(16) unsigned char ba[64 * {size}], '
             f'bb[64 * {size}];',
             f'  int t = threadIdx.x;\n  if (t >= 64)\n    return;',
             f'  for (int k = 0; k < {size}; ++k) {{',
             f'    ba[t * {size} + k] = 0xee;',
             f'    bb[t * {size} + k] = 0xdd;', '  }',
             '  unsigned long long da, db;',
             f'  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(da) : '
             f'"l"(ba + t * {size}));',
             f'  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(db) : '
             f'"l"(bb + t * {size}));',
             f'  asm volatile("{cp}" :: "l"(da), "l"(src + t * {size}){ins} '
             ': "memory");',
             '  asm volatile("cp.async.commit_group;" ::: "memory");',
             f'  asm volatile("{cp}" :: "l"(db), '
             f'"l"(src + {64 * size} + t * {size}){ins} : "memory");',
             '  asm volatile("cp.async.commit_group;" ::: "memory");',
             '  asm volatile("cp.async.wait_group 1;" ::: "memory");',
             f'  for (int k = 0; k < {size}; ++k)',
             f'    out[t * {size} + k] = ba[t * {size} + k];',
             '  asm volatile("cp.async.wait_group 0;" ::: "memory");',
             f'  for (int k = 0; k < {size}; ++k)',
             f'    out[{64 * size} + t * {size} + k] = bb[t * {size} + k];',
             '}']
    return '\n'.join(lines)


FENCES = ['fence.sc.sys', 'membar.gl']


def fence_kernel(name):
    """Producer/consumer through global memory within a CTA (warp 0 writes,
    fences, raises flags; warp 1 after the barrier reads the flags, fences,
    reads the data) and across CTAs (the last CTA to take a ticket sums the
    others' partial sums, published before their fences)."""
    fence = f'asm volatile("{name};" ::: "memory")'
    ident = name.replace('.', '_')
    return f'''__global__ void fence_{ident}(unsigned long long *data,
    unsigned *flag, unsigned long long *out, unsigned *ticket,
    unsigned long long *partial) {{
  int t = threadIdx.x, b = blockIdx.x;
  volatile unsigned *vf = flag;
  volatile unsigned long long *vd = data, *vp = partial;
  if (t < 32) {{
    vd[b * 32 + t] = wsm_fence_value(b, t);
    {fence};
    vf[b * 32 + t] = 1;
  }}
  __syncthreads();
  if (t >= 32 && t < 64) {{
    unsigned f = vf[b * 32 + t - 32];
    {fence};
    out[(b * 32 + t - 32) * 2] = f;
    out[(b * 32 + t - 32) * 2 + 1] = vd[b * 32 + t - 32];
  }}
  if (t == 0) {{
    unsigned long long s = 0;
    for (int i = 0; i < 32; ++i)
      s += vd[b * 32 + i];
    vp[b] = s;
    {fence};
    unsigned k = atomicAdd(ticket, 1u);
    if (k == gridDim.x - 1) {{
      {fence};
      unsigned long long total = 0;
      for (unsigned i = 0; i < gridDim.x; ++i)
        total += vp[i];
      out[gridDim.x * 64] = total;
    }}
  }}
}}'''


def main():
    corpus = [l.strip() for l in open(CORPUS) if l.strip()]
    mine = [k for k in corpus if k.split('.')[0].split()[0] in OPCODES]
    keys = sorted(set(k for k in mine + EXTRA
                      if k.split('.')[0] in ('ld', 'st')))
    covered = set(keys)
    kernels, table = mem_forms(keys)
    for sp in CVTA_SPACES:
        kernels.append(cvta_kernel(sp))
        covered |= {f'cvta.{sp}.u64', f'cvta.to.{sp}.u64'}
    addr_table = []
    for store in (False, True):
        for sp in ADDR_SPACES:
            if store and sp in ('const', 'param'):
                continue
            text, row = (addr_param_kernel() if sp == 'param' else
                         addr_kernel(sp, store))
            kernels.append(text)
            addr_table.append(row)
    kernels.append(param_mix_kernel())
    kernels.append(isspacep_kernel())
    covered |= {f'isspacep.{sp}' for sp in ISSPACEP}
    cp_table = []
    for i, (cache, size, src) in enumerate(CP_ASYNC):
        kernels.append(cp_async_kernel(i, cache, size, src))
        srcn = -1 if src is None else int(str(src).lstrip('r'))
        text = (f'cp.async.{cache}.shared.global {size}' +
                ('' if src is None else f', src-size {src}') +
                (', 32-bit shared address' if i % 2 else ''))
        cp_table.append(f'    {{{cstr(text)}, {size}, {srcn}, '
                        f'(void *)cp_async_{i}}},')
    covered |= {'cp.async.ca.shared.global imm:dec',
                'cp.async.cg.shared.global imm:dec', 'cp.async.commit_group',
                'cp.async.wait_group imm:dec'}
    fence_table = []
    for name in FENCES:
        kernels.append(fence_kernel(name))
        fence_table.append(f'    {{{cstr(name)}, '
                           f'(void *)fence_{name.replace(".", "_")}}},')
        covered.add(name)
    missing = sorted(set(mine) - covered)
    if missing:
        sys.exit('gen_memory: corpus forms with no kernel: ' +
                 ', '.join(missing) + '; teach gen_memory.py about them')
    with open(os.path.join(HERE, 'memory_forms.h'), 'w') as out:
        out.write('// Generated by gen_memory.py; do not edit.\n'
                  '// clang-format off\n')
        out.write('\n\n'.join(kernels) + '\n\n')
        out.write('static const MemForm kMemForms[] = {\n' +
                  '\n'.join(table) + '\n};\n')
        out.write('static const AddrForm kAddrForms[] = {\n' +
                  '\n'.join(addr_table) + '\n};\n')
        out.write('static const CpAsyncForm kCpAsync[] = {\n' +
                  '\n'.join(cp_table) + '\n};\n')
        out.write('static const FenceForm kFences[] = {\n' +
                  '\n'.join(fence_table) + '\n};\n')
        out.write('// clang-format on\n')
    with open(os.path.join(HERE, 'covered-forms.txt'), 'w') as out:
        out.write('# Forms test/conformance/memory checks (gen_memory.py)\n')
        out.write('\n'.join(sorted(covered)) + '\n')


if __name__ == '__main__':
    main()

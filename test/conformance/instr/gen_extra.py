"""More forms of the instruction conformance suite (issue 16): f16/bf16
arithmetic, prmt modes, warp collectives, and the immediate and special
register variants clang emits. Imported by gen_instr.py, which calls
emit_all(form) after its own forms (so their kernel numbers stay).

Form names: the opcode, then `imm LIT...` (immediate literals), `%sreg`, or
`#note` (a variant of the same key, e.g. a register member mask); see
gen_instr.key_of.
"""


def b(x):
    return 'true' if x else 'false'


def half_forms(form):
    """add sub mul fma min max neg abs on f16/bf16 (x2), each modifier."""
    for t, F, cl in [('f16', 'ref::F16', 'h16'), ('bf16', 'ref::BF16', 'hbf')]:
        isH = t == 'f16'
        for x2 in ['', 'x2']:
            ty, reg, cls = t + x2, 'r' if x2 else 'h', cl + x2
            chk = cl

            def wrap(e, x2=x2):
                if not x2:
                    return e
                return (f'ref::x2([&](u64 a, u64 b, u64 c) {{ (void)c; '
                        f'return {e}; }}, a, b, c)')
            mods = ['', '.rn'] + (['.ftz', '.sat', '.rn.ftz.sat'] if isH else [])
            for op, OP in [('add', 'HADD'), ('sub', 'HSUB'), ('mul', 'HMUL')]:
                for m in mods:
                    name = f'{op}{m}.{ty}'
                    sat = '.sat' in m
                    e = (f'ref::hop1(ref::{OP}, {F}, {b(".ftz" in m)}, '
                         f'{b(sat)}, false, a, b, c)')
                    form(name, f'{name} %0, %1, %2;', reg, reg * 2,
                         f'{cls}_2', wrap(e), chk + ('z' if sat else ''))
            fmods = ['.rn', '.rn.relu'] + (
                ['.rn.ftz', '.rn.sat', '.rn.ftz.sat', '.rn.ftz.relu'] if isH
                else [])
            for m in fmods:
                name = f'fma{m}.{ty}'
                sat, relu = '.sat' in m, '.relu' in m
                e = (f'ref::hop1(ref::HFMA, {F}, {b(".ftz" in m)}, {b(sat)}, '
                     f'{b(relu)}, a, b, c)')
                form(name, f'{name} %0, %1, %2, %3;', reg, reg * 3,
                     f'{cls}_3', wrap(e),
                     chk + ('rz' if relu else 'z' if sat else ''))
            mm = ['', '.NaN'] + (['.ftz', '.ftz.NaN'] if isH else [])
            for op in ['min', 'max']:
                for m in mm:
                    name = f'{op}{m}.{ty}'
                    e = (f'ref::hminmax1({b(op == "max")}, {b(".NaN" in m)}, '
                         f'{F}, {b(".ftz" in m)}, a, b)')
                    form(name, f'{name} %0, %1, %2;', reg, reg * 2,
                         f'{cls}_2', wrap(e))
            # The ISA: "NaN inputs yield an unspecified NaN".
            for op in ['neg', 'abs']:
                for m in [''] + (['.ftz'] if isH else []):
                    name = f'{op}{m}.{ty}'
                    e = f'ref::h{op}1({F}, {b(m)}, a)'
                    form(name, f'{name} %0, %1;', reg, reg, f'{cls}_1',
                         wrap(e), chk)


def half_cmp_cvt_forms(form):
    """setp/set on f16/bf16, and the f32 pair to f16x2/bf16x2 packs."""
    cmps = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu',
            'gtu', 'geu', 'num', 'nan']
    for t, F, cl in [('f16', 'ref::F16', 'h16'), ('bf16', 'ref::BF16', 'hbf')]:
        for c in cmps:
            form(f'setp.{c}.{t}', f'{{ .reg .pred p; setp.{c}.{t} p, %1, %2; '
                 'selp.u32 %0, 1, 0, p; }', 'r', 'hh', f'{cl}_2',
                 f'(u64)ref::hcmp("{c}", {F}, a, b)')
        # Both halves: p for the low element, q for the high one.
        form(f'setp.lt.{t}x2', f'{{ .reg .pred p, q; .reg .b32 s, u; '
             f'setp.lt.{t}x2 p|q, %1, %2; selp.u32 s, 1, 0, p; '
             'selp.u32 u, 2, 0, q; or.b32 %0, s, u; }', 'r', 'rr',
             f'{cl}x2_2', f'(u64)ref::hcmp("lt", {F}, a, b) | '
             f'(u64)ref::hcmp("lt", {F}, a >> 16, b >> 16) << 1')
    one = {'f16': '0x3c00ull', 'bf16': '0x3f80ull'}
    for t, F, cl in [('f16', 'ref::F16', 'h16'), ('bf16', 'ref::BF16', 'hbf')]:
        for c in ['eq', 'nan', 'gt', 'leu']:
            form(f'set.{c}.{t}.{t}', f'set.{c}.{t}.{t} %0, %1, %2;', 'h', 'hh',
                 f'{cl}_2', f'ref::hcmp("{c}", {F}, a, b) ? {one[t]} : 0')
            form(f'set.{c}.{t}x2.{t}x2', f'set.{c}.{t}x2.{t}x2 %0, %1, %2;',
                 'r', 'rr', f'{cl}x2_2',
                 f'ref::x2([&](u64 a, u64 b, u64 c) {{ (void)c; return '
                 f'ref::hcmp("{c}", {F}, a, b) ? {one[t]} : 0; }}, a, b, c)')
    for t, F, chk in [('f16', 'ref::F16', 'h16'), ('bf16', 'ref::BF16', 'hbf')]:
        for relu in ['', '.relu']:
            name = f'cvt.rn{relu}.{t}x2.f32'
            e = (f'ref::hround(ref::f({{v}}), {F})')
            if relu:
                e = (f'(std::isnan(ref::f({{v}})) ? ref::kHalfNaN : '
                     f'ref::f({{v}}) < 0 ? 0 : {e})')
            form(name, f'{name} %0, %1, %2;', 'r', 'rr', 'f32_2',
                 f'({e.format(v="a")}) << 16 | ({e.format(v="b")})',
                 chk + ('rz' if relu else ''))
    form('set.gt.f32.s32', 'set.gt.f32.s32 %0, %1, %2;', 'r', 'rr', 'i32_2',
         'ref::sext(a, 32) > ref::sext(b, 32) ? 0x3f800000ull : 0')


def prmt_forms(form):
    for m, M in [('f4e', 'F4E'), ('b4e', 'B4E'), ('rc8', 'RC8'),
                 ('ecl', 'ECL'), ('ecr', 'ECR'), ('rc16', 'RC16')]:
        form(f'prmt.b32.{m}', f'prmt.b32.{m} %0, %1, %2, %3;', 'r', 'rrr',
             'i32_3', f'ref::prmtMode(ref::{M}, a, b, c)')


# Lane values of the warp forms, as a function of the thread index i (class
# idx: a = i), in PTX (into v, from %1) and in C++.
HASH_PTX = 'mad.lo.u32 v, %1, -1640531527, 2135587861; '
HASH = '[](u64 i) { return (i * 0x9E3779B9ull + 0x7F4A7C15ull) & 0xffffffffull; }'
GROUP_PTX = 'mul.lo.u32 v, %1, -1640531527; shr.u32 v, v, 30; '
GROUP = '[](u64 i) { return ((i * 0x9E3779B9ull) & 0xffffffffull) >> 30; }'
# Equal in odd warps, different in even ones.
HALF_PTX = ('{ .reg .pred q; .reg .b32 t, l; and.b32 t, %1, 32; '
            'and.b32 l, %1, 31; setp.ne.u32 q, t, 0; selp.u32 v, 5, l, q; } ')
HALF = '[](u64 i) { return (i & 32) ? 5 : i & 31; }'


def warp_forms(form):
    """match, redux, vote.uni, activemask and the register-operand shfl and
    vote forms, on full warps (class idx)."""
    pre = '{ .reg .b32 v, m; .reg .pred p, r; mov.b32 m, -1; '
    for note, mask in [('imm -1', '-1'), ('#regmask', 'm')]:
        form(f'match.any.sync.b32 {note}', pre + GROUP_PTX +
             f'match.any.sync.b32 %0, v, {mask}; }}', 'r', 'r', 'idx',
             f'ref::matchAny(a, {GROUP})')
        form(f'match.all.sync.b32 {note}', pre + HALF_PTX +
             f'match.all.sync.b32 v|p, v, {mask}; selp.u32 m, 1, 0, p; '
             'mov.b64 %0, {v, m}; }', 'l', 'r', 'idx',
             f'ref::matchAll(a, {HALF})')
    # 64-bit values that differ only in the high word across lanes 0..2.
    pre64 = ('{ .reg .b64 w; .reg .b32 lo, hi, t; .reg .pred p; '
             'rem.u32 hi, %1, 3; rem.u32 lo, %1, 2; mov.b64 w, {lo, hi}; ')
    v64 = '[](u64 i) { return (i % 3) << 32 | (i % 2); }'
    form('match.any.sync.b64 imm -1', pre64 +
         'match.any.sync.b64 %0, w, -1; }', 'r', 'r', 'idx',
         f'ref::matchAny(a, {v64})')
    form('match.all.sync.b64 imm -1', pre64 + 'cvt.u64.u32 w, hi; '
         'and.b32 t, %1, 32; setp.ne.u32 p, t, 0; @p mov.b64 w, 9; '
         'match.all.sync.b64 lo|p, w, -1; selp.u32 t, 1, 0, p; '
         'mov.b64 %0, {lo, t}; }', 'l', 'r', 'idx',
         '[&] { u64 base = a - a % 32; if (base & 32) return '
         '0xffffffffull | 1ull << 32; return 0ull; }()')
    for op, ty, R in [('add', 's32', 'RADD'), ('add', 'u32', 'RADD'),
                      ('min', 'u32', 'RMINU'), ('min', 's32', 'RMINS'),
                      ('max', 'u32', 'RMAXU'), ('max', 's32', 'RMAXS'),
                      ('and', 'b32', 'RAND'), ('or', 'b32', 'ROR'),
                      ('xor', 'b32', 'RXOR')]:
        for note, mask in [('imm -1', '-1'), ('#regmask', 'm')]:
            if note != 'imm -1' and (op, ty) not in [('add', 's32'),
                                                     ('max', 'u32')]:
                continue
            form(f'redux.sync.{op}.{ty} {note}', pre + HASH_PTX +
                 f'redux.sync.{op}.{ty} %0, v, {mask}; }}', 'r', 'r', 'idx',
                 f'ref::redux(ref::{R}, a, {HASH})')
    # vote.uni: odd warps have a uniform predicate.
    upre = pre + HALF_PTX + 'setp.eq.u32 p, v, 5; '
    uni = ('ref::voteUni(a, [](u64 i) { return (i & 32) != 0 || '
           '(i & 31) == 5; })')
    for note, mask in [('imm -1', '-1'), ('#regmask', 'm')]:
        form(f'vote.sync.uni.pred {note}', upre +
             f'vote.sync.uni.pred r, p, {mask}; selp.u32 %0, 1, 0, r; }}',
             'r', 'r', 'idx', uni)
    bal = ('[&] { u64 r = 0; for (u64 j = 0; j < 32; ++j) r |= (u64)((((a - '
           'a % 32 + j) * 0x9E3779B9ull + 0x7F4A7C15ull) & 4) != 0) << j; '
           'return EXPR; }()')
    vpre = pre + HASH_PTX + 'and.b32 v, v, 4; setp.ne.u32 p, v, 0; '
    form('vote.sync.ballot.b32 #regmask', vpre +
         'vote.sync.ballot.b32 %0, p, m; }', 'r', 'r', 'idx',
         bal.replace('EXPR', 'r'))
    for q, e in [('any', '(u64)(r != 0)'), ('all', '(u64)(r == 0xffffffffull)')]:
        form(f'vote.sync.{q}.pred #regmask', vpre +
             f'vote.sync.{q}.pred r, p, m; selp.u32 %0, 1, 0, r; }}', 'r',
             'r', 'idx', bal.replace('EXPR', e))
    form('activemask.b32', 'activemask.b32 %0;', 'r', '', 'idx',
         '0xffffffffull')
    # shfl with the lane (and clamp) in registers, and with immediates and
    # a register member mask.
    val = ('[&] { auto v = [](u64 i) { return (i * 0x9E3779B9ull + '
           '0x7F4A7C15ull) & 0xffffffffull; }; return v(a - a % 32 + (SRC)); }()')
    for mode, c, src in [('idx', 31, '(a * 7) % 32'),
                         ('up', 0, 'a % 32 >= 3 ? a % 32 - 3 : a % 32'),
                         ('down', 31, 'a % 32 + 3 <= 31 ? a % 32 + 3 : a % 32'),
                         ('bfly', 31, '(a % 32) ^ 3')]:
        lane = 'mul.lo.u32 l, %1, 7; ' if mode == 'idx' else 'mov.b32 l, 3; '
        base = ('{ .reg .b32 v, m, l, c; mov.b32 m, -1; ' + HASH_PTX + lane +
                f'mov.b32 c, {c}; ')
        form(f'shfl.sync.{mode}.b32 #regs', base +
             f'shfl.sync.{mode}.b32 %0, v, l, c, m; }}', 'r', 'r', 'idx',
             val.replace('SRC', src))
        lit = '7' if mode == 'idx' else '3'
        src = '7' if mode == 'idx' else src
        form(f'shfl.sync.{mode}.b32 imm {lit} {c}', base +
             f'shfl.sync.{mode}.b32 %0, v, {lit}, {c}, m; }}', 'r', 'r', 'idx',
             val.replace('SRC', src))


def sreg_forms(form):
    """Special registers of a 1-D launch of 128-thread blocks (class idx:
    a = thread index, two blocks)."""
    for sr, e in [('%ctaid.y', '0'), ('%ctaid.z', '0'), ('%nctaid.x', '2'),
                  ('%nctaid.z', '1'), ('%ntid.y', '1'), ('%ntid.z', '1'),
                  ('%tid.z', '0'), ('%dynamic_smem_size', '0')]:
        form(f'mov.u32 {sr}', f'mov.u32 %0, %{sr};', 'r', '', 'idx', e)
    # %warpid is volatile and need not be the warp's index in its CTA (the
    # ISA; sm_90 gave warp w (w + 1) % 4): only that it is below %nwarpid.
    form('mov.u32 %warpid #below-nwarpid', '{ .reg .pred p; .reg .b32 w, n; '
         'mov.u32 w, %%warpid; mov.u32 n, %%nwarpid; setp.lt.u32 p, w, n; '
         'selp.u32 %0, 1, 0, p; }', 'r', '', 'idx', '1')
    # The clocks only have to be monotonic within a thread.
    form('mov.u32 %clock', '{ .reg .pred p; .reg .b32 t, u; '
         'mov.u32 t, %%clock; mov.u32 u, %%clock; sub.u32 u, u, t; '
         'setp.lt.u32 p, u, 0x40000000; selp.u32 %0, 1, 0, p; }', 'r', '',
         'idx', '1')
    form('mov.u64 %clock64', '{ .reg .pred p; .reg .b64 t, u; '
         'mov.u64 t, %%clock64; mov.u64 u, %%clock64; setp.ge.u64 p, u, t; '
         'selp.u32 %0, 1, 0, p; }', 'r', '', 'idx', '1')


# The SIMD video forms the CUDA headers' __v* intrinsics expand to
# (test/conformance/instr/corpus/simd.cu).
VIDEO = """vabsdiff2.s32.s32.s32 vabsdiff2.s32.s32.s32.add vabsdiff2.s32.s32.s32.sat
vabsdiff2.u32.u32.u32 vabsdiff2.u32.u32.u32.add vabsdiff4.s32.s32.s32
vabsdiff4.s32.s32.s32.add vabsdiff4.s32.s32.s32.sat vabsdiff4.u32.u32.u32
vabsdiff4.u32.u32.u32.add vadd2.s32.s32.s32.sat vadd2.u32.u32.u32
vadd2.u32.u32.u32.sat vadd4.s32.s32.s32.sat vadd4.u32.u32.u32
vadd4.u32.u32.u32.sat vavrg2.s32.s32.s32 vavrg2.u32.u32.u32 vavrg4.s32.s32.s32
vavrg4.u32.u32.u32 vmax2.s32.s32.s32 vmax2.u32.u32.u32 vmax4.s32.s32.s32
vmax4.u32.u32.u32 vmin2.s32.s32.s32 vmin2.u32.u32.u32 vmin4.s32.s32.s32
vmin4.u32.u32.u32 vsub2.s32.s32.s32.sat vsub2.u32.u32.u32 vsub2.u32.u32.u32.sat
vsub4.s32.s32.s32.sat vsub4.u32.u32.u32 vsub4.u32.u32.u32.sat""".split()
for _n in '24':
    VIDEO += [f'vset{_n}.s32.s32.{c}' for c in ['ge', 'gt', 'le', 'lt']]
    VIDEO += [f'vset{_n}.u32.u32.{c}' for c in ['eq', 'ge', 'gt', 'le', 'lt',
                                                'ne']]


def video_forms(form):
    for name in VIDEO:
        parts = name.split('.')
        op, n = parts[0][1:-1], int(parts[0][-1])
        types = [p for p in parts[1:] if p in ('s32', 'u32')]
        if op == 'set':
            op = parts[-1]
            types = ['u32'] + types
        sd, sa, sb = (t == 's32' for t in types)
        form(name, f'{name} %0, %1, %2, %3;', 'r', 'rrr', 'i32_3',
             f'ref::video("{op}", {n}, {b(sa)}, {b(sb)}, {b(sd)}, '
             f'{b(".sat" in name)}, {b(name.endswith(".add"))}, a, b, c)')


M32 = '0xffffffffull'


def imm_forms(form):
    """Immediate-operand and small variants clang emits (clang-forms.txt)."""
    H, R, L = 'h', 'r', 'l'
    # (name, ptx, dst, srcs, class, reference[, check])
    t = [
        ('add.s16 imm -1', 'add.s16 %0, %1, -1;', H, H, 'i32_1',
         '(a - 1) & 0xffffull'),
        ('and.b16 imm 255', 'and.b16 %0, %1, 255;', H, H, 'i32_1', 'a & 255'),
        ('mul.lo.s16 imm 3', 'mul.lo.s16 %0, %1, 3;', H, H, 'i32_1',
         '(a * 3) & 0xffffull'),
        ('mul.lo.s16 imm -3', 'mul.lo.s16 %0, %1, -3;', H, H, 'i32_1',
         '(a * (0ull - 3)) & 0xffffull'),
        ('mul.hi.u16 imm 300', 'mul.hi.u16 %0, %1, 300;', H, H, 'i32_1',
         '((a & 0xffffull) * 300) >> 16'),
        ('shr.u16 imm 3', 'shr.u16 %0, %1, 3;', H, H, 'i32_1',
         '(a & 0xffffull) >> 3'),
        ('add.s16', 'add.s16 %0, %1, %2;', H, 'hh', 'i32_2',
         '(a + b) & 0xffffull'),
        ('add.s16 imm 300', 'add.s16 %0, %1, 300;', H, H, 'i32_1',
         '(a + 300) & 0xffffull'),
        ('shl.b16 imm 4', 'shl.b16 %0, %1, 4;', H, H, 'i32_1',
         '(a << 4) & 0xffffull'),
        ('rem.u16', 'rem.u16 %0, %1, %2;', H, 'hh', 'div16',
         '(a & 0xffff) % (b & 0xffff)'),
        ('prmt.b32 imm 0 0x3340', 'prmt.b32 %0, %1, 0, 0x3340U;', R, R,
         'i32_1', 'ref::prmt(a, 0, 0x3340)'),
        ('sub.f32 imm 0fBF800000', 'sub.f32 %0, %1, 0fBF800000;', R, R,
         'f32_1', 'ref::f32op(ref::SUB, ref::RN, false, false, a, '
         '0xbf800000, 0)', 'nan'),
        ('mul.lo.u32', 'mul.lo.u32 %0, %1, %2;', R, 'rr', 'i32_2',
         f'(a * b) & {M32}'),
        ('bfe.u32 imm 4 8', 'bfe.u32 %0, %1, 4, 8;', R, R, 'i32_1',
         '(a >> 4) & 0xff'),
        ('bfe.u64 imm 60 8', 'bfe.u64 %0, %1, 60, 8;', L, L, 'i64_1',
         'a >> 60'),
        ('mad.lo.s32 imm 7', 'mad.lo.s32 %0, %1, 7, %2;', R, 'rr', 'i32_2',
         f'(a * 7 + b) & {M32}'),
        ('mad.lo.s32 imm -7', 'mad.lo.s32 %0, %1, -7, %2;', R, 'rr', 'i32_2',
         f'(a * (0ull - 7) + b) & {M32}'),
        ('mad.lo.s32 imm 7 -9', 'mad.lo.s32 %0, %1, 7, -9;', R, R, 'i32_1',
         f'(a * 7 - 9) & {M32}'),
        ('mad.lo.s64 imm 7', 'mad.lo.s64 %0, %1, 7, %2;', L, 'll', 'i64_2',
         'a * 7 + b'),
        ('mad.lo.s64 imm -7', 'mad.lo.s64 %0, %1, -7, %2;', L, 'll', 'i64_2',
         'a * (0ull - 7) + b'),
        ('mad24.lo.u32 imm 1000', 'mad24.lo.u32 %0, %1, 1000, %2;', R, 'rr',
         'i32_2', f'((a & 0xffffffull) * 1000 + b) & {M32}'),
        ('addc.u32 imm 5', '{ .reg .b32 t; add.cc.u32 t, %2, -1; '
         'addc.u32 %0, %1, 5; }', R, 'rr', 'i32_2',
         f'(a + 5 + ((b & {M32}) != 0)) & {M32}'),
        ('subc.u32 imm 5', '{ .reg .b32 t; sub.cc.u32 t, 0, %2; '
         'subc.u32 %0, %1, 5; }', R, 'rr', 'i32_2',
         f'(a - 5 - ((b & {M32}) != 0)) & {M32}'),
        ('addc.cc.s64 imm 5', '{ .reg .b64 t, u; add.cc.s64 t, %2, -1; '
         'addc.cc.s64 u, %1, 5; addc.s64 %0, 0, 0; }', L, 'll', 'i64_2',
         '(u64)(((unsigned __int128)a + 5 + (b != 0)) >> 64)'),
        ('madc.hi.u32 imm 9', '{ .reg .b32 t; mad.lo.cc.u32 t, %1, %2, %2; '
         'madc.hi.u32 %0, %1, %2, 9; }', R, 'rr', 'i32_2',
         f'(ref::mulhiU(a, b, 32) + 9 + (((((a & {M32}) * (b & {M32})) & {M32})'
         f' + (b & {M32})) >> 32)) & {M32}'),
        ('madc.hi.cc.u32', '{ .reg .b32 t, u; add.cc.u32 t, %3, -1; '
         'madc.hi.cc.u32 u, %1, %2, %3; addc.u32 %0, 0, 0; }', R, 'rrr',
         'i32_3', f'(ref::mulhiU(a, b, 32) + (c & {M32}) + ((c & {M32}) != 0))'
         ' >> 32'),
        ('mov.b16 imm 1234', 'mov.b16 %0, 1234;', H, '', 'idx', '1234'),
        ('mov.b16 imm 0xBEEF', 'mov.b16 %0, 0xBEEF;', H, '', 'idx', '0xbeef'),
        ('mov.b32 imm 4000000000', 'mov.b32 %0, 4000000000;', R, '', 'idx',
         '4000000000ull'),
        ('mov.u32 imm 77', 'mov.u32 %0, 77;', R, '', 'idx', '77'),
        ('mov.b64 imm 81985529216486895', 'mov.b64 %0, 81985529216486895;', L,
         '', 'idx', '81985529216486895ull'),
        ('mov.u64', 'mov.u64 %0, %1;', L, L, 'i64_1', 'a'),
    ]
    for p in ['0', '1', '-1']:
        t.append((f'mov.pred imm {p}', f'{{ .reg .pred p; mov.pred p, {p}; '
                  'selp.u32 %0, 1, 0, p; }', R, '', 'idx',
                  '0' if p == '0' else '1'))
    t.append(('mov.pred', '{ .reg .pred p, q; setp.ne.u32 p, %1, 0; '
              'mov.pred q, p; selp.u32 %0, 1, 0, q; }', R, R, 'i32_1',
              f'(u64)((a & {M32}) != 0)'))
    for ty, reg, cls, m in [('b16', H, 'i32_1', '0xffffull'),
                            ('u16', H, 'i32_1', '0xffffull'),
                            ('b32', R, 'i32_1', M32), ('u32', R, 'i32_1', M32),
                            ('b64', L, 'i64_1', '~0ull')]:
        imms = [('7', '7ull'), ('-2', f'(0ull - 2) & {m}')]
        if ty == 'u32':
            imms = [('0x80', '0x80ull'), ('7', '7ull')]
        for i, (x, xv) in enumerate(imms):
            for j, (y, yv) in enumerate(imms + [('%1', 'a')]):
                if j == i:
                    continue
                nm = f'selp.{ty} imm {x}' + (f' {y}' if y != '%1' else '')
                form(nm, f'{{ .reg .pred p; setp.ne.{"b16" if reg == H else ty.replace("u", "b")}'
                     f' p, %1, 0; selp.{ty} %0, {x}, {y}, p; }}', reg, reg,
                     cls, f'(a & {m}) ? {xv} : ({yv}) & {m}')
    for ty, lit, val in [('f32', '0f40490FDB', '0x40490fdbull'),
                         ('f64', '0d400921FB54442D18', '0x400921fb54442d18ull')]:
        reg = R if ty == 'f32' else L
        form(f'selp.{ty} imm {lit}', f'{{ .reg .pred p; setp.ne.b{ty[1:]} p, '
             f'%1, 0; selp.{ty} %0, {lit}, %1, p; }}', reg, reg, f'{ty}_1',
             f'a ? {val} : a')
    for c, op, ty, lit in [('eq', '==', 'b16', '4660'), ('ne', '!=', 'b16', '4660'),
                           ('gt', '>', 'u16', '4660')]:
        form(f'setp.{c}.{ty} imm {lit}', f'{{ .reg .pred p; setp.{c}.{ty} p, '
             f'%1, {lit}; selp.u32 %0, 1, 0, p; }}', R, H, 'i32_1',
             f'(u64)((a & 0xffffull) {op} {lit})')
    for c, op, bo, e in [('gt', '>', 'or', '||'), ('ne', '!=', 'and', '&&')]:
        form(f'setp.{c}.{bo}.u32', f'{{ .reg .pred p, q; setp.ne.u32 q, %3, 0; '
             f'setp.{c}.{bo}.u32 p, %1, %2, q; selp.u32 %0, 1, 0, p; }}', R,
             'rrr', 'i32_3', f'(u64)(((a & {M32}) {op} (b & {M32})) {e} '
             f'((c & {M32}) != 0))')
    form('setp.ltu.xor.f32', '{ .reg .pred p, q; setp.ne.u32 q, %3, 0; '
         'setp.ltu.xor.f32 p, %1, %2, q; selp.u32 %0, 1, 0, p; }', R, 'rrr',
         'f32_3', '[&] { float x = ref::f(a), y = ref::f(b); return (u64)('
         '(!(x >= y)) != ((c & 0xffffffffull) != 0)); }()')
    for name, ptx, dst, srcs, cls, ref, *check in t:
        form(name, ptx, dst, srcs, cls, ref, *check)
    # Float immediates on the default-rounding and fma forms.
    for op, OP in [('add', 'ADD'), ('mul', 'MUL')]:
        form(f'{op}.f32 imm 0f3FC00000', f'{op}.f32 %0, %1, 0f3FC00000;', R, R,
             'f32_1', f'ref::f32op(ref::{OP}, ref::RN, false, false, a, '
             '0x3fc00000, 0)', 'nan')
        form(f'{op}.f64 imm 0d3FF8000000000000',
             f'{op}.f64 %0, %1, 0d3FF8000000000000;', L, L, 'f64_1',
             f'ref::f64op(ref::{OP}, ref::RN, a, 0x3ff8000000000000ull, 0)',
             'nan')
    form('fma.rn.f32 imm 0f3FC00000', 'fma.rn.f32 %0, %1, 0f3FC00000, %2;', R,
         'rr', 'f32_2', 'ref::f32op(ref::FMA, ref::RN, false, false, a, '
         '0x3fc00000, b)', 'nan')
    form('fma.rn.f64 imm 0d3FF8000000000000',
         'fma.rn.f64 %0, %1, 0d3FF8000000000000, %2;', L, 'll', 'f64_2',
         'ref::f64op(ref::FMA, ref::RN, a, 0x3ff8000000000000ull, b)', 'nan')
    for mm in ['min', 'max']:
        form(f'{mm}.NaN.f32', f'{mm}.NaN.f32 %0, %1, %2;', R, 'rr', 'f32_2',
             f'ref::f32minmaxNaN({b(mm == "max")}, a, b)')


def emit_all(form):
    half_forms(form)
    half_cmp_cvt_forms(form)
    prmt_forms(form)
    warp_forms(form)
    sreg_forms(form)
    video_forms(form)
    imm_forms(form)

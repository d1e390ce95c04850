#!/usr/bin/env python3
"""Generates ../ptx/misc.ptx: one kernel, one scoped PTX snippet per case.
Each snippet reads %a,%b (f32) %x,%y (u32) %da (f64) and leaves a 64-bit
result in %o; case K of thread T is stored at out[T*NCASES+K]. Host-side
expectations are in ../MiscTest.cpp (same case order)."""
import sys

F32_MODES = "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan".split()
CASES = []
def case(body): CASES.append(body)

# 0: setp f32 all modes -> mask
s = ".reg .pred p; .reg .b32 m, t;\n mov.u32 m, 0;\n"
for i, md in enumerate(F32_MODES):
    if md in ("lo", "ls", "hi", "hs"):
        continue  # not valid on floats in ptxas
    s += f" setp.{md}.f32 p, %a, %b; selp.u32 t, {1 << i}, 0, p; or.b32 m, m, t;\n"
s += " cvt.u64.u32 %o, m;"
case(s)
# 1: setp integer modes
s = ".reg .pred p; .reg .b32 m, t;\n mov.u32 m, 0;\n"
for i, md in enumerate("eq ne lt le gt ge".split()):
    s += f" setp.{md}.s32 p, %x, %y; selp.u32 t, {1 << i}, 0, p; or.b32 m, m, t;\n"
for i, md in enumerate("lo ls hi hs".split()):
    s += f" setp.{md}.u32 p, %x, %y; selp.u32 t, {1 << (i + 8)}, 0, p; or.b32 m, m, t;\n"
s += " cvt.u64.u32 %o, m;"
case(s)
# 2: two-destination combining forms
case(""".reg .pred c, p, q; .reg .b32 m, t, u;
 and.b32 t, %x, 1; setp.eq.u32 c, t, 1;
 setp.lt.and.s32 p|q, %x, %y, c; selp.u32 m, 1, 0, p; selp.u32 t, 2, 0, q; or.b32 m, m, t;
 setp.gt.or.u32 p|q, %x, %y, !c; selp.u32 t, 4, 0, p; or.b32 m, m, t; selp.u32 t, 8, 0, q; or.b32 m, m, t;
 setp.ltu.xor.f32 p|q, %a, %b, c; selp.u32 t, 16, 0, p; or.b32 m, m, t; selp.u32 t, 32, 0, q; or.b32 m, m, t;
 cvt.u64.u32 %o, m;""")
# 3: set forms
case(""".reg .b32 r, s;
 set.lt.u32.f32 r, %a, %b; set.gt.f32.s32 s, %x, %y;
 mov.b64 %o, {r, s};""")
# 4: slct
case(""".reg .b32 r, s, d;
 sub.s32 d, %x, %y; slct.u32.s32 r, %x, %y, d; slct.f32.f32 s, %a, %b, %a;
 mov.b64 %o, {r, s};""")
# 5: testp
s = ".reg .pred p; .reg .b32 m, t;\n mov.u32 m, 0;\n"
for i, md in enumerate("finite infinite number notanumber normal subnormal".split()):
    s += f" testp.{md}.f32 p, %a; selp.u32 t, {1 << i}, 0, p; or.b32 m, m, t;\n"
s += " cvt.u64.u32 %o, m;"
case(s)
# 6: lop3 with two LUTs
case(""".reg .b32 r, s, z;
 xor.b32 z, %x, 0x0f0f1234; lop3.b32 r, %x, %y, z, 0x96; lop3.b32 s, %x, %y, z, 0xe8;
 mov.b64 %o, {r, s};""")
# 7: bfi / bfe
case(""".reg .b32 r, s, pos, len;
 and.b32 pos, %x, 31; and.b32 len, %y, 15; bfi.b32 r, %x, %y, pos, len;
 shr.u32 len, %y, 5; and.b32 len, len, 31; and.b32 pos, %y, 31; bfe.s32 s, %x, pos, len;
 mov.b64 %o, {r, s};""")
# 8: bfe.u64 / bfe.u32
case(""".reg .b64 v; .reg .b32 pos, len;
 mov.b64 v, {%x, %y}; and.b32 pos, %y, 63; shr.u32 len, %x, 7; and.b32 len, len, 63;
 bfe.u64 %o, v, pos, len;""")
# 9-14: prmt modes
for md in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]:
    case(f""".reg .b32 r, s;
 prmt.b32.{md} r, %x, %y, %y; prmt.b32 s, %x, %y, 0x7531;
 mov.b64 %o, {{r, s}};""")
# 15: shf
case(""".reg .b32 r, s;
 shf.r.wrap.b32 r, %x, %y, %y; shf.l.clamp.b32 s, %x, %y, %y;
 mov.b64 %o, {r, s};""")
# 16: mul24 / mad24 / sad
case(""".reg .b32 r, s, t;
 mul24.lo.s32 r, %x, %y; mul24.hi.u32 s, %x, %y; add.u32 r, r, s;
 mad24.lo.u32 s, %x, %y, 77; sad.u32 t, %x, %y, s; sad.s32 s, %x, %y, r;
 mov.b64 %o, {t, s};""")
# 17: mad.hi / mad.lo.u64 / mad.wide
case(""".reg .b32 r; .reg .b64 v, w;
 mad.hi.s32 r, %x, %y, %x; cvt.u64.u32 v, %y; mad.lo.u64 w, v, v, v;
 mad.wide.u32 v, %x, %y, w; cvt.u64.u32 w, r; xor.b64 %o, v, w;""")
# 18: 96-bit add/sub with carries
case(""".reg .b32 r0, r1, r2, s0, s1, s2;
 add.cc.u32 r0, %x, %y; addc.cc.u32 r1, %y, %x; addc.u32 r2, %x, 7;
 sub.cc.u32 s0, %y, %x; subc.cc.u32 s1, r1, %y; subc.u32 s2, r2, 1;
 xor.b32 r0, r0, s2; xor.b32 r1, r1, s0; add.u32 r2, r2, s1; xor.b32 r0, r0, r2;
 mov.b64 %o, {r0, r1};""")
# 19: madc
case(""".reg .b32 r0, r1;
 mad.lo.cc.u32 r0, %x, %y, %x; madc.hi.u32 r1, %x, %y, %y;
 mov.b64 %o, {r0, r1};""")
# 20: 64-bit bit ops
case(""".reg .b64 v, w; .reg .b32 r, s, t;
 mov.b64 v, {%x, %y}; popc.b64 r, v; clz.b64 s, v; add.u32 r, r, s; bfind.u64 s, v; add.u32 r, r, s;
 bfind.s32 t, %x; add.u32 r, r, t; bfind.shiftamt.u32 t, %y; add.u32 r, r, t; cnot.b32 t, %x; add.u32 r, r, t;
 mov.b64 w, {r, r}; brev.b64 v, v; xor.b64 %o, v, w;""")
# 21: float sign ops and NaN min/max
case(""".reg .b32 r, s, t;
 copysign.f32 r, %a, %b; abs.f32 s, %a; neg.f32 t, %b; xor.b32 r, r, s; xor.b32 r, r, t;
 min.f32 s, %a, %b; max.NaN.f32 t, %a, %b;
 xor.b32 s, s, r; mov.b64 %o, {s, t};""")
# 22: f16 arithmetic
case(""".reg .b16 h1, h2, h3, h4; .reg .b32 r, s;
 cvt.rn.f16.f32 h1, %a; cvt.rn.f16.f32 h2, %b; add.f16 h3, h1, h2; mul.f16 h4, h3, h1;
 fma.rn.f16 h3, h4, h2, h1; neg.f16 h4, h3; mov.b32 r, {h3, h4};
 cvt.f32.f16 s, h4; mov.b64 %o, {r, s};""")
# 23: f16x2 / bf16
case(""".reg .b32 r, s; .reg .b16 h1;
 cvt.rn.f16x2.f32 r, %a, %b; add.rn.f16x2 r, r, r;
 cvt.rn.bf16.f32 h1, %a; cvt.f32.bf16 s, h1; add.f32 s, s, 0f3F800000;
 mov.b64 %o, {r, s};""")
# 24: directed-rounding f32 and ftz/sat
case(""".reg .b32 r, s;
 add.rm.f32 r, %a, %b; mul.rz.ftz.f32 s, %a, %b; xor.b32 r, r, s; add.sat.f32 s, %a, %b;
 mov.b64 %o, {r, s};""")
# 25: f64 ops
case(""".reg .b64 v, w;
 rcp.rn.f64 v, %da; sqrt.rn.f64 w, %da; add.f64 v, v, w; div.rz.f64 w, %da, 0d4008000000000000;
 xor.b64 %o, v, w;""")
# 26: cvt saturate/truncate/sign-extend
case(""".reg .b32 r, s, t; .reg .b16 h;
 cvt.sat.u8.u32 r, %x; cvt.sat.s8.s32 s, %y; shl.b32 s, s, 8; or.b32 r, r, s;
 cvt.u16.u32 h, %y; cvt.s32.s16 t, h; xor.b32 r, r, t;
 cvt.rni.f32.f32 s, %a; cvt.sat.f32.f32 t, %b; xor.b32 s, s, t;
 mov.b64 %o, {r, s};""")
# 27: cvt float->int saturation
case(""".reg .b32 r, s;
 cvt.rzi.s32.f32 r, %a; cvt.rpi.u32.f32 s, %b;
 mov.b64 %o, {r, s};""")
# 28: transcendental approx
case(""".reg .b32 r, s, t;
 abs.f32 t, %a; ex2.approx.f32 r, %b; lg2.approx.f32 s, t; add.f32 r, r, s;
 sin.approx.f32 s, %b; add.f32 r, r, s; cos.approx.f32 s, %b; add.f32 r, r, s;
 rsqrt.approx.f32 s, t; tanh.approx.f32 t, %b;
 mov.b64 %o, {r, t};""")
# 29: warp ops: vote with negated pred, shfl with pred out, activemask in divergence
case(""".reg .pred p, q; .reg .b32 r, s, t, u;
 and.b32 t, %x, 1; setp.eq.u32 p, t, 1;
 vote.sync.ballot.b32 r, !p, -1;
 mov.u32 u, %laneid;
 shfl.sync.up.b32 s|q, u, 3, 0, -1; selp.u32 t, 0x100, 0, q; or.b32 s, s, t;
 xor.b32 r, r, s;
 @p bra $Lodd;
 activemask.b32 t;
 bra.uni $Ljoin;
$Lodd:
 mov.u32 t, %lanemask_lt;
$Ljoin:
 mov.b64 %o, {r, t};""")
# 30: shared window round trip, isspacep, red/atom on shared
case(""".reg .b64 g, h; .reg .b32 r, s; .reg .pred p;
 mov.u64 g, scratch; cvta.shared.u64 g, g; cvta.to.shared.u64 h, g;
 isspacep.shared p, g; selp.u32 r, 1, 0, p;
 mov.u32 s, %laneid; red.shared.add.u32 [scratch], s;
 bar.warp.sync -1;
 atom.shared.cas.b32 s, [scratch+4], 0, %x;
 ld.volatile.shared.u32 s, [scratch];
 cvt.u32.u64 r, h; add.u32 r, r, s;
 mov.b64 %o, {r, r};""")

N = len(CASES)
out = []
out.append("""//
// Generated by tests/gen/gen_misc.py - do not edit. Validated with ptxas.
//
.version 8.0
.target sm_90
.address_size 64

.shared .align 8 .b8 scratch[16];

.visible .entry misc(
	.param .u64 .ptr .align 1 pa,
	.param .u64 .ptr .align 1 pb,
	.param .u64 .ptr .align 1 px,
	.param .u64 .ptr .align 1 py,
	.param .u64 .ptr .align 1 pda,
	.param .u64 .ptr .align 1 pout
)
{
	.reg .b32 %a, %b, %x, %y, %t, %i;
	.reg .b64 %da, %o, %p, %q, %off;
	mov.u32 %t, %tid.x;
	mul.wide.u32 %off, %t, 4;
	ld.param.u64 %p, [pa]; add.u64 %p, %p, %off; ld.global.f32 %a, [%p];
	ld.param.u64 %p, [pb]; add.u64 %p, %p, %off; ld.global.f32 %b, [%p];
	ld.param.u64 %p, [px]; add.u64 %p, %p, %off; ld.global.u32 %x, [%p];
	ld.param.u64 %p, [py]; add.u64 %p, %p, %off; ld.global.u32 %y, [%p];
	mul.wide.u32 %off, %t, 8;
	ld.param.u64 %p, [pda]; add.u64 %p, %p, %off; ld.global.f64 %da, [%p];
	mul.wide.u32 %off, %t, %d;
	ld.param.u64 %q, [pout]; add.u64 %q, %q, %off;
	setp.eq.u32 %%pz, %t, 0;
""".replace("%d;", f"{8 * N};").replace("\tsetp.eq.u32 %%pz, %t, 0;\n", ""))
out.append("\t{ .reg .b32 z; mov.u32 z, 0; st.shared.u32 [scratch], z; st.shared.u32 [scratch+4], z; }\n\tbar.sync 0;\n")
for k, body in enumerate(CASES):
    out.append(f"\t// case {k}\n\t{{\n\t{body}\n\tst.global.u64 [%q+{8 * k}], %o;\n\t}}\n")
out.append("\tret;\n}\n")
open(sys.argv[1] if len(sys.argv) > 1 else "../ptx/misc.ptx", "w").write("".join(out))
print(N, "cases")

// Double-precision functions and intrinsics; bounds from the CUDA C++
// Programming Guide (see functions.h), Table 18 (double-precision standard
// functions) and Table 22 (double-precision intrinsics), each checked against
// that text. fmin, fmax, nextafter and copysign are not in Table 18 and are
// checked exact by their IEEE 754 / C definition.
#pragma once
#include "functions.h"

// clang-format off
#define MC_F64(M) \
  M(exp, double, 1, exp(x), expl(X), U(1), DOM(-746, 710)) \
  M(exp2, double, 1, exp2(x), exp2l(X), U(1), DOM(-1075, 1024)) \
  M(exp10, double, 1, exp10(x), exp10l(X), U(1), DOM(-324, 309)) \
  M(expm1, double, 1, expm1(x), expm1l(X), U(1), DOM(-40, 710)) \
  M(log, double, 1, log(x), logl(X), U(1), DOM(0, 100)) \
  M(log2, double, 1, log2(x), log2l(X), U(1), DOM(0, 100)) \
  M(log10, double, 1, log10(x), log10l(X), U(1), DOM(0, 100)) \
  M(log1p, double, 1, log1p(x), log1pl(X), U(1), DOM(-1, 10)) \
  M(logb, double, 1, logb(x), logbl(X), U(0), ALLX) \
  M(ilogb, double, 1, (double)ilogb(x), (double)ilogbl(X), U(0), ALLX) \
  M(sin, double, 1, sin(x), sinl(X), U(2), DOM(-10, 10)) \
  M(cos, double, 1, cos(x), cosl(X), U(2), DOM(-10, 10)) \
  M(tan, double, 1, tan(x), tanl(X), U(2), DOM(-10, 10)) \
  M(sincos_sin, double, 1, dSincosS(x), sinl(X), U(2), DOM(-10, 10)) \
  M(sincos_cos, double, 1, dSincosC(x), cosl(X), U(2), DOM(-10, 10)) \
  M(sinpi, double, 1, sinpi(x), sinpiRef(X), U(2), DOM(-10, 10)) \
  M(cospi, double, 1, cospi(x), cospiRef(X), U(2), DOM(-10, 10)) \
  M(sincospi_sin, double, 1, dSincospiS(x), sinpiRef(X), U(2), DOM(-10, 10)) \
  M(sincospi_cos, double, 1, dSincospiC(x), cospiRef(X), U(2), DOM(-10, 10)) \
  M(asin, double, 1, asin(x), asinl(X), U(2), DOM(-1, 1)) \
  M(acos, double, 1, acos(x), acosl(X), U(2), DOM(-1, 1)) \
  M(atan, double, 1, atan(x), atanl(X), U(2), DOM(-10, 10)) \
  M(sinh, double, 1, sinh(x), sinhl(X), U(2), DOM(-711, 711)) \
  M(cosh, double, 1, cosh(x), coshl(X), U(1), DOM(-711, 711)) \
  M(tanh, double, 1, tanh(x), tanhl(X), U(1), DOM(-20, 20)) \
  M(asinh, double, 1, asinh(x), asinhl(X), U(3), DOM(-100, 100)) \
  M(acosh, double, 1, acosh(x), acoshl(X), U(3), DOM(1, 100)) \
  M(atanh, double, 1, atanh(x), atanhl(X), U(2), DOM(-1, 1)) \
  M(erf, double, 1, erf(x), erfl(X), U(2), DOM(-6, 6)) \
  M(erfc, double, 1, erfc(x), erfcl(X), U(5), DOM(-6, 27)) \
  M(erfinv, double, 1, erfinv(x), erfinvRef(X), U(5), DOM(-1, 1)) \
  M(erfcinv, double, 1, erfcinv(x), erfcinvRef(X), U(6), DOM(0, 2)) \
  M(erfcx, double, 1, erfcx(x), erfcxRef(X), U(4), DOM(-26, 200)) \
  M(normcdf, double, 1, normcdf(x), normcdfRef(X), U(5), DOM(-38, 10)) \
  M(normcdfinv, double, 1, normcdfinv(x), normcdfinvRef(X), U(8), DOM(0, 1)) \
  M(lgamma, double, 1, lgamma(x), lgammal(X), U(4).exclude(-23.0001, -2.2637), DOM(-40, 60)) \
  M(tgamma, double, 1, tgamma(x), tgammal(X), U(10), DOM(-40, 172)) \
  M(sqrt, double, 1, sqrt(x), sqrt((double)X), U(0), DOM(0, 100)) \
  M(rsqrt, double, 1, rsqrt(x), 1 / sqrtl(X), U(1), DOM(0, 100)) \
  M(cbrt, double, 1, cbrt(x), cbrtl(X), U(1), ALLX) \
  M(rcbrt, double, 1, rcbrt(x), 1 / cbrtl(X), U(1), ALLX) \
  M(j0, double, 1, j0(x), besselMpfr(X, mpfr_j0), U(7).absBeyond(8, 5e-12), DOM(-30, 30)) \
  M(j1, double, 1, j1(x), besselMpfr(X, mpfr_j1), U(7).absBeyond(8, 5e-12), DOM(-30, 30)) \
  M(y0, double, 1, y0(x), besselMpfr(X, mpfr_y0), U(7).absBeyond(8, 5e-12), DOM(0, 30)) \
  M(y1, double, 1, y1(x), besselMpfr(X, mpfr_y1), U(7).absBeyond(8, 5e-12), DOM(0, 30)) \
  M(cyl_bessel_i0, double, 1, cyl_bessel_i0(x), besselIRef(X, 0), U(6), DOM(-713, 713)) \
  M(cyl_bessel_i1, double, 1, cyl_bessel_i1(x), besselIRef(X, 1), U(6), DOM(-713, 713)) \
  M(trunc, double, 1, trunc(x), truncl(X), U(0), DOM(-100, 100)) \
  M(round, double, 1, round(x), roundl(X), U(0), DOM(-100, 100)) \
  M(rint, double, 1, rint(x), rintl(X), U(0), DOM(-100, 100)) \
  M(nearbyint, double, 1, nearbyint(x), nearbyintl(X), U(0), DOM(-100, 100)) \
  M(ceil, double, 1, ceil(x), ceill(X), U(0), DOM(-100, 100)) \
  M(floor, double, 1, floor(x), floorl(X), U(0), DOM(-100, 100)) \
  M(frexp_mant, double, 1, dFrexpM(x), frexpHostM(X), U(0), ALLX) \
  M(frexp_exp, double, 1, dFrexpE(x), frexpHostE(X), U(0), ALLX) \
  M(modf_frac, double, 1, dModfF(x), modfHostF(X), U(0), ALLX) \
  M(modf_int, double, 1, dModfI(x), modfHostI(X), U(0), ALLX) \
  M(pow, double, 2, pow(x, y), powl(X, Y), U(2), (Domain{0, 10, -300, 300})) \
  M(atan2, double, 2, atan2(x, y), atan2l(X, Y), U(2), DOM(-10, 10)) \
  M(hypot, double, 2, hypot(x, y), hypotl(X, Y), U(2), ALLX) \
  M(rhypot, double, 2, rhypot(x, y), 1 / hypotl(X, Y), U(1), ALLX) \
  M(fmod, double, 2, fmod(x, y), fmodl(X, Y), U(0), DOM(-100, 100)) \
  M(remainder, double, 2, remainder(x, y), remainderl(X, Y), U(0), DOM(-100, 100)) \
  M(remquo_rem, double, 2, dRemquo(x, y), remainderl(X, Y), U(0), DOM(-100, 100)) \
  M(fdim, double, 2, fdim(x, y), fdiml(X, Y), U(0), ALLX) \
  M(fmin, double, 2, fmin(x, y), fminRef(X, Y), U(0), ALLX) \
  M(fmax, double, 2, fmax(x, y), fmaxRef(X, Y), U(0), ALLX) \
  M(nextafter, double, 2, nextafter(x, y), nextafter((double)X, (double)Y), U(0), ALLX) \
  M(copysign, double, 2, copysign(x, y), copysignl(X, Y), U(0), ALLX) \
  M(ldexp, double, 2, ldexp(x, clampExp(y)), ldexpl(X, clampExp(Y)), U(0), DOM(-2000, 2000)) \
  M(scalbn, double, 2, scalbn(x, clampExp(y)), scalbnl(X, clampExp(Y)), U(0), DOM(-2000, 2000)) \
  M(ddiv, double, 2, x / y, (double)X / (double)Y, U(0), ALLX) \
  M(fma, double, 3, fma(x, y, z), fma((double)X, (double)Y, (double)Z), U(0), ALLX) \
  M(norm3d, double, 3, norm3d(x, y, z), norm3Ref(X, Y, Z), U(2), ALLX) \
  M(rnorm3d, double, 3, rnorm3d(x, y, z), 1 / norm3Ref(X, Y, Z), U(1), ALLX)

#define MC_F64_INTRINSICS(M) \
  M(__drcp_rn, double, 1, __drcp_rn(x), MC_RND(double, FE_TONEAREST, 1.0 / a), U(0), ALLX) \
  M(__drcp_rz, double, 1, __drcp_rz(x), MC_RND(double, FE_TOWARDZERO, 1.0 / a), U(0), ALLX) \
  M(__drcp_ru, double, 1, __drcp_ru(x), MC_RND(double, FE_UPWARD, 1.0 / a), U(0), ALLX) \
  M(__drcp_rd, double, 1, __drcp_rd(x), MC_RND(double, FE_DOWNWARD, 1.0 / a), U(0), ALLX) \
  M(__dsqrt_rn, double, 1, __dsqrt_rn(x), MC_RND(double, FE_TONEAREST, sqrt(a)), U(0), ALLX) \
  M(__dsqrt_rz, double, 1, __dsqrt_rz(x), MC_RND(double, FE_TOWARDZERO, sqrt(a)), U(0), ALLX) \
  M(__dsqrt_ru, double, 1, __dsqrt_ru(x), MC_RND(double, FE_UPWARD, sqrt(a)), U(0), ALLX) \
  M(__dsqrt_rd, double, 1, __dsqrt_rd(x), MC_RND(double, FE_DOWNWARD, sqrt(a)), U(0), ALLX) \
  M(__dadd_rn, double, 2, __dadd_rn(x, y), MC_RND(double, FE_TONEAREST, a + b), U(0), ALLX) \
  M(__dadd_rz, double, 2, __dadd_rz(x, y), MC_RND(double, FE_TOWARDZERO, a + b), U(0), ALLX) \
  M(__dadd_ru, double, 2, __dadd_ru(x, y), MC_RND(double, FE_UPWARD, a + b), U(0), ALLX) \
  M(__dadd_rd, double, 2, __dadd_rd(x, y), MC_RND(double, FE_DOWNWARD, a + b), U(0), ALLX) \
  M(__dsub_rn, double, 2, __dsub_rn(x, y), MC_RND(double, FE_TONEAREST, a - b), U(0), ALLX) \
  M(__dsub_rz, double, 2, __dsub_rz(x, y), MC_RND(double, FE_TOWARDZERO, a - b), U(0), ALLX) \
  M(__dsub_ru, double, 2, __dsub_ru(x, y), MC_RND(double, FE_UPWARD, a - b), U(0), ALLX) \
  M(__dsub_rd, double, 2, __dsub_rd(x, y), MC_RND(double, FE_DOWNWARD, a - b), U(0), ALLX) \
  M(__dmul_rn, double, 2, __dmul_rn(x, y), MC_RND(double, FE_TONEAREST, a * b), U(0), ALLX) \
  M(__dmul_rz, double, 2, __dmul_rz(x, y), MC_RND(double, FE_TOWARDZERO, a * b), U(0), ALLX) \
  M(__dmul_ru, double, 2, __dmul_ru(x, y), MC_RND(double, FE_UPWARD, a * b), U(0), ALLX) \
  M(__dmul_rd, double, 2, __dmul_rd(x, y), MC_RND(double, FE_DOWNWARD, a * b), U(0), ALLX) \
  M(__ddiv_rn, double, 2, __ddiv_rn(x, y), MC_RND(double, FE_TONEAREST, a / b), U(0), ALLX) \
  M(__ddiv_rz, double, 2, __ddiv_rz(x, y), MC_RND(double, FE_TOWARDZERO, a / b), U(0), ALLX) \
  M(__ddiv_ru, double, 2, __ddiv_ru(x, y), MC_RND(double, FE_UPWARD, a / b), U(0), ALLX) \
  M(__ddiv_rd, double, 2, __ddiv_rd(x, y), MC_RND(double, FE_DOWNWARD, a / b), U(0), ALLX) \
  M(__fma_rn, double, 3, __fma_rn(x, y, z), MC_RND(double, FE_TONEAREST, fma(a, b, c)), U(0), ALLX) \
  M(__fma_rz, double, 3, __fma_rz(x, y, z), MC_RND(double, FE_TOWARDZERO, fma(a, b, c)), U(0), ALLX) \
  M(__fma_ru, double, 3, __fma_ru(x, y, z), MC_RND(double, FE_UPWARD, fma(a, b, c)), U(0), ALLX) \
  M(__fma_rd, double, 3, __fma_rd(x, y, z), MC_RND(double, FE_DOWNWARD, fma(a, b, c)), U(0), ALLX)
// clang-format on

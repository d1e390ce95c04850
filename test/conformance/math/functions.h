// The functions under test, with their documented maximum ulp errors.
// Source of every bound: NVIDIA, CUDA C++ Programming Guide (the edition
// current for CUDA 12.9/13.0), chapter 17 "Mathematical Functions": Table 17
// (single-precision standard functions, 17.1), Table 21 (single-precision
// intrinsics, 17.2); the double-precision tables are in functions_f64.h.
// Each number below was checked against that text (2026-11-23). ulp bounds
// are relative to the correctly rounded result; U(0) means exact.
// fminf, fmaxf, nextafterf and copysignf are not in Table 17: they are
// checked exact because IEEE 754 / C define their results exactly (one of
// the inputs, or its neighbour), not because NVIDIA states a bound.
// sqrtf and x / y are documented exact only with -prec-sqrt=true and
// -prec-div=true (nvcc's defaults). clang's CUDA default keeps prec-div
// (div.rn.f32) but not prec-sqrt: its sqrtf is sqrt.approx.f32, for which
// the Guide gives "1 for compute capability >= 5.2" (an H200 gave 1 ulp,
// 2026-11-27), so sqrtf has that bound here.
#pragma once
#include "harness.h"
#include "reference.h"

// Functions with a second output: one entry per output.
template <class T> __device__ T dFrexpM(T x) {
  int e;
  return frexp(x, &e);
}
template <class T> __device__ T dFrexpE(T x) {
  int e;
  frexp(x, &e);
  return (T)e;
}
template <class T> __device__ T dModfF(T x) {
  T i;
  return modf(x, &i);
}
template <class T> __device__ T dModfI(T x) {
  T i;
  modf(x, &i);
  return i;
}
template <class T> __device__ T dRemquo(T x, T y) {
  int q;
  return remquo(x, y, &q);
}
__device__ float dSincosfS(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return s;
}
__device__ float dSincosfC(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return c;
}
__device__ float dSincospifS(float x) {
  float s, c;
  sincospif(x, &s, &c);
  return s;
}
__device__ float dSincospifC(float x) {
  float s, c;
  sincospif(x, &s, &c);
  return c;
}
__device__ float dFsincosS(float x) {
  float s, c;
  __sincosf(x, &s, &c);
  return s;
}
__device__ float dFsincosC(float x) {
  float s, c;
  __sincosf(x, &s, &c);
  return c;
}
__device__ double dSincosS(double x) {
  double s, c;
  sincos(x, &s, &c);
  return s;
}
__device__ double dSincosC(double x) {
  double s, c;
  sincos(x, &s, &c);
  return c;
}
__device__ double dSincospiS(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return s;
}
__device__ double dSincospiC(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return c;
}
// Exponent arguments of ldexp/scalbn: the y input clamped to an int range
// that still reaches overflow and underflow (same on host and device).
__host__ __device__ inline int clampExp(double y) {
  return y != y ? 0 : (int)fmin(fmax(y, -400.0), 400.0);
}
static long double frexpHostE(long double x) {
  int e = 0;
  frexpl(x, &e);
  return e;
}
static long double frexpHostM(long double x) {
  int e = 0;
  return frexpl(x, &e);
}
static long double modfHostF(long double x) {
  long double i;
  return modfl(x, &i);
}
static long double modfHostI(long double x) {
  long double i;
  modfl(x, &i);
  return i;
}

static const double kPi = 3.14159265358979323846;
#define DOM(lo, hi)                                                            \
  Domain { lo, hi, lo, hi }
#define ALLX DOM(-1e4, 1e4)

// clang-format off
#define MC_F32(M) \
  M(expf, float, 1, expf(x), expl(X), U(2), DOM(-104, 89)) \
  M(exp2f, float, 1, exp2f(x), exp2l(X), U(2), DOM(-150, 128)) \
  M(exp10f, float, 1, exp10f(x), exp10l(X), U(2), DOM(-46, 39)) \
  M(expm1f, float, 1, expm1f(x), expm1l(X), U(1), DOM(-20, 89)) \
  M(logf, float, 1, logf(x), logl(X), U(1), DOM(0, 100)) \
  M(log2f, float, 1, log2f(x), log2l(X), U(1), DOM(0, 100)) \
  M(log10f, float, 1, log10f(x), log10l(X), U(2), DOM(0, 100)) \
  M(log1pf, float, 1, log1pf(x), log1pl(X), U(1), DOM(-1, 10)) \
  M(logbf, float, 1, logbf(x), logbl(X), U(0), ALLX) \
  M(ilogbf, float, 1, (float)ilogbf(x), (float)ilogbl(X), U(0), ALLX) \
  M(sinf, float, 1, sinf(x), sinl(X), U(2), DOM(-10, 10)) \
  M(cosf, float, 1, cosf(x), cosl(X), U(2), DOM(-10, 10)) \
  M(tanf, float, 1, tanf(x), tanl(X), U(4), DOM(-10, 10)) \
  M(sincosf_sin, float, 1, dSincosfS(x), sinl(X), U(2), DOM(-10, 10)) \
  M(sincosf_cos, float, 1, dSincosfC(x), cosl(X), U(2), DOM(-10, 10)) \
  M(sinpif, float, 1, sinpif(x), sinpiRef(X), U(1), DOM(-10, 10)) \
  M(cospif, float, 1, cospif(x), cospiRef(X), U(1), DOM(-10, 10)) \
  M(sincospif_sin, float, 1, dSincospifS(x), sinpiRef(X), U(1), DOM(-10, 10)) \
  M(sincospif_cos, float, 1, dSincospifC(x), cospiRef(X), U(1), DOM(-10, 10)) \
  M(asinf, float, 1, asinf(x), asinl(X), U(2), DOM(-1, 1)) \
  M(acosf, float, 1, acosf(x), acosl(X), U(2), DOM(-1, 1)) \
  M(atanf, float, 1, atanf(x), atanl(X), U(2), DOM(-10, 10)) \
  M(sinhf, float, 1, sinhf(x), sinhl(X), U(3), DOM(-90, 90)) \
  M(coshf, float, 1, coshf(x), coshl(X), U(2), DOM(-90, 90)) \
  M(tanhf, float, 1, tanhf(x), tanhl(X), U(2), DOM(-10, 10)) \
  M(asinhf, float, 1, asinhf(x), asinhl(X), U(3), DOM(-100, 100)) \
  M(acoshf, float, 1, acoshf(x), acoshl(X), U(4), DOM(1, 100)) \
  M(atanhf, float, 1, atanhf(x), atanhl(X), U(3), DOM(-1, 1)) \
  M(erff, float, 1, erff(x), erfl(X), U(2), DOM(-5, 5)) \
  M(erfcf, float, 1, erfcf(x), erfcl(X), U(4), DOM(-5, 11)) \
  M(erfinvf, float, 1, erfinvf(x), erfinvRef(X), U(2), DOM(-1, 1)) \
  M(erfcinvf, float, 1, erfcinvf(x), erfcinvRef(X), U(4), DOM(0, 2)) \
  M(erfcxf, float, 1, erfcxf(x), erfcxRef(X), U(4), DOM(-10, 100)) \
  M(normcdff, float, 1, normcdff(x), normcdfRef(X), U(5), DOM(-15, 10)) \
  M(normcdfinvf, float, 1, normcdfinvf(x), normcdfinvRef(X), U(5), DOM(0, 1)) \
  M(lgammaf, float, 1, lgammaf(x), lgammal(X), U(6).exclude(-10.001, -2.264), DOM(-20, 40)) \
  M(tgammaf, float, 1, tgammaf(x), tgammal(X), U(5), DOM(-20, 36)) \
  M(sqrtf, float, 1, sqrtf(x), sqrtf((float)X), U(1), DOM(0, 100)) \
  M(rsqrtf, float, 1, rsqrtf(x), 1 / sqrtl(X), U(2), DOM(0, 100)) \
  M(cbrtf, float, 1, cbrtf(x), cbrtl(X), U(1), ALLX) \
  M(rcbrtf, float, 1, rcbrtf(x), 1 / cbrtl(X), U(1), ALLX) \
  M(j0f, float, 1, j0f(x), besselMpfr(X, mpfr_j0), U(9).absBeyond(8, 2.2e-6), DOM(-30, 30)) \
  M(j1f, float, 1, j1f(x), besselMpfr(X, mpfr_j1), U(9).absBeyond(8, 2.2e-6), DOM(-30, 30)) \
  M(y0f, float, 1, y0f(x), besselMpfr(X, mpfr_y0), U(9).absBeyond(8, 2.2e-6), DOM(0, 30)) \
  M(y1f, float, 1, y1f(x), besselMpfr(X, mpfr_y1), U(9).absBeyond(8, 2.2e-6), DOM(0, 30)) \
  M(cyl_bessel_i0f, float, 1, cyl_bessel_i0f(x), besselIRef(X, 0), U(6), DOM(-90, 90)) \
  M(cyl_bessel_i1f, float, 1, cyl_bessel_i1f(x), besselIRef(X, 1), U(6), DOM(-90, 90)) \
  M(truncf, float, 1, truncf(x), truncl(X), U(0), DOM(-100, 100)) \
  M(roundf, float, 1, roundf(x), roundl(X), U(0), DOM(-100, 100)) \
  M(rintf, float, 1, rintf(x), rintl(X), U(0), DOM(-100, 100)) \
  M(nearbyintf, float, 1, nearbyintf(x), nearbyintl(X), U(0), DOM(-100, 100)) \
  M(ceilf, float, 1, ceilf(x), ceill(X), U(0), DOM(-100, 100)) \
  M(floorf, float, 1, floorf(x), floorl(X), U(0), DOM(-100, 100)) \
  M(frexpf_mant, float, 1, dFrexpM(x), frexpHostM(X), U(0), ALLX) \
  M(frexpf_exp, float, 1, dFrexpE(x), frexpHostE(X), U(0), ALLX) \
  M(modff_frac, float, 1, dModfF(x), modfHostF(X), U(0), ALLX) \
  M(modff_int, float, 1, dModfI(x), modfHostI(X), U(0), ALLX) \
  M(powf, float, 2, powf(x, y), powl(X, Y), U(4), (Domain{0, 10, -40, 40})) \
  M(atan2f, float, 2, atan2f(x, y), atan2l(X, Y), U(3), DOM(-10, 10)) \
  M(hypotf, float, 2, hypotf(x, y), hypotl(X, Y), U(3), ALLX) \
  M(rhypotf, float, 2, rhypotf(x, y), 1 / hypotl(X, Y), U(2), ALLX) \
  M(fmodf, float, 2, fmodf(x, y), fmodl(X, Y), U(0), DOM(-100, 100)) \
  M(remainderf, float, 2, remainderf(x, y), remainderl(X, Y), U(0), DOM(-100, 100)) \
  M(remquof_rem, float, 2, dRemquo(x, y), remainderl(X, Y), U(0), DOM(-100, 100)) \
  M(fdimf, float, 2, fdimf(x, y), fdiml(X, Y), U(0), ALLX) \
  M(fminf, float, 2, fminf(x, y), fminRef(X, Y), U(0), ALLX) \
  M(fmaxf, float, 2, fmaxf(x, y), fmaxRef(X, Y), U(0), ALLX) \
  M(nextafterf, float, 2, nextafterf(x, y), nextafterf((float)X, (float)Y), U(0), ALLX) \
  M(copysignf, float, 2, copysignf(x, y), copysignl(X, Y), U(0), ALLX) \
  M(ldexpf, float, 2, ldexpf(x, clampExp(y)), ldexpl(X, clampExp(Y)), U(0), DOM(-300, 300)) \
  M(scalbnf, float, 2, scalbnf(x, clampExp(y)), scalbnl(X, clampExp(Y)), U(0), DOM(-300, 300)) \
  M(fdiv, float, 2, x / y, (float)X / (float)Y, U(0), ALLX) \
  M(fmaf, float, 3, fmaf(x, y, z), fmaf((float)X, (float)Y, (float)Z), U(0), ALLX) \
  M(norm3df, float, 3, norm3df(x, y, z), norm3Ref(X, Y, Z), U(3), ALLX) \
  M(rnorm3df, float, 3, rnorm3df(x, y, z), 1 / norm3Ref(X, Y, Z), U(2), ALLX)

#define MC_F32_INTRINSICS(M) \
  M(__expf, float, 1, __expf(x), expl(X), U(2).withSlope(1.173), DOM(-88, 88)) \
  M(__exp10f, float, 1, __exp10f(x), exp10l(X), U(2).withSlope(2.97), DOM(-38, 38)) \
  M(__logf, float, 1, __logf(x), logl(X), U(3).absIn(0.5, 2, exp2(-21.41)), DOM(0, 100)) \
  M(__log2f, float, 1, __log2f(x), log2l(X), U(2).absIn(0.5, 2, 0x1p-22), DOM(0, 100)) \
  M(__log10f, float, 1, __log10f(x), log10l(X), U(3).absIn(0.5, 2, 0x1p-24), DOM(0, 100)) \
  M(__sinf, float, 1, __sinf(x), sinl(X), U(0).absIn(-kPi, kPi, exp2(-21.41)).only(-kPi, kPi), DOM(-kPi, kPi)) \
  M(__cosf, float, 1, __cosf(x), cosl(X), U(0).absIn(-kPi, kPi, exp2(-21.19)).only(-kPi, kPi), DOM(-kPi, kPi)) \
  M(__sincosf_sin, float, 1, dFsincosS(x), sinl(X), U(0).absIn(-kPi, kPi, exp2(-21.41)).only(-kPi, kPi), DOM(-kPi, kPi)) \
  M(__sincosf_cos, float, 1, dFsincosC(x), cosl(X), U(0).absIn(-kPi, kPi, exp2(-21.19)).only(-kPi, kPi), DOM(-kPi, kPi)) \
  M(__tanf, float, 1, __tanf(x), tanl(X), INFO(), DOM(-kPi, kPi)) \
  M(__powf, float, 2, __powf(x, y), powl(X, Y), INFO(), (Domain{0, 10, -20, 20})) \
  M(__fdividef, float, 2, __fdividef(x, y), (long double)X / Y, U(2).yMag(0x1p-126, 0x1p126), ALLX) \
  M(__frsqrt_rn, float, 1, __frsqrt_rn(x), 1 / sqrtl(X), U(0), ALLX) \
  M(__frcp_rn, float, 1, __frcp_rn(x), MC_RND(float, FE_TONEAREST, 1.0f / a), U(0), ALLX) \
  M(__frcp_rz, float, 1, __frcp_rz(x), MC_RND(float, FE_TOWARDZERO, 1.0f / a), U(0), ALLX) \
  M(__frcp_ru, float, 1, __frcp_ru(x), MC_RND(float, FE_UPWARD, 1.0f / a), U(0), ALLX) \
  M(__frcp_rd, float, 1, __frcp_rd(x), MC_RND(float, FE_DOWNWARD, 1.0f / a), U(0), ALLX) \
  M(__fsqrt_rn, float, 1, __fsqrt_rn(x), MC_RND(float, FE_TONEAREST, sqrtf(a)), U(0), ALLX) \
  M(__fsqrt_rz, float, 1, __fsqrt_rz(x), MC_RND(float, FE_TOWARDZERO, sqrtf(a)), U(0), ALLX) \
  M(__fsqrt_ru, float, 1, __fsqrt_ru(x), MC_RND(float, FE_UPWARD, sqrtf(a)), U(0), ALLX) \
  M(__fsqrt_rd, float, 1, __fsqrt_rd(x), MC_RND(float, FE_DOWNWARD, sqrtf(a)), U(0), ALLX) \
  M(__fadd_rn, float, 2, __fadd_rn(x, y), MC_RND(float, FE_TONEAREST, a + b), U(0), ALLX) \
  M(__fadd_rz, float, 2, __fadd_rz(x, y), MC_RND(float, FE_TOWARDZERO, a + b), U(0), ALLX) \
  M(__fadd_ru, float, 2, __fadd_ru(x, y), MC_RND(float, FE_UPWARD, a + b), U(0), ALLX) \
  M(__fadd_rd, float, 2, __fadd_rd(x, y), MC_RND(float, FE_DOWNWARD, a + b), U(0), ALLX) \
  M(__fsub_rn, float, 2, __fsub_rn(x, y), MC_RND(float, FE_TONEAREST, a - b), U(0), ALLX) \
  M(__fsub_rz, float, 2, __fsub_rz(x, y), MC_RND(float, FE_TOWARDZERO, a - b), U(0), ALLX) \
  M(__fsub_ru, float, 2, __fsub_ru(x, y), MC_RND(float, FE_UPWARD, a - b), U(0), ALLX) \
  M(__fsub_rd, float, 2, __fsub_rd(x, y), MC_RND(float, FE_DOWNWARD, a - b), U(0), ALLX) \
  M(__fmul_rn, float, 2, __fmul_rn(x, y), MC_RND(float, FE_TONEAREST, a * b), U(0), ALLX) \
  M(__fmul_rz, float, 2, __fmul_rz(x, y), MC_RND(float, FE_TOWARDZERO, a * b), U(0), ALLX) \
  M(__fmul_ru, float, 2, __fmul_ru(x, y), MC_RND(float, FE_UPWARD, a * b), U(0), ALLX) \
  M(__fmul_rd, float, 2, __fmul_rd(x, y), MC_RND(float, FE_DOWNWARD, a * b), U(0), ALLX) \
  M(__fdiv_rn, float, 2, __fdiv_rn(x, y), MC_RND(float, FE_TONEAREST, a / b), U(0), ALLX) \
  M(__fdiv_rz, float, 2, __fdiv_rz(x, y), MC_RND(float, FE_TOWARDZERO, a / b), U(0), ALLX) \
  M(__fdiv_ru, float, 2, __fdiv_ru(x, y), MC_RND(float, FE_UPWARD, a / b), U(0), ALLX) \
  M(__fdiv_rd, float, 2, __fdiv_rd(x, y), MC_RND(float, FE_DOWNWARD, a / b), U(0), ALLX) \
  M(__fmaf_rn, float, 3, __fmaf_rn(x, y, z), MC_RND(float, FE_TONEAREST, fmaf(a, b, c)), U(0), ALLX) \
  M(__fmaf_rz, float, 3, __fmaf_rz(x, y, z), MC_RND(float, FE_TOWARDZERO, fmaf(a, b, c)), U(0), ALLX) \
  M(__fmaf_ru, float, 3, __fmaf_ru(x, y, z), MC_RND(float, FE_UPWARD, fmaf(a, b, c)), U(0), ALLX) \
  M(__fmaf_rd, float, 3, __fmaf_rd(x, y, z), MC_RND(float, FE_DOWNWARD, fmaf(a, b, c)), U(0), ALLX)
// clang-format on

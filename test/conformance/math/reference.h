// Host references in x86 long double (64-bit significand, 11 bits more than
// double) for the functions glibc has no long double version of. Operations
// NVIDIA documents as exact are computed in the target type on the host
// (correctly rounded SSE arithmetic, glibc fma), never via long double, to
// avoid double rounding.
#pragma once
#include <cfenv>
#include <cmath>
#include <mpfr.h>

static const long double kPiL = 3.141592653589793238462643383279502884L;

// sin(pi x): reduce exactly to r in [-0.5, 0.5] first, so pi*r loses nothing
// near the zeros of sinpi.
static long double sinpiRef(long double x) {
  if (std::isinf(x))
    return NAN;
  if (x == 0)
    return x;                           // sign of zero kept
  long double r = x - 2 * rintl(x / 2); // exact, in [-1, 1]
  if (r > 0.5L)
    r = 1 - r;
  else if (r < -0.5L)
    r = -1 - r;
  return sinl(kPiL * r);
}
static long double cospiRef(long double x) {
  if (std::isinf(x))
    return NAN;
  long double r = fabsl(x - 2 * rintl(x / 2)); // exact, in [0, 1]
  return sinpiRef(0.5L - r);
}

// erfc(u + d) for a tiny correction d, to first order.
static long double erfcShifted(long double u, long double d) {
  return erfcl(u) - d * 2 / sqrtl(kPiL) * expl(-u * u);
}

// Phi(x) = erfc(-x / sqrt 2) / 2, with x / sqrt 2 carried in two parts: the
// rounding of the quotient alone would cost x^2 * 2^-64 relative error.
static long double normcdfRef(long double x) {
  if (std::isinf(x))
    return x > 0 ? 1 : 0;
  const long double h = 0.707106781186547524400844362104849039L;
  long double l = h * fmal(-2 * h, h, 1) / 2; // 1/sqrt2 - h
  long double th = x * h, tl = fmal(x, h, -th) + x * l;
  return erfcShifted(-th, -tl) / 2;
}

// erfc^-1(q) for q in (0, 2): Newton on erfcl, which keeps its relative
// accuracy in the tail, from a bisection start.
static long double erfcinvRef(long double q) {
  if (std::isnan(q) || q < 0 || q > 2)
    return NAN;
  if (q == 0)
    return INFINITY;
  if (q == 2)
    return -INFINITY;
  if (q > 1)
    return -erfcinvRef(2 - q); // 2 - q is exact for q in (1, 2)
  if (q > 0.5L) {              // erf^-1(1 - q), small argument: Newton on erf
    long double p = 1 - q, x = p * sqrtl(kPiL) / 2;
    for (int i = 0; i < 12; ++i)
      x -= (erfl(x) - p) / (2 / sqrtl(kPiL) * expl(-x * x));
    return x;
  }
  long double lo = 0, hi = 110;
  for (int i = 0; i < 40; ++i) {
    long double mid = (lo + hi) / 2;
    (erfcl(mid) > q ? lo : hi) = mid;
  }
  long double x = (lo + hi) / 2;
  for (int i = 0; i < 6; ++i)
    x += (erfcl(x) - q) / (2 / sqrtl(kPiL) * expl(-x * x));
  return x;
}
static long double erfinvRef(long double p) {
  if (std::isnan(p) || fabsl(p) > 1)
    return NAN;
  if (fabsl(p) < 0.5L) { // Newton on erf from the first series term
    long double x = p * sqrtl(kPiL) / 2;
    for (int i = 0; i < 12 && x != 0; ++i)
      x -= (erfl(x) - p) / (2 / sqrtl(kPiL) * expl(-x * x));
    return x;
  }
  long double r = erfcinvRef(1 - fabsl(p)); // 1 - |p| exact for |p| >= 0.5
  return p < 0 ? -r : r;
}
static long double normcdfinvRef(long double p) {
  return -sqrtl(2.0L) * erfcinvRef(2 * p);
}

// exp(x^2) erfc(x), with x^2 split in two parts; asymptotic series where
// exp(x^2) would overflow even long double.
static long double erfcxRef(long double x) {
  if (std::isnan(x))
    return x;
  if (x < -106) // exp(x^2) overflows even long double
    return INFINITY;
  if (x > 100) {
    long double t = 1 / (2 * x * x), s = 1, term = 1;
    for (int k = 1; k < 12; ++k) {
      term *= -(2 * k - 1) * t;
      s += term;
    }
    return s / (x * sqrtl(kPiL));
  }
  long double h = x * x, l = fmal(x, x, -h);
  return expl(h) * (1 + l) * erfcl(x);
}

// Bessel functions of the first and second kind, orders 0 and 1, with
// MPFR at 128 bits: glibc's j0l/y0l lose their relative accuracy near the
// zeros, where a double result needs more than long double offers.
static long double besselMpfr(long double x,
                              int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  if (std::isinf(x) && f == mpfr_j1) // odd: j1(-inf) = -0 (CUDA Math API)
    return copysignl(0, x);
  mpfr_t m;
  mpfr_init2(m, 128);
  mpfr_set_ld(m, x, MPFR_RNDN);
  f(m, m, MPFR_RNDN);
  long double r = mpfr_get_ld(m, MPFR_RNDN);
  mpfr_clear(m);
  return r;
}

// Modified Bessel I0, I1: power series (all terms positive, no cancellation).
static long double besselIRef(long double x, int order) {
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return order == 0 ? INFINITY : x;
  long double q = x * x / 4, term = order == 0 ? 1 : x / 2, s = term;
  for (int k = 1; k < 2000 && fabsl(term) > fabsl(s) * 1e-22L; ++k) {
    term *= q / ((long double)k * (k + order));
    s += term;
  }
  return s;
}

// IEEE 754-2019 minimum/maximum number: -0 < +0 (what PTX min/max do).
static long double fminRef(long double x, long double y) {
  if (x == 0 && y == 0)
    return std::signbit(x) ? x : y;
  return fminl(x, y);
}
static long double fmaxRef(long double x, long double y) {
  if (x == 0 && y == 0)
    return std::signbit(x) ? y : x;
  return fmaxl(x, y);
}
// Euclidean norm: an infinite component wins over NaN, as in hypot.
static long double norm3Ref(long double x, long double y, long double z) {
  if (std::isinf(x) || std::isinf(y) || std::isinf(z))
    return INFINITY;
  return sqrtl(x * x + y * y + z * z);
}

// One IEEE operation in the target type under a directed rounding mode.
template <class T, class Op> static long double inMode(int mode, Op op) {
  std::fesetround(mode);
  volatile T r = op();
  std::fesetround(FE_TONEAREST);
  return r;
}
#define MC_RND(T, mode, expr)                                                  \
  inMode<T>(mode, [&]() -> T {                                                 \
    volatile T a = (T)X, b = (T)Y, c = (T)Z;                                   \
    (void)a;                                                                   \
    (void)b;                                                                   \
    (void)c;                                                                   \
    return (expr);                                                             \
  })

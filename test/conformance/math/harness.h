// Shared types of the math conformance suite: documented bounds, the
// per-function table entry, and one generic kernel per functor.
#pragma once
#include <cmath>
#include <cstdint>
#include <cuda_runtime.h>

enum Prec { F32, F64 };

// A documented accuracy bound (CUDA C++ Programming Guide, appendix
// "Mathematical Functions"). Inputs outside [chkLo, chkHi] or inside the
// open interval (exLo, exHi) are run but not checked; inside [absLo, absHi]
// or for |x| >= absOut the bound is an absolute error instead of ulps.
struct Bound {
  double ulp = 0, slope = 0, absErr = 0;
  double absLo = INFINITY, absHi = -INFINITY, absOut = INFINITY;
  double exLo = 0, exHi = 0, chkLo = -INFINITY, chkHi = INFINITY;
  double yMagLo = 0, yMagHi = INFINITY; // |y| range where the bound holds
  bool info = false; // NVIDIA documents no number: measured only

  constexpr Bound withSlope(double s) const {
    Bound b = *this;
    b.slope = s;
    return b;
  }
  constexpr Bound absIn(double lo, double hi, double e) const {
    Bound b = *this;
    b.absLo = lo;
    b.absHi = hi;
    b.absErr = e;
    return b;
  }
  constexpr Bound absBeyond(double r, double e) const {
    Bound b = *this;
    b.absOut = r;
    b.absErr = e;
    return b;
  }
  constexpr Bound exclude(double lo, double hi) const {
    Bound b = *this;
    b.exLo = lo;
    b.exHi = hi;
    return b;
  }
  constexpr Bound yMag(double lo, double hi) const {
    Bound b = *this;
    b.yMagLo = lo;
    b.yMagHi = hi;
    return b;
  }
  constexpr Bound only(double lo, double hi) const {
    Bound b = *this;
    b.chkLo = lo;
    b.chkHi = hi;
    return b;
  }
};
constexpr Bound U(double u) {
  Bound b;
  b.ulp = u;
  return b;
}
constexpr Bound INFO() {
  Bound b;
  b.info = true;
  return b;
}

// Where random inputs are drawn besides the whole-exponent-range ones.
struct Domain {
  double xlo, xhi, ylo, yhi;
};

using LaunchFn = void (*)(const void *, const void *, const void *, void *,
                          int);
using RefFn = long double (*)(long double, long double, long double);

struct Entry {
  const char *name;
  Prec prec;
  int arity;
  LaunchFn launch;
  RefFn ref;
  Bound bound;
  Domain dom;
};

template <class F, class T>
__global__ void mathKernel(const T *a, const T *b, const T *c, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = F()(a[i], b[i], c[i]);
}

template <class F, class T>
void launchMath(const void *a, const void *b, const void *c, void *out, int n) {
  mathKernel<F, T><<<(n + 127) / 128, 128>>>(
      static_cast<const T *>(a), static_cast<const T *>(b),
      static_cast<const T *>(c), static_cast<T *>(out), n);
}

// X-macro expanders: X(id, T, arity, device expr of x y z, reference expr of
// X Y Z (long double), Bound, Domain).
#define MC_DEFINE(id, T, ar, dev, ref, bnd, dom)                               \
  struct D_##id {                                                              \
    __device__ T operator()(T x, T y, T z) const {                             \
      (void)x;                                                                 \
      (void)y;                                                                 \
      (void)z;                                                                 \
      return (dev);                                                            \
    }                                                                          \
  };                                                                           \
  static long double R_##id(long double X, long double Y, long double Z) {     \
    (void)X;                                                                   \
    (void)Y;                                                                   \
    (void)Z;                                                                   \
    return (ref);                                                              \
  }
#define MC_ENTRY(id, T, ar, dev, ref, bnd, dom)                                \
  {#id, sizeof(T) == 4 ? F32 : F64, ar, &launchMath<D_##id, T>, &R_##id, bnd,  \
   dom},

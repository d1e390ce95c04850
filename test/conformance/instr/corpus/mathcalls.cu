// Corpus input for scripts/ptx-forms.py: calls many CUDA math functions and
// intrinsics so that the PTX forms libdevice and the CUDA headers emit are
// part of clang-forms.txt. Not run; compiled to PTX only.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void f32(const float *x, float *y, int *k) {
  float a = x[threadIdx.x], b = x[threadIdx.x + 1], c = x[threadIdx.x + 2];
  int e;
  float s, co;
  sincosf(a, &s, &co);
  y[0] = sinf(a) + cosf(b) + tanf(c) + expf(a) + exp2f(b) + exp10f(c) +
         expm1f(a) + logf(a) + log2f(b) + log10f(c) + log1pf(a) + powf(a, b) +
         sqrtf(a) + rsqrtf(b) + cbrtf(c) + rcbrtf(a) + hypotf(a, b) +
         atan2f(a, b) + asinf(a) + acosf(b) + atanf(c) + sinhf(a) + coshf(b) +
         tanhf(c) + asinhf(a) + acoshf(b) + atanhf(c) + erff(a) + erfcf(b) +
         erfinvf(a) + erfcinvf(b) + lgammaf(a) + tgammaf(b) + fmodf(a, b) +
         remainderf(a, b) + frexpf(a, &e) + ldexpf(a, 3) + scalbnf(a, 2) +
         floorf(a) + ceilf(b) + truncf(c) + roundf(a) + rintf(b) +
         nearbyintf(c) + fabsf(a) + fminf(a, b) + fmaxf(a, b) + fdimf(a, b) +
         copysignf(a, b) + fmaf(a, b, c) + __fdividef(a, b) + __expf(a) +
         __logf(b) + __sinf(c) + __cosf(a) + __powf(a, b) + __saturatef(a) +
         __fadd_rn(a, b) + __fadd_rz(a, b) + __fmul_rd(a, b) + __fmul_ru(a, b) +
         __fdiv_rn(a, b) + __frcp_rn(a) + __fsqrt_rn(a) + __fmaf_rz(a, b, c) +
         normf(3, x) + s + co + j0f(a) + y1f(b) + logbf(a) + nextafterf(a, b) +
         cyl_bessel_i0f(a) + normcdff(a) + normcdfinvf(b);
  k[0] = __float2int_rn(a) + __float2int_rz(b) + __float2uint_rd(c) +
         (int)__float2ll_ru(a) + ilogbf(a) + __float_as_int(b) + isnan(a) +
         isinf(b) + signbit(c) + __popc(k[1]) + __clz(k[2]) + __ffs(k[3]) +
         __brev(k[4]) + __byte_perm(k[1], k[2], 0x3210) + __mulhi(k[1], k[2]) +
         __umulhi(k[1], k[2]) + __sad(k[1], k[2], 0) +
         __funnelshift_l(k[1], k[2], 3) + __hadd(k[1], k[2]) +
         __rhadd(k[1], k[2]) + __vabsdiffu4(k[1], k[2]) +
         (int)__double2float_rn((double)a) + __dp4a(k[1], k[2], 0);
}

__global__ void f64(const double *x, double *y, long long *k) {
  double a = x[threadIdx.x], b = x[threadIdx.x + 1], c = x[threadIdx.x + 2];
  int e;
  y[0] = sin(a) + cos(b) + tan(c) + exp(a) + exp2(b) + exp10(c) + expm1(a) +
         log(a) + log2(b) + log10(c) + log1p(a) + pow(a, b) + sqrt(a) +
         rsqrt(b) + cbrt(c) + hypot(a, b) + atan2(a, b) + asin(a) + acos(b) +
         atan(c) + sinh(a) + cosh(b) + tanh(c) + erf(a) + erfc(b) + erfinv(a) +
         lgamma(a) + tgamma(b) + fmod(a, b) + remainder(a, b) + frexp(a, &e) +
         ldexp(a, 3) + floor(a) + ceil(b) + trunc(c) + round(a) + rint(b) +
         fabs(a) + fmin(a, b) + fmax(a, b) + fma(a, b, c) + __dadd_rn(a, b) +
         __dmul_rz(a, b) + __ddiv_ru(a, b) + __drcp_rd(a) + __dsqrt_rn(a) +
         __fma_rz(a, b, c) + (double)__double2float_rz(a);
  k[0] = __double2ll_rn(a) + __double2int_rz(b) + __double2uint_ru(c) +
         __double_as_longlong(a) + __double2hiint(b) + __popcll(k[1]) +
         __clzll(k[2]) + __ffsll(k[3]) + __brevll(k[4]) +
         __mul64hi(k[1], k[2]) + __umul64hi(k[1], k[2]) + llrint(a) +
         lround(b) + isnan(c);
}

__global__ void halves(const __half *x, const __nv_bfloat16 *z, __half *y,
                       __nv_bfloat16 *w, float *o) {
  __half a = x[threadIdx.x], b = x[threadIdx.x + 1];
  __half2 p = __halves2half2(a, b), q = __halves2half2(b, a);
  y[0] = __hadd(a, b) * __hsub(a, b) + __hfma(a, b, a) + hsqrt(a) + hexp(b) +
         __hmax(a, b) + __hmin(a, b) + __habs(a) + __hneg(b) + hrcp(a) +
         __float2half_rz(o[0]) + __hdiv(a, b);
  __half2 r = __hfma2(p, q, p) + __hmul2(p, q) + __hmax2(p, q) + h2exp(p);
  y[1] = __low2half(r) + __high2half(r);
  __nv_bfloat16 c = z[0], d = z[1];
  w[0] = __hadd(c, d) * __hfma(c, d, c) + __hmax(c, d) + __float2bfloat16(o[1]);
  o[2] = __half2float(a) + __bfloat162float(c) + (float)__hgt(a, b) +
         __low2float(r) + (float)__hisnan(a);
}

__global__ void warp(int *x, float *f) {
  int v = x[threadIdx.x];
  unsigned m = __activemask();
  v += __shfl_sync(m, v, 3) + __shfl_up_sync(m, v, 1) +
       __shfl_down_sync(m, v, 2) + __shfl_xor_sync(m, v, 4) +
       __all_sync(m, v > 0) + __any_sync(m, v) + __ballot_sync(m, v & 1) +
       __reduce_add_sync(m, v) + __match_any_sync(m, v);
  f[0] = __shfl_xor_sync(m, f[1], 1);
  atomicAdd(&x[1], v);
  atomicMax(&x[2], v);
  atomicCAS(&x[3], v, 1);
  atomicAdd(&f[2], f[3]);
  __syncwarp();
  __syncthreads();
  x[0] = v + __syncthreads_count(v) + clock();
}

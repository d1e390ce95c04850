// Float test shared between kernels and host expectations.
#pragma once
#include <stdint.h>
#include <string.h>
#include <math.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#else
#define HD
#include <cfenv>
#endif

HD inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
HD inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

#ifndef __CUDA_ARCH__
struct HostMode {
  int old;
  HostMode(int m) : old(fegetround()) { fesetround(m); }
  ~HostMode() { fesetround(old); }
};
#define DIRECTED(MODE, T, EXPR) ([&]() { HostMode g_(MODE); volatile T x_ = a, y_ = b; T a = x_, b = y_; volatile T r_ = (EXPR); return (T)r_; }())
// sm_90's NaN of an f32 arithmetic result: the canonical 0x7fffffff.
inline uint32_t gbits(float f) { return isnan(f) ? 0x7fffffffu : fbits(f); }
inline uint16_t host_f2h(float f) { _Float16 h = (_Float16)f; uint16_t u; memcpy(&u, &h, 2); return u; }
inline float host_h2f(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return (float)h; }
inline uint16_t host_f2bf(float f) {
  uint32_t u = fbits(f);
  if ((u & 0x7fffffff) > 0x7f800000) return 0x7fc0 | ((u >> 16) & 0x8000);
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
#endif

#define NFLT 40
HD inline void floatOps(float a, float b, double da, double db, uint64_t *o) {
#ifdef __CUDA_ARCH__
  o[0] = fbits(__fadd_rz(a, b));
  o[1] = fbits(__fmul_ru(a, b));
  o[2] = fbits(__fdiv_rd(a, b));
  o[3] = fbits(__fsub_rn(a, b));
  o[4] = fbits(__fmaf_rz(a, b, 1.25f));
  o[5] = fbits(__fsqrt_rn(fabsf(a)));
  o[6] = fbits(__frcp_rn(b));
  o[7] = (uint32_t)__float2int_rn(a * 1000.0f);
  o[8] = (uint32_t)__float2int_rz(a * 1000.0f);
  o[9] = (uint32_t)__float2int_rd(a * 1000.0f);
  o[10] = (uint32_t)__float2int_ru(a * 1000.0f);
  o[11] = __float2uint_rz(a * 1e9f);
  o[12] = fbits(__int2float_rz((int)(b * 1e4f) | 0x1ff));
  o[13] = fbits(__double2float_rd(da / 3.0));
  o[14] = fbits(__double2float_ru(da / 3.0));
  o[15] = __half_as_ushort(__float2half_rn(a));
  o[16] = fbits(__half2float(__float2half_rn(b)));
  o[17] = __bfloat16_as_ushort(__float2bfloat16_rn(a));
  o[18] = fbits(fminf(a, b));
  o[19] = fbits(fmaxf(a, b));
  o[20] = fbits(copysignf(a, b));
  o[21] = fbits(__saturatef(a));
  o[22] = (a < b) | ((a <= b) << 1) | (!(a < b) << 2) | ((a != b) << 3) | (isnan(a) << 4) |
          (isinf(b) << 5) | ((a == b) << 6) | (!(a >= b) << 7);
  o[23] = dbits(da / db);
  o[24] = dbits(sqrt(fabs(da)));
  o[25] = dbits(fma(da, db, 0.5));
  o[26] = dbits(__dadd_rz(da, db));
  o[27] = dbits(__dmul_rd(da, db));
  o[28] = (uint64_t)(long long)(da * 1e6);
  o[29] = (uint64_t)__double2ll_rn(db * 1e3);
  o[30] = dbits((double)(long long)(db * 1e15));
  o[31] = fbits((float)(unsigned long long)(da * 1e12 > 0 ? da * 1e12 : -da * 1e12));
  o[32] = fbits(a / b);
  o[33] = fbits(a * b + da);
  o[34] = dbits(fmin(da, db));
  o[35] = (uint32_t)(int)(short)(a * 0.5f);
  o[36] = fbits(truncf(a * 10.0f) + floorf(b * 10.0f) + ceilf(a) + rintf(b * 3.0f));
  o[37] = (uint32_t)(unsigned char)(int)(b * 300.0f);
  o[38] = dbits((double)a * (double)b);
  o[39] = fbits((float)(da * db));
#else
  o[0] = fbits(DIRECTED(FE_TOWARDZERO, float, a + b));
  o[1] = fbits(DIRECTED(FE_UPWARD, float, a * b));
  o[2] = gbits(DIRECTED(FE_DOWNWARD, float, a / b));
  o[3] = fbits(a - b);
  { HostMode g(FE_TOWARDZERO); volatile float x = a, y = b; volatile float r = fmaf(x, y, 1.25f); o[4] = fbits(r); }
  o[5] = fbits(sqrtf(fabsf(a)));
  o[6] = fbits(1.0f / b);
  o[7] = (uint32_t)(int)nearbyintf(a * 1000.0f);
  o[8] = (uint32_t)(int)truncf(a * 1000.0f);
  o[9] = (uint32_t)(int)floorf(a * 1000.0f);
  o[10] = (uint32_t)(int)ceilf(a * 1000.0f);
  { float v = truncf(a * 1e9f); o[11] = v <= 0 ? 0u : v >= 4294967295.0f ? 4294967295u : (uint32_t)v; }
  { int v = (int)(b * 1e4f) | 0x1ff; HostMode g(FE_TOWARDZERO); volatile int x = v; volatile float r = (float)x; o[12] = fbits(r); }
  { double q = da / 3.0; HostMode g(FE_DOWNWARD); volatile double x = q; volatile float r = (float)x; o[13] = fbits(r); }
  { double q = da / 3.0; HostMode g(FE_UPWARD); volatile double x = q; volatile float r = (float)x; o[14] = fbits(r); }
  o[15] = host_f2h(a);
  o[16] = fbits(host_h2f(host_f2h(b)));
  o[17] = host_f2bf(a);
  o[18] = fbits(fminf(a, b));
  o[19] = fbits(fmaxf(a, b));
  o[20] = fbits(copysignf(a, b));
  o[21] = fbits(!(a > 0) ? 0.0f : a > 1 ? 1.0f : a); // -0 too gives +0
  o[22] = (a < b) | ((a <= b) << 1) | (!(a < b) << 2) | ((a != b) << 3) | (isnan(a) << 4) |
          (isinf(b) << 5) | ((a == b) << 6) | (!(a >= b) << 7);
  o[23] = dbits(da / db);
  o[24] = dbits(sqrt(fabs(da)));
  o[25] = dbits(fma(da, db, 0.5));
  { HostMode g(FE_TOWARDZERO); volatile double x = da, y = db; volatile double r = x + y; o[26] = dbits(r); }
  { HostMode g(FE_DOWNWARD); volatile double x = da, y = db; volatile double r = x * y; o[27] = dbits(r); }
  o[28] = (uint64_t)(long long)(da * 1e6);
  o[29] = (uint64_t)(long long)nearbyint(db * 1e3);
  o[30] = dbits((double)(long long)(db * 1e15));
  o[31] = fbits((float)(unsigned long long)(da * 1e12 > 0 ? da * 1e12 : -da * 1e12));
  o[32] = gbits(a / b);
  o[33] = fbits((float)((double)(a * b) + da));
  o[34] = dbits(fmin(da, db));
  o[35] = (uint32_t)(int)(short)(a * 0.5f);
  o[36] = fbits(truncf(a * 10.0f) + floorf(b * 10.0f) + ceilf(a) + rintf(b * 3.0f));
  o[37] = (uint32_t)(unsigned char)(int)(b * 300.0f);
  o[38] = dbits((double)a * (double)b);
  o[39] = fbits((float)(da * db));
#endif
}

// Shared between the CUDA test kernels (compiled to PTX by clang) and the
// host-side expectations in the unit tests.
#pragma once
#include <stdint.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

HD inline uint32_t t_popc(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}
HD inline uint32_t t_clz(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __clz(x);
#else
  return x ? __builtin_clz(x) : 32;
#endif
}
HD inline uint32_t t_clzll(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __clzll(x);
#else
  return x ? __builtin_clzll(x) : 64;
#endif
}
HD inline uint32_t t_brev(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __brev(x);
#else
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
  return r;
#endif
}
HD inline uint32_t t_ffs(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __ffs(x);
#else
  return __builtin_ffs(x);
#endif
}
HD inline uint32_t t_perm(uint32_t a, uint32_t b, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __byte_perm(a, b, s);
#else
  uint64_t v = ((uint64_t)b << 32) | a;
  uint32_t r = 0;
  for (int k = 0; k < 4; k++) r |= (uint32_t)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
#endif
}
HD inline uint32_t t_fshl(uint32_t lo, uint32_t hi, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __funnelshift_l(lo, hi, s);
#else
  uint64_t v = ((uint64_t)hi << 32) | lo;
  return (uint32_t)((v << (s & 31)) >> 32);
#endif
}
HD inline uint32_t t_fshr_clamp(uint32_t lo, uint32_t hi, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __funnelshift_rc(lo, hi, s);
#else
  uint64_t v = ((uint64_t)hi << 32) | lo;
  return (uint32_t)(v >> (s > 32 ? 32 : s));
#endif
}
HD inline int32_t t_mulhi(int32_t a, int32_t b) {
#ifdef __CUDA_ARCH__
  return __mulhi(a, b);
#else
  return (int32_t)(((int64_t)a * b) >> 32);
#endif
}
HD inline uint32_t t_umulhi(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}
HD inline uint64_t t_umul64hi(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}
HD inline int64_t t_mul64hi(int64_t a, int64_t b) {
#ifdef __CUDA_ARCH__
  return __mul64hi(a, b);
#else
  return (int64_t)(((__int128)a * b) >> 64);
#endif
}

// Integer test: for inputs a, b (b != 0) writes NINT outputs.
#define NINT 32
HD inline void intOps(int32_t a, int32_t b, uint64_t *o) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  int64_t la = (int64_t)a * 0x12345 + b, lb = (int64_t)b * -977 + 3;
  o[0] = ua + ub;
  o[1] = ua - ub;
  o[2] = ua * ub;
  o[3] = (uint64_t)((int64_t)a * b);        // mul.wide.s32
  o[4] = (uint64_t)((uint64_t)ua * ub);     // mul.wide.u32
  o[5] = (uint32_t)t_mulhi(a, b);
  o[6] = t_umulhi(ua, ub);
  o[7] = (uint32_t)(a / b);
  o[8] = (uint32_t)(a % b);
  o[9] = ua / ub;
  o[10] = ua % ub;
  o[11] = (uint32_t)(a < 0 ? -a : a);
  o[12] = (uint32_t)(a < b ? a : b);
  o[13] = (ua > ub ? ua : ub);
  o[14] = t_popc(ua);
  o[15] = t_clz(ua);
  o[16] = t_brev(ua);
  o[17] = t_ffs(ua);
  o[18] = t_perm(ua, ub, 0x5140 + (ub & 0x3));
  o[19] = t_fshl(ua, ub, ub & 63);
  o[20] = t_fshr_clamp(ua, ub, ub & 63);
  o[21] = (ua >> 5) & 0x3ff;                // bfe-like
  o[22] = (uint32_t)(a >> (ub & 31));        // arithmetic shift
  o[23] = (ua << (ub & 31)) ^ (ua >> 3);
  o[24] = (uint64_t)(la / lb);
  o[25] = (uint64_t)(la % lb);
  o[26] = (uint64_t)la * (uint64_t)lb;
  o[27] = t_umul64hi((uint64_t)la, (uint64_t)lb);
  o[28] = (uint64_t)t_mul64hi(la, lb);
  o[29] = t_clzll((uint64_t)la);
  unsigned __int128 w = (unsigned __int128)(uint64_t)la * (uint64_t)lb + ((unsigned __int128)ua << 64) + ub;
  o[30] = (uint64_t)(w >> 64) ^ (uint64_t)w;   // add.cc/addc, mad.wide, mul.hi
  o[31] = (uint64_t)((ua & ~ub) | (~ua & (ub ^ 0x55))) ;
}

// The suite's cases: every nvcuda::wmma combination of mma.h for sm_90
// (geometry, multiplicand type, D and C types) in all four A/B layouts.
#pragma once

using wmma::col_major;
using wmma::row_major;

#define WMMA_SPEC(M, N, K, TI, TM, TC, TD, LA, LB, IN, KC, KD, NAME)           \
  Spec {                                                                       \
    std::string(#M "x" #N "x" #K ".") + NAME + "." + #LA + "." + #LB, M, N, K, \
        IN, KC, KD, std::is_same<LA, row_major>::value,                        \
        std::is_same<LB, row_major>::value,                                    \
        wmmaKernel<M, N, K, TI, TM, TC, TD, LA, LB>                            \
  }
#define WMMA_LAYOUTS(M, N, K, TI, TM, TC, TD, IN, KC, KD, NAME)                \
  WMMA_SPEC(M, N, K, TI, TM, TC, TD, row_major, row_major, IN, KC, KD, NAME),  \
      WMMA_SPEC(M, N, K, TI, TM, TC, TD, row_major, col_major, IN, KC, KD,     \
                NAME),                                                         \
      WMMA_SPEC(M, N, K, TI, TM, TC, TD, col_major, row_major, IN, KC, KD,     \
                NAME),                                                         \
      WMMA_SPEC(M, N, K, TI, TM, TC, TD, col_major, col_major, IN, KC, KD,     \
                NAME)
// f16: D and C each f16 or f32.
#define WMMA_F16(M, N, K)                                                      \
  WMMA_LAYOUTS(M, N, K, __half, __half, float, float, KF16, KF32, KF32,        \
               "f16.f32.f32"),                                                 \
      WMMA_LAYOUTS(M, N, K, __half, __half, __half, float, KF16, KF16, KF32,   \
                   "f16.f32.f16"),                                             \
      WMMA_LAYOUTS(M, N, K, __half, __half, float, __half, KF16, KF32, KF16,   \
                   "f16.f16.f32"),                                             \
      WMMA_LAYOUTS(M, N, K, __half, __half, __half, __half, KF16, KF16, KF16,  \
                   "f16.f16.f16")
#define WMMA_OTHERS(M, N, K)                                                   \
  WMMA_LAYOUTS(M, N, K, __nv_bfloat16, __nv_bfloat16, float, float, KBF16,     \
               KF32, KF32, "bf16.f32.f32"),                                    \
      WMMA_LAYOUTS(M, N, K, signed char, signed char, int, int, KS8, KS32,     \
                   KS32, "s8.s32.s32"),                                        \
      WMMA_LAYOUTS(M, N, K, unsigned char, unsigned char, int, int, KU8, KS32, \
                   KS32, "u8.s32.s32")

static std::vector<Spec> specs() {
  std::vector<Spec> v = {WMMA_F16(16, 16, 16),
                         WMMA_F16(32, 8, 16),
                         WMMA_F16(8, 32, 16),
                         WMMA_OTHERS(16, 16, 16),
                         WMMA_OTHERS(32, 8, 16),
                         WMMA_OTHERS(8, 32, 16),
                         WMMA_LAYOUTS(16, 16, 8, wmma::precision::tf32, float,
                                      float, float, KTF32, KF32, KF32,
                                      "tf32.f32.f32"),
                         WMMA_LAYOUTS(8, 8, 4, double, double, double, double,
                                      KF64, KF64, KF64, "f64.f64.f64")};
  // A and B read from shared memory (.shared loads).
  Spec sh = v[1]; // 16x16x16 f16, A row, B col, f32 D and C
  sh.name = "16x16x16.f16.f32.f32.row_major.col_major.shared";
  sh.kernel = wmmaSharedKernel<row_major, col_major>;
  sh.shared = true;
  v.push_back(sh);
  Spec sh2 = v[2]; // A col, B row
  sh2.name = "16x16x16.f16.f32.f32.col_major.row_major.shared";
  sh2.kernel = wmmaSharedKernel<col_major, row_major>;
  sh2.shared = true;
  v.push_back(sh2);
  return v;
}

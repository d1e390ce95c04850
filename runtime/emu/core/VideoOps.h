//===- VideoOps.h - SIMD video instructions (vadd4, vabsdiff2, ...) -*- C++
//-*-===//
//
// vop2/vop4 (vadd vsub vabsdiff vmin vmax vavrg vset on 2 halfwords or 4
// bytes), the forms the CUDA headers' SIMD intrinsics (__vadd4, __vsadu4,
// __vcmpgeu2, ...) expand to. Each element is sign- or zero-extended by its
// operand type, the operation is exact, `.sat` clamps to the destination
// element's range, and the result is either the elements packed (all lanes
// selected, the default mask) or, with `.add`, c plus the sum of the
// elements. Selectors and masks on operands are not accepted (load error).
// Included by Interp.cpp only, like IntOps.h.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_VIDEOOPS_H
#define WARPSCOPE_EMU_CORE_VIDEOOPS_H

#include "Lanes.h"

namespace warpscope::emu::core {

static inline int64_t videoOne(uint8_t Kind, uint8_t Cm, int64_t X, int64_t Y) {
  switch (Kind) {
  case VidAdd:
    return X + Y;
  case VidSub:
    return X - Y;
  case VidAbsdiff:
    return X > Y ? X - Y : Y - X;
  case VidMin:
    return X < Y ? X : Y;
  case VidMax:
    return X > Y ? X : Y;
  case VidAvrg: // PTX ISA: (x + y + 1) >> 1, but (x + y) >> 1 below zero
    return X + Y >= 0 ? (X + Y + 1) >> 1 : (X + Y) >> 1;
  default: { // VidSet
    bool R = Cm == CmpEq   ? X == Y
             : Cm == CmpNe ? X != Y
             : Cm == CmpLt ? X < Y
             : Cm == CmpLe ? X <= Y
             : Cm == CmpGt ? X > Y
                           : X >= Y;
    return R;
  }
  }
}

EMU_COLD static void opVideo(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const int N = I.Vec, W = 32 / N;
  const uint8_t Kind = I.Sub & 7, Cm = I.Sub >> 3;
  const bool SA = tySigned(I.T), SB = tySigned(I.T2);
  const bool SD = I.Bool != 0, Sat = I.Flags & FSat, Add = I.Flags & FWide;
  const uint32_t EMask = W == 32 ? ~0u : (1u << W) - 1;
  const int64_t Lo = SD ? -(int64_t(1) << (W - 1)) : 0;
  const int64_t Hi = SD ? (int64_t(1) << (W - 1)) - 1 : (int64_t(1) << W) - 1;
  LANES({
    uint32_t Out = 0;
    int64_t Sum = 0;
    for (int K = 0; K < N; ++K) {
      uint32_t Ea = (uint32_t)(A[l] >> (W * K)) & EMask;
      uint32_t Eb = (uint32_t)(B[l] >> (W * K)) & EMask;
      int64_t X =
          SA && (Ea >> (W - 1)) ? (int64_t)Ea - (int64_t(1) << W) : (int64_t)Ea;
      int64_t Y =
          SB && (Eb >> (W - 1)) ? (int64_t)Eb - (int64_t(1) << W) : (int64_t)Eb;
      int64_t V = videoOne(Kind, Cm, X, Y);
      if (Sat)
        V = V < Lo ? Lo : V > Hi ? Hi : V;
      Sum += V;
      Out |= ((uint32_t)V & EMask) << (W * K);
    }
    D[l] = Add ? (uint32_t)((int64_t)(uint32_t)C[l] + Sum) : Out;
  });
}

} // namespace warpscope::emu::core

#endif

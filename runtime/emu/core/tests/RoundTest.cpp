//===- RoundTest.cpp - half-precision conversion, every input -------------===//
#include "../Round.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace warpscope::emu::core;

namespace {
uint32_t bits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
} // namespace

// fromF16 against the compiler's own half type, for all 65536 halves:
// zeros, subnormals, normals and infinities exactly; NaNs as the canonical
// quiet NaN with the half's sign.
TEST(Round, FromF16ExactForEveryHalf) {
  for (uint32_t B = 0; B < 65536; ++B) {
    _Float16 H;
    uint16_t U = (uint16_t)B;
    std::memcpy(&H, &U, 2);
    float Want = (float)H, Got = fromF16(U);
    if (std::isnan(Want)) {
      ASSERT_EQ(bits(Got), (B & 0x8000 ? 0xffc00000u : 0x7fc00000u)) << B;
      continue;
    }
    ASSERT_EQ(bits(Got), bits(Want)) << "half 0x" << std::hex << B;
  }
}

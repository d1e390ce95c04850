// Host reference of the atomics conformance suite (issue 16): the value an
// atom/red stores, from the PTX ISA's definition of each operation, written
// without the emulator's code (runtime/emu/core). atom returns the old value
// unchanged, so only the stored value needs a reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

using u64 = uint64_t;

enum class Op { Add, And, Or, Xor, Min, Max, Inc, Dec, Exch, Cas };
enum class Ty { U32, S32, B32, F32, U64, S64, B64, F64 };
// Where a form's address points: .global, .shared, or generic (the harness
// runs generic forms on both spaces).
enum class Space { Global, Shared, Generic };

namespace ref {

inline bool wide(Ty T) {
  return T == Ty::U64 || T == Ty::S64 || T == Ty::B64 || T == Ty::F64;
}
inline u64 mask(Ty T) { return wide(T) ? ~0ull : 0xffffffffull; }

inline float f32(u64 B) {
  uint32_t W = (uint32_t)B;
  float F;
  std::memcpy(&F, &W, 4);
  return F;
}
inline double f64(u64 B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}
inline u64 bits(float F) {
  uint32_t W;
  std::memcpy(&W, &F, 4);
  return W;
}
inline u64 bits(double D) {
  u64 W;
  std::memcpy(&W, &D, 8);
  return W;
}

// Sign-preserving flush of an f32 subnormal, on the bits: exponent field
// zero and a nonzero fraction.
inline uint32_t flush32(uint32_t B) {
  return (B & 0x7f800000u) == 0 ? B & 0x80000000u : B;
}

// PTX ISA (9.x), "Parallel Synchronization and Communication Instructions:
// atom" (and likewise "red"): "The .add operation rounds to nearest even."
// "The atom.add.f32 operation without .noftz, flushes subnormal inputs and
// results to sign-preserving zero on global memory but supports subnormal
// inputs and results and doesn't flush them to zero on shared memory."
// f64 add is "noftz by default". Host float arithmetic rounds to nearest
// even (the default environment).
inline u64 addF32(u64 Old, u64 B, bool Ftz) {
  uint32_t X = (uint32_t)Old, Y = (uint32_t)B;
  if (Ftz) {
    X = flush32(X);
    Y = flush32(Y);
  }
  uint32_t R = (uint32_t)bits(f32(X) + f32(Y));
  return Ftz ? flush32(R) : R;
}

// The value stored by op on Old with operands B and C (type T), per the
// ISA's semantics block:
//   inc(r, s) = (r >= s) ? 0 : r+1;  dec(r, s) = (r==0 || r > s) ? s : r-1;
//   exch(r, s) = s;  cas(r, s, t) = (r == s) ? t : r;
// min/max compare as signed for .s32/.s64, unsigned otherwise.
inline u64 stored(Op O, Ty T, bool Ftz, u64 Old, u64 B, u64 C) {
  const u64 M = mask(T);
  Old &= M;
  B &= M;
  C &= M;
  bool Signed = T == Ty::S32 || T == Ty::S64;
  // Signed order on the masked bits: flip the sign bit, compare unsigned.
  u64 Sign = wide(T) ? 1ull << 63 : 1ull << 31;
  u64 KO = Signed ? Old ^ Sign : Old, KB = Signed ? B ^ Sign : B;
  switch (O) {
  case Op::Add:
    if (T == Ty::F32)
      return addF32(Old, B, Ftz);
    if (T == Ty::F64)
      return bits(f64(Old) + f64(B));
    return (Old + B) & M;
  case Op::And:
    return Old & B;
  case Op::Or:
    return Old | B;
  case Op::Xor:
    return Old ^ B;
  case Op::Min:
    return KO <= KB ? Old : B;
  case Op::Max:
    return KO >= KB ? Old : B;
  case Op::Inc:
    return Old >= B ? 0 : (Old + 1) & M;
  case Op::Dec:
    return (Old == 0 || Old > B) ? B : Old - 1;
  case Op::Exch:
    return B;
  case Op::Cas:
    return Old == B ? C : Old;
  }
  return Old;
}

inline bool isNan(Ty T, u64 B) {
  return T == Ty::F32   ? std::isnan(f32(B))
         : T == Ty::F64 ? std::isnan(f64(B))
                        : false;
}

} // namespace ref

//===- Fnv.h - 64-bit FNV-1a, stable across hosts and releases --*- C++ -*-===//
//
// Ids and cache keys that land in files (module ids in profiles, the ptxas
// cache's file names) need a hash that never changes with the compiler or
// the standard library, which std::hash does not promise. Header-only and
// free of LLVM, so the plugin and the runtime share it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_FNV_H
#define WARPSCOPE_SUPPORT_FNV_H

#include <cstdint>
#include <string_view>

namespace warpscope {

constexpr uint64_t fnv1a64(std::string_view Data,
                           uint64_t Seed = 0xcbf29ce484222325ULL) {
  uint64_t H = Seed;
  for (unsigned char C : Data) {
    H ^= C;
    H *= 0x100000001b3ULL;
  }
  return H;
}

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_FNV_H

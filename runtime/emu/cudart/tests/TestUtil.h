//===- TestUtil.h - helpers shared by the cudart unit tests ---------------===//
#ifndef WARPSCOPE_EMU_CUDART_TESTS_TESTUTIL_H
#define WARPSCOPE_EMU_CUDART_TESTS_TESTUTIL_H

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace emutest {

inline std::vector<uint8_t> readFile(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(F)),
                              std::istreambuf_iterator<char>());
}

inline std::string dataPath(const std::string &Name) {
  return std::string(EMU_CUDART_TEST_DATA) + "/" + Name;
}

struct TestEntry {
  uint16_t Kind = 1; // PTX
  uint32_t Arch = 90;
  std::string Payload;
  uint64_t Flags = 0x11;
  uint64_t UncompressedSize = 0;
  uint32_t CompressedSize = 0;
};

template <typename T> void put(std::vector<uint8_t> &B, size_t Off, T V) {
  std::memcpy(B.data() + Off, &V, sizeof(T));
}

/// A fatbin container laid out like fatbinary's: 16-byte header, then per
/// entry a 64-byte header and the payload padded to 8 bytes.
inline std::vector<uint8_t> buildFatbin(const std::vector<TestEntry> &Es) {
  std::vector<uint8_t> B(16, 0);
  for (const TestEntry &E : Es) {
    size_t Off = B.size();
    size_t Padded = (E.Payload.size() + 7) / 8 * 8;
    B.resize(Off + 64 + Padded, 0);
    put<uint16_t>(B, Off, E.Kind);
    put<uint16_t>(B, Off + 2, 0x0101);
    put<uint32_t>(B, Off + 4, 64);
    put<uint64_t>(B, Off + 8, Padded);
    put<uint32_t>(B, Off + 0x10, E.CompressedSize);
    put<uint16_t>(B, Off + 0x18, 8);
    put<uint16_t>(B, Off + 0x1a, 8);
    put<uint32_t>(B, Off + 0x1c, E.Arch);
    put<uint64_t>(B, Off + 0x28, E.Flags);
    put<uint64_t>(B, Off + 0x38, E.UncompressedSize);
    std::memcpy(B.data() + Off + 64, E.Payload.data(), E.Payload.size());
  }
  put<uint32_t>(B, 0, 0xBA55ED50);
  put<uint16_t>(B, 4, 1);
  put<uint16_t>(B, 6, 16);
  put<uint64_t>(B, 8, B.size() - 16);
  return B;
}

/// What clang's host code passes to __cudaRegisterFatBinary.
struct FatbinWrapper {
  int Magic = 0x466243B1;
  int Version = 1;
  const void *Data = nullptr;
  void *Unused = nullptr;
};

} // namespace emutest

#endif

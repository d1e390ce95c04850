//===- FatbinFuzz.cpp - libFuzzer target for the fatbin decoder -----------===//
//
// Input: a fatbin container (seeds: tests/fuzz-corpus and tests/data).
// Exercises container parsing, PTX selection, zstd/LZ4 decompression and
// the raw LZ4 block decoder. Everything must fail cleanly, never crash.
//
//===----------------------------------------------------------------------===//
#include "warpscope/Fatbin/Fatbin.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace warpscope::emu::fatbin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Copy so ASan sees the exact extent (the decoder gets no slack).
  std::vector<uint8_t> Buf(Data, Data + Size);
  PtxResult R = extractPtx(Buf.data(), Buf.size(), 90);
  (void)R;
  Container C;
  std::string Err;
  if (parseContainer(Buf.data(), Buf.size(), C, Err)) {
    for (const Entry &E : C.Entries) {
      std::string Out;
      (void)entryPayload(C, E, Out, Err);
    }
  }
  if (Size >= 16)
    (void)containerSize(Buf.data());
  std::vector<uint8_t> Dst(Size * 4 + 16);
  (void)lz4DecompressBlock(Buf.data(), Buf.size(), Dst.data(), Dst.size(), Err);
  return 0;
}

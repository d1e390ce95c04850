//===- PtxParserFuzz.cpp - libFuzzer target for the PTX front end ---------===//
//
// Any text must load or give a one-line error naming a PTX line: never a
// crash, a hang or a multi-line message. Kernels are not launched (random
// programs may loop forever); decoding, CFG and reconvergence analysis run.
//
//===----------------------------------------------------------------------===//

#include "warpscope/Emu/Emulator.h"
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  auto M = warpscope::emu::loadPtx(Text, "fuzz", Error);
  if (!M && (Error.empty() || Error.find('\n') != std::string::npos))
    __builtin_trap();
  return 0;
}

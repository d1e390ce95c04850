//===- ConfigsData.h - The built-in configurations' text --------*- C++ -*-===//
//
// Defined in ConfigsData.cpp, which CMake generates from configs/*.json
// (EmbedConfigs.cmake), so the emulator needs no data files at run time.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_CONFIGSDATA_H
#define WARPSCOPE_EMU_TIMING_CONFIGSDATA_H

namespace warpscope::emu::timing {

struct BuiltinConfig {
  const char *Name, *Text;
};
extern const BuiltinConfig BuiltinConfigs[];
extern const unsigned NumBuiltinConfigs;

} // namespace warpscope::emu::timing

#endif

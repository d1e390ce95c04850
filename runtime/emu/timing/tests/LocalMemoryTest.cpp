//===- LocalMemoryTest.cpp - Local memory is cached in L1 write-back ------===//
//
// A thread's spills (docs/timing-model.md, "Register spills") and stack
// arrays: a local store allocates its line in L1, so a reload of it hits
// there, where a global store writes through and its reload goes to L2.
//
//===----------------------------------------------------------------------===//
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope::emu::timing;

namespace {

enum : uint32_t { Store, Load, Use, NumInsts };

// 16 times: store a line, load it back, use the value (r6).
uint64_t storeThenReload(Space Sp) {
  std::vector<StaticInst> T(NumInsts);
  T[Store].K = Kind::Store, T[Store].Sp = Sp;
  T[Load].K = Kind::Load, T[Load].Sp = Sp;
  T[Load].NDst = 1, T[Load].Dst[0] = 6;
  T[Use].NSrc = 1, T[Use].Src[0] = 6;
  WarpTrace W;
  for (uint64_t K = 0; K < 16; ++K)
    for (uint32_t Id : {Store, Load, Use}) {
      MemAccess M;
      M.Counted = M.Global = true;
      M.Sectors = 4;
      M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
      W.Lines.push_back(1000 + K);
      W.Ops.push_back({Id, Id == Use ? NoMem : (uint32_t)W.Mems.size()});
      if (Id != Use)
        W.Mems.push_back(M);
    }
  Config C; // H100-like defaults
  C.Name = "test";
  C.Sms = 1;
  LaunchShape S;
  LaunchModel Model(C, T, 16, S, 0, 1);
  CtaTrace Cta;
  Cta.Warps.push_back(std::move(W));
  Model.submit(std::move(Cta));
  const ModeledTime Time = Model.finish();
  return Time.Cycles - Time.LaunchCycles;
}

TEST(TimingMechanism, LocalStoresStayInL1ForTheirReloads) {
  Config C;
  const uint64_t Local = storeThenReload(Space::Local);
  const uint64_t Global = storeThenReload(Space::Global);
  EXPECT_GE(Global, 16 * C.L2Latency);
  EXPECT_LE(Local, 16 * (C.L1Latency + 40));
}

} // namespace

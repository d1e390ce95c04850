//===- GroundTruth.cpp - a module's exact counts as JSON ------------------===//
//
// groundTruthJson(): schema "warpscope-emu/1" (docs/emulator.md), the
// per-instruction counters accumulated over all launches (with the
// memory-efficiency counts of ld/st/atom/red, MemCount.cpp) and the launch
// list.
// The document is built as nlohmann::ordered_json, so strings are escaped by
// the JSON library, counters stay 64-bit integers and keys keep the
// documented order (schema first; tests and tools find fields by their
// "key": prefix). Only the line layout is added here (writeLines).
//
//===----------------------------------------------------------------------===//
#include "Exec.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Emu/MemoryCounts.h"

#include <nlohmann/json.hpp>

namespace warpscope::emu::core {

using Json = nlohmann::ordered_json;

static std::string dumpCompact(const Json &V) {
  // Names come from the PTX text: bytes that are not UTF-8 become U+FFFD
  // rather than an exception (or a document JSON parsers reject).
  return V.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Appends the object V as dump() writes it, except that each element of the
// arrays "functions", "instructions" (indented by one space) and "launches"
// starts a line: one function header, instruction or launch per line, the
// layout documented for the schema and relied on by tests and line tools.
static void writeLines(std::string &O, const Json &V) {
  O += '{';
  for (auto It = V.begin(); It != V.end(); ++It) {
    if (It != V.begin())
      O += ',';
    const std::string &Key = It.key();
    O += dumpCompact(Key) + ':';
    bool Lines = Key == "functions" || Key == "instructions" ||
                 Key == "launches" || Key == "hazards";
    if (!Lines) {
      O += dumpCompact(*It);
      continue;
    }
    O += '[';
    for (size_t E = 0; E < It->size(); ++E) {
      if (E)
        O += ',';
      O += Key == "instructions" ? "\n " : "\n";
      if (Key == "functions")
        writeLines(O, (*It)[E]);
      else
        O += dumpCompact((*It)[E]);
    }
    O += ']';
  }
  O += '}';
}

// The memory-efficiency counts of ld/st/atom/red outside .param and .const:
// those of the instruction's space, and for generic addresses those of every
// space it resolved to (global when it never ran).
static void memoryJson(Json &J, const Inst &I, const MemCounts &C,
                       const StrideCounts &S) {
  bool Mem = I.Op == OpLd || I.Op == OpSt || I.Op == OpAtom || I.Op == OpRed;
  if (!Mem || I.Space == SpParam || I.Space == SpConst)
    return;
  bool Generic = I.Space == SpGeneric;
  bool Any = C.GlobalRequests || C.LocalRequests || C.SharedRequests;
  auto Written = [&](MemoryCountGroup G) {
    switch (G) {
    case MemoryCountGroup::Global:
      return I.Space == SpGlobal || (Generic && (C.GlobalRequests || !Any));
    case MemoryCountGroup::Local:
      return I.Space == SpLocal || (Generic && C.LocalRequests != 0);
    case MemoryCountGroup::Shared:
      return I.Space == SpShared || (Generic && C.SharedRequests != 0);
    case MemoryCountGroup::Atomic:
      return I.Op == OpAtom || I.Op == OpRed;
    }
    return false;
  };
  for (const MemoryCountField &F : MemoryCountFields)
    if (Written(F.Group))
      J[F.Key] = C.*F.Member;
  // Local lanes have no stride between them (a window each).
  if (I.Space == SpLocal)
    return;
  Json Strides = Json::array();
  for (unsigned K = 0; K < S.Used; ++K)
    Strides.push_back(Json::array({S.Stride[K], S.Pairs[K]}));
  J[LanePairsKey] = S.LanePairs;
  J[StridesKey] = std::move(Strides);
}

static Json instructionJson(const ParsedModule &PM, const Function &F, size_t K,
                            bool Memory) {
  const Inst &I = F.Code[K];
  Json J = {{"index", K}, {"ptx_line", I.PtxLine}, {"opcode", F.Opcodes[K]}};
  if (I.File) {
    auto It = PM.Files.find(I.File);
    J["file"] = It != PM.Files.end() ? It->second : std::string();
    J["line"] = I.Line;
    J["column"] = I.Col;
  }
  if (I.Marker >= 0)
    J["marker"] = PM.Markers[I.Marker];
  J["warp_executions"] = F.WarpExec[K];
  J["thread_executions"] = F.ThreadExec[K];
  J["active_threads"] = F.ActiveExec[K];
  if (F.Instrumentation[K])
    J["instrumentation"] = true;
  if ((I.Op == OpBra && I.Guard >= 0) || I.Op == OpBrx) {
    J["visits"] = F.Visits[K];
    J["divergent"] = F.Divergent[K];
  }
  if (Memory)
    memoryJson(J, I, F.Mem[K], F.Strides[K]);
  return J;
}

// One side of a hazard: the instruction with its source location.
static Json accessJson(const ParsedModule &PM, const Inst *I, uint32_t Warp) {
  Json J = {{"ptx_line", I->PtxLine}};
  for (auto &F : PM.Functions)
    if (!F->Code.empty() && I >= F->Code.data() &&
        I < F->Code.data() + F->Code.size()) {
      J["function"] = F->Name;
      J["opcode"] = F->Opcodes[I - F->Code.data()];
    }
  if (I->File) {
    auto It = PM.Files.find(I->File);
    J["file"] = It != PM.Files.end() ? It->second : std::string();
    J["line"] = I->Line;
    J["column"] = I->Col;
  }
  J["warp"] = Warp;
  return J;
}

static Json hazardsJson(const ParsedModule &PM,
                        const std::vector<HazardRecord> &Hazards) {
  Json A = Json::array();
  for (const HazardRecord &H : Hazards)
    A.push_back(Json{{"kernel", H.Kernel->Name},
                     {"kind", hazardName(H.Kind)},
                     {"offset", H.Offset},
                     {"block", {H.Block[0], H.Block[1], H.Block[2]}},
                     {"count", H.Count},
                     {"first", accessJson(PM, H.First, H.FirstWarp)},
                     {"second", accessJson(PM, H.Second, H.SecondWarp)}});
  return A;
}

std::string ModuleImpl::groundTruthJson() const {
  std::lock_guard<std::mutex> Lock(Mu);
  Json Functions = Json::array();
  for (auto &F : PM->Functions) {
    if (!F->HasBody)
      continue;
    Json Insts = Json::array();
    for (size_t K = 0; K < F->Code.size(); ++K)
      Insts.push_back(instructionJson(*PM, *F, K, !MemoryIncomplete));
    Functions.push_back(Json{{"name", F->Name},
                             {"kernel", F->IsKernel},
                             {"instructions", std::move(Insts)}});
  }
  Json LaunchList = Json::array();
  for (const LaunchRecord &L : Launches) {
    Json J{{"kernel", L.Kernel},
           {"grid", {L.Grid.X, L.Grid.Y, L.Grid.Z}},
           {"block", {L.Block.X, L.Block.Y, L.Block.Z}},
           {"shared_bytes", L.Shared}};
    const SharedTouched T =
        splitSharedTouched(L.SharedTouched, L.StaticShared, L.DynamicOffset);
    J[SharedTouchedKey] = Json{{"static", T.Static}, {"dynamic", T.Dynamic}};
    if (L.Modeled) { // docs/timing-model.md
      J["modeled"] = Json{{"config", L.Time.Config},
                          {"fingerprint", L.Time.Fingerprint},
                          {"cycles", L.Time.Cycles},
                          {"microseconds", L.Time.Microseconds},
                          {"clock_mhz", L.Time.ClockMhz},
                          {"clock", L.Time.Clock},
                          {"launch_cycles", L.Time.LaunchCycles},
                          {"sms_simulated", L.Time.SmsSimulated},
                          {"scaled", L.Time.Scaled},
                          {"instructions", L.Time.Instructions}};
      if (!L.Probes.empty())
        J["modeled"]["probes"] = L.Probes;
      if (L.Spills.Cap) // docs/timing-model.md, "Register spills"
        J["modeled"]["spills"] =
            Json{{"register_cap", L.Spills.Cap},
                 {"registers_needed", L.Spills.Need},
                 {"store_bytes", L.Spills.Stores},
                 {"load_bytes", L.Spills.Loads},
                 {"ptxas_store_bytes", L.Spills.PtxasStores},
                 {"ptxas_load_bytes", L.Spills.PtxasLoads}};
    }
    if (L.Interrupted) // counts of the part that ran (docs/emulator.md)
      J["interrupted"] = Json{{"blocks_finished", L.BlocksFinished},
                              {"blocks_stopped", L.BlocksStopped}};
    LaunchList.push_back(std::move(J));
  }
  Json Doc = {{"schema", schema::Truth},
              {"module", PM->Name},
              {"functions", std::move(Functions)},
              {"launches", std::move(LaunchList)}};
  if (RaceChecked)
    Doc["hazards"] = hazardsJson(*PM, Hazards);
  std::string O;
  writeLines(O, Doc);
  return O + "\n";
}

} // namespace warpscope::emu::core

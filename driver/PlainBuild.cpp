//===- PlainBuild.cpp - The instrumented build against the plain program --===//

#include "PlainBuild.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <set>

using namespace llvm;
using namespace warpscope;

namespace {

/// F with the plain build's histograms in place of its own.
FunctionProfile withPlainPtx(const FunctionProfile &F) {
  FunctionProfile P = F;
  for (BlockCounts &B : P.Blocks)
    B.Ptx = B.PlainPtx;
  P.PtxUnattributed = F.PlainPtxUnattributed;
  P.PtxEdges = F.PlainPtxEdges;
  P.PtxSwitchParts = F.PlainPtxSwitchParts;
  return P;
}

} // namespace

std::optional<FunctionProfile>
warpscope::plainProfile(const FunctionProfile &F) {
  if (F.PlainPtxStatus == "same")
    return F;
  if (F.PlainPtxStatus == "mapped")
    return withPlainPtx(F);
  return std::nullopt;
}

PlainComparison warpscope::comparePlain(const FunctionProfile &F,
                                        const InstructionMix &Own) {
  PlainComparison C;
  C.Own = Own.Total.Thread;
  if (!Own.Available) {
    C.Why = "no PTX histograms (" + Own.Why + ")";
    return C;
  }
  if (F.PlainPtxStatus == "same") {
    C.Status = PlainComparison::Same;
    C.Plain = Own;
    return C;
  }
  if (F.PlainPtxStatus.empty()) {
    C.Why = F.NoPlainPtx;
    return C;
  }
  if (F.PlainPtxStatus != "mapped") {
    C.Status = PlainComparison::NotMapped;
    C.Why = F.PlainPtxStatus;
    return C;
  }
  C.Status = PlainComparison::Mapped;
  C.Plain = instructionMix(withPlainPtx(F));
  std::set<std::string> Opcodes;
  for (const auto &[Op, N] : Own.ByOpcode)
    Opcodes.insert(Op);
  for (const auto &[Op, N] : C.Plain.ByOpcode)
    Opcodes.insert(Op);
  uint64_t Apart = 0;
  for (const std::string &Op : Opcodes) {
    auto Count = [&](const InstructionMix &M) {
      auto It = M.ByOpcode.find(Op);
      return It == M.ByOpcode.end() ? uint64_t(0) : It->second.Thread;
    };
    uint64_t I = Count(Own), P = Count(C.Plain);
    if (I == P)
      continue;
    Apart += I > P ? I - P : P - I;
    C.Differences.push_back({Op, I, P});
  }
  auto Size = [](const PlainComparison::Difference &D) {
    return D.Instrumented > D.Plain ? D.Instrumented - D.Plain
                                    : D.Plain - D.Instrumented;
  };
  std::stable_sort(
      C.Differences.begin(), C.Differences.end(),
      [&](const auto &A, const auto &B) { return Size(A) > Size(B); });
  uint64_t Plain = C.Plain.Total.Thread;
  C.Ratio = Plain ? double(Own.Total.Thread) / Plain : 1.0;
  C.Distance = Plain ? double(Apart) / Plain : 0.0;
  return C;
}

void warpscope::renderPlainText(const PlainComparison &C, bool Histogram,
                                raw_ostream &OS) {
  switch (C.Status) {
  case PlainComparison::Unavailable:
    OS << "  plain build: not compared (" << C.Why << ")\n";
    return;
  case PlainComparison::NotMapped:
    OS << "  plain build: its PTX differs and its blocks do not map one to "
          "one ("
       << C.Why << "); no plain histogram\n";
    return;
  case PlainComparison::Same:
    OS << "  plain build: the same PTX as the instrumented build's own "
          "instructions (ratio 1, distance 0)\n";
    break;
  case PlainComparison::Mapped:
    OS << formatv("  plain build: {0} thread instructions ({1}); the "
                  "instrumented build's own {2}, ratio {3:F4}, distance "
                  "{4:F4}",
                  C.Plain.Total.Thread, PlainLabel, C.Own, C.Ratio, C.Distance);
    break;
  }
  if (C.Status == PlainComparison::Mapped && C.Differences.empty()) {
    // The PTX differs (e.g. in register names or block order) but every
    // opcode ran as often.
    OS << "; every opcode ran as often in both\n";
  } else if (C.Status == PlainComparison::Mapped) {
    OS << "; most apart (plain -> instrumented):";
    for (size_t K = 0; K < C.Differences.size() && K < 3; ++K)
      OS << (K ? ", " : " ") << C.Differences[K].Opcode << " "
         << C.Differences[K].Plain << " -> " << C.Differences[K].Instrumented;
    OS << "\n";
  }
  if (!Histogram)
    return;
  OS << "  plain build's PTX instructions (" << PlainLabel
     << "): opcode, warp, thread\n";
  for (const auto &[Op, N] : C.Plain.ByOpcode)
    OS << formatv("    {0,-28} {1,12} {2,14}\n", Op, N.Warp, N.Thread);
}

json::Object warpscope::plainJson(const PlainComparison &C) {
  static const char *Names[] = {"unavailable", "same", "mapped", "not_mapped"};
  json::Object O{{"status", Names[C.Status]}, {"label", PlainLabel}};
  if (!C.hasHistogram()) {
    O["note"] = C.Why;
    return O;
  }
  json::Object Opcodes;
  for (const auto &[K, V] : C.Plain.ByOpcode)
    Opcodes[K] = json::Object{{"warp", V.Warp}, {"thread", V.Thread}};
  json::Array Diffs;
  for (const PlainComparison::Difference &D : C.Differences)
    Diffs.push_back(json::Object{{"opcode", D.Opcode},
                                 {"plain", D.Plain},
                                 {"instrumented", D.Instrumented}});
  O["warp_instructions"] = C.Plain.Total.Warp;
  O["thread_instructions"] = C.Plain.Total.Thread;
  O["instructions_exact"] = C.Plain.unknownStatic() == 0;
  O["ratio"] = C.Ratio;
  O["distance"] = C.Distance;
  O["differences"] = std::move(Diffs);
  O["instructions_by_opcode"] = std::move(Opcodes);
  return O;
}

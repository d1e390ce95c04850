//===- MixReport.cpp - Instruction mix, FLOPs and bytes in reports --------===//

#include "MixReport.h"
#include "Html.h"
#include "Report.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

std::optional<double> warpscope::arithmeticIntensity(const InstructionMix &M) {
  auto It = M.BytesBySpace.find("global");
  if (It == M.BytesBySpace.end() || It->second == 0)
    return std::nullopt;
  return double(M.flops()) / double(It->second);
}

void warpscope::renderMixText(const InstructionMix &M, raw_ostream &OS) {
  if (!M.Available) {
    OS << "  PTX instructions: not available (" << M.Why << ")\n";
    return;
  }
  OS << formatv("  PTX instructions: {0} warp, {1} thread", M.Total.Warp,
                M.Total.Thread);
  if (M.unknownStatic())
    OS << formatv(" (lower bounds: {0} static instructions not tied to "
                  "counts)",
                  M.unknownStatic());
  OS << "\n  mix (thread-level):";
  for (const auto &[Class, N] : M.ByClass)
    OS << " " << Class << " "
       << formatPercent(M.Total.Thread ? std::optional<double>(
                                             double(N.Thread) / M.Total.Thread)
                                       : std::nullopt);
  OS << formatv("\n  FLOPs: {0} single, {1} double, {2} half", M.FlopsSingle,
                M.FlopsDouble, M.FlopsHalf);
  OS << "; bytes:";
  for (const auto &[Space, N] : M.BytesBySpace)
    OS << " " << Space << " " << N;
  if (std::optional<double> AI = arithmeticIntensity(M))
    OS << formatv("; arithmetic intensity {0:F3} FLOP/B (FLOPs per "
                  "global-memory byte)",
                  *AI);
  OS << "\n";
}

void warpscope::addMixJson(const InstructionMix &M, json::Object &Out) {
  if (!M.Available) {
    Out["warp_instructions"] = nullptr;
    Out["thread_instructions"] = nullptr;
    Out["instructions_note"] = M.Why;
    return;
  }
  json::Object Classes, Opcodes, Bytes;
  for (const auto &[K, V] : M.ByClass)
    Classes[K] = json::Object{{"warp", V.Warp}, {"thread", V.Thread}};
  for (const auto &[K, V] : M.ByOpcode)
    Opcodes[K] = json::Object{{"warp", V.Warp}, {"thread", V.Thread}};
  for (const auto &[K, V] : M.BytesBySpace)
    Bytes[K] = V;
  std::optional<double> AI = arithmeticIntensity(M);
  Out["warp_instructions"] = M.Total.Warp;
  Out["thread_instructions"] = M.Total.Thread;
  Out["instructions_exact"] = M.unknownStatic() == 0;
  Out["instructions_unknown_static"] = M.unknownStatic();
  Out["instruction_mix"] = std::move(Classes);
  Out["instructions_by_opcode"] = std::move(Opcodes);
  Out["flops"] = json::Object{{"half", M.FlopsHalf},
                              {"single", M.FlopsSingle},
                              {"double", M.FlopsDouble}};
  Out["bytes"] = std::move(Bytes);
  Out["arithmetic_intensity"] = AI ? json::Value(*AI) : json::Value(nullptr);
}

void warpscope::renderMixHtml(const InstructionMix &M, raw_ostream &OS) {
  std::string Text;
  raw_string_ostream S(Text);
  renderMixText(M, S);
  OS << "<pre class=\"mix\">" << escapeHtml(Text) << "</pre>\n";
}

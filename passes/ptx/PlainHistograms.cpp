//===- PlainHistograms.cpp - The plain build's PTX on the instrumented blocks //

#include "warpscope/PTX/PlainHistograms.h"

using namespace warpscope::ptx;

namespace {

std::string list(const std::vector<unsigned> &Blocks) {
  std::string S = "{";
  for (unsigned B : Blocks)
    S += (S.size() > 1 ? ", " : "") + std::to_string(B);
  return S + "}";
}

/// The PTX line a block starts at, for messages (0: none known).
unsigned firstLine(const Block &B) {
  return B.Items.empty() ? 0 : B.Items.front().Line;
}

/// Why the two functions' blocks do not map one to one, or "".
std::string shapeDifference(const Function &I, const Function &P) {
  if (I.Blocks.size() != P.Blocks.size())
    return "the plain build's PTX has " + std::to_string(P.Blocks.size()) +
           " blocks, the instrumented build's " +
           std::to_string(I.Blocks.size());
  for (size_t K = 0; K < I.Blocks.size(); ++K)
    if (I.Blocks[K].Successors != P.Blocks[K].Successors)
      return "PTX block " + std::to_string(K) + " (plain line " +
             std::to_string(firstLine(P.Blocks[K])) + ") goes to blocks " +
             list(P.Blocks[K].Successors) + " in the plain build, " +
             list(I.Blocks[K].Successors) + " in the instrumented build";
  return "";
}

/// Whether the two blocks hold the same instructions, in any order (the
/// scheduler may order them differently around the probes; counts are the
/// same either way).
bool sameInstructions(const Block &I, const Block &P) {
  auto Opcodes = [](const Block &B) {
    Histogram H;
    for (const Item &X : B.Items)
      if (X.Kind == Item::Instruction)
        ++H[X.Opcode];
    return H;
  };
  return Opcodes(I) == Opcodes(P);
}

} // namespace

PlainAttribution
warpscope::ptx::attributePlain(const Function &Instrumented,
                               const Function &Plain,
                               const std::set<uint64_t> &SwitchBlocks) {
  PlainAttribution Out;
  Out.Why = shapeDifference(Instrumented, Plain);
  if (!Out.Why.empty())
    return Out;
  bool Same = true;
  for (size_t K = 0; K < Plain.Blocks.size() && Same; ++K)
    Same = sameInstructions(Instrumented.Blocks[K], Plain.Blocks[K]);
  if (Same) {
    Out.Status = PlainAttribution::Same;
    return Out;
  }
  // The plain blocks with the instrumented blocks' first and last markers
  // around their instructions: attribute() then finds the same owners for
  // every block (the markers decide them, and the graph is the same), and
  // gives each plain instruction its block's first owner.
  Function Grafted = Plain;
  Grafted.InstrumentationInstructions = 0;
  for (size_t K = 0; K < Plain.Blocks.size(); ++K) {
    const std::vector<Item> &Own = Instrumented.Blocks[K].Items;
    const Item *First = nullptr, *Last = nullptr;
    for (const Item &I : Own)
      if (I.Kind != Item::Instruction) {
        First = First ? First : &I;
        Last = &I;
      }
    std::vector<Item> Items;
    if (First)
      Items.push_back(*First);
    for (const Item &I : Plain.Blocks[K].Items)
      if (I.Kind == Item::Instruction)
        Items.push_back(I);
    if (Last && Last != First)
      Items.push_back(*Last);
    Grafted.Blocks[K].Items = std::move(Items);
  }
  Out.Status = PlainAttribution::Mapped;
  Out.Histograms = attribute(Grafted, SwitchBlocks);
  return Out;
}

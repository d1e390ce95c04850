//===- SourceLines.cpp - Counts per source line ---------------------------===//

#include "SourceLines.h"
#include <algorithm>
#include <set>

using namespace warpscope;

std::vector<std::pair<std::string, unsigned>>
warpscope::blockLines(const FunctionProfile &F, const BlockCounts &B) {
  std::set<std::pair<std::string, unsigned>> Lines;
  // The block's first located instruction; also the only position known
  // when the database predates inline stacks.
  if (!B.Loc.File.empty() && B.Loc.Line)
    Lines.insert({B.Loc.File, B.Loc.Line});
  // Inline stacks give every other line, relative to F's first line; the
  // outermost frame is F itself (inlined code counts on its call line).
  if (!F.Loc.File.empty() && F.Loc.Line)
    for (const std::vector<Frame> &Stack : B.InlineStacks)
      if (!Stack.empty())
        Lines.insert({F.Loc.File, F.Loc.Line + Stack.front().LineOffset});
  return {Lines.begin(), Lines.end()};
}

LineMap warpscope::lineCounts(const FunctionProfile &F) {
  LineMap Out;
  bool Ptx = F.PtxStatus == "ok";
  for (const BlockCounts &B : F.Blocks) {
    for (const auto &[File, Line] : blockLines(F, B)) {
      LineCounts &L = Out[File][Line];
      L.Blocks.push_back(B.Id);
      if (B.ThreadExecutions > L.ThreadExecutions ||
          (B.ThreadExecutions == L.ThreadExecutions &&
           B.WarpExecutions > L.WarpExecutions)) {
        L.ThreadExecutions = B.ThreadExecutions;
        L.WarpExecutions = B.WarpExecutions;
      }
    }
    if (!Ptx || B.Loc.File.empty() || !B.Loc.Line)
      continue;
    uint64_t Static = 0;
    for (const auto &[Opcode, N] : B.Ptx)
      Static += N;
    std::optional<uint64_t> &I = Out[B.Loc.File][B.Loc.Line].ThreadInstructions;
    I = I.value_or(0) + Static * B.ThreadExecutions;
  }
  for (const BranchCounts &B : F.Branches)
    if (B.Probed && !B.Loc.File.empty()) {
      LineCounts &L = Out[B.Loc.File][B.Loc.Line];
      L.Visits += B.Visits;
      L.Divergent += B.Divergent;
    }
  return Out;
}

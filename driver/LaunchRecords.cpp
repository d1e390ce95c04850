//===- LaunchRecords.cpp - A per-launch run's launches-*.jsonl -----------===//

#include "JsonFiles.h"
#include "ProfileFormat.h"
#include "ProfileModel.h"
#include "SourceText.h"
#include "warpscope/ABI/Abi.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;

namespace warpscope::profile {

/// Reads a per-launch run's launches-*.jsonl (each line: one launch, its
/// configuration and the counter words it changed) into Sums. NumCounters:
/// per module id, the size of its counter array.
Error readLaunchRecords(const std::string &Path,
                        const std::map<std::string, uint64_t> &NumCounters,
                        ConfigurationSums &Sums) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail(Path, "cannot read (" + Buf.getError().message() + ")",
                RerunHint);
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    std::string Where = Path + ":" + std::to_string(I + 1);
    Expected<json::Value> V = json::parse(Lines[I]);
    if (!V) {
      consumeError(V.takeError());
      return fail(Where, "is not a JSON launch record",
                  "the file is damaged; " + Twine(RerunHint));
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      return fail(Where, "is not a JSON object", RerunHint);
    Fields F{Where, ""};
    const json::Value *Mod = O->get("module_id");
    std::string Kernel = F.str(*O, "kernel");
    const json::Array *Grid = F.arr(*O, "grid");
    const json::Array *Block = F.arr(*O, "block");
    uint64_t Shared = F.u64(*O, "shared_bytes");
    const json::Array *Words = F.arr(*O, "counters");
    if (F.Problem.empty() && (Grid->size() != 3 || Block->size() != 3))
      F.bad("grid/block", "three integers");
    if (!F.Problem.empty())
      return fail(Where, F.Problem, RerunHint);
    if (!Mod || !Mod->getAsString())
      continue; // a kernel of a module the runtime did not know
    std::string Id = Mod->getAsString()->str();
    auto N = NumCounters.find(Id);
    if (N == NumCounters.end())
      continue; // device side not instrumented
    LaunchGroup G;
    for (int K = 0; K < 3; ++K) {
      G.Grid[K] = (*Grid)[K].getAsUINT64().value_or(0);
      G.Block[K] = (*Block)[K].getAsUINT64().value_or(0);
    }
    G.SharedBytes = Shared;
    G.Count = 1;
    if (auto T = O->getNumber("time_ms")) {
      G.TimeMs = *T;
      G.Timed = true;
    }
    if (O->get("error"))
      Sums.Incomplete.insert({Id, Kernel});
    auto &[Group, Counters] =
        Sums.Groups[{Id, Kernel, G.Grid[0], G.Grid[1], G.Grid[2], G.Block[0],
                     G.Block[1], G.Block[2], G.SharedBytes}];
    if (Counters.empty()) {
      Group = G; // the shape; counts and times are added below
      Group.Count = 0;
      Group.TimeMs = 0;
      Group.Timed = false;
      Counters.assign(N->second, 0);
    }
    Group.Count += 1;
    Group.TimeMs += G.TimeMs;
    Group.Timed |= G.Timed;
    ConfigurationSums::Launch *One = nullptr;
    if (Sums.KeepLaunches) {
      Sums.Launches.push_back({Id, Kernel, G, {}});
      One = &Sums.Launches.back();
    }
    for (const json::Value &W : *Words) {
      const json::Array *Pair = W.getAsArray();
      std::optional<uint64_t> Index, Value;
      if (Pair && Pair->size() == 2) {
        Index = (*Pair)[0].getAsUINT64();
        Value = (*Pair)[1].getAsUINT64();
      }
      if (!Index || !Value || *Index >= Counters.size())
        return fail(Where,
                    "has a counter entry that is not [index, value] "
                    "within the module's counters",
                    "the file is damaged; " + Twine(RerunHint));
      Counters[*Index] += *Value;
      if (One)
        One->Words.push_back({*Index, *Value});
    }
  }
  return Error::success();
}

} // namespace warpscope::profile

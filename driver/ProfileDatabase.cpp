//===- ProfileDatabase.cpp - Databases and counter arrays, joined ---------===//

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

const char *RerunHint = "rerun the program under `warpscope run`";

Error fail(const Twine &File, const Twine &What, const Twine &Hint) {
  return createStringError(inconvertibleErrorCode(),
                           File + ": " + What + "; " + Hint);
}

Expected<json::Value> readJson(const std::string &Path, const char *Hint) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail(Path, "cannot read (" + Buf.getError().message() + ")", Hint);
  if ((*Buf)->getBufferSize() == 0)
    return fail(Path, "is empty", Hint);
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return fail(Path, "is not valid JSON (" + toString(V.takeError()) + ")",
                "the file is corrupt or truncated; " + Twine(Hint));
  if (!V->getAsObject())
    return fail(Path, "is not a JSON object", Hint);
  return V;
}

Expected<Database> loadDatabase(const std::string &Path,
                                const std::string &ModuleId) {
  const char *Hint = "the profile directory is damaged; rerun the program";
  Expected<json::Value> V = readJson(Path, Hint);
  if (!V)
    return V.takeError();
  Expected<ProgramDatabase> PD = ProgramDatabase::fromJson(*V);
  if (!PD) {
    std::string Why = toString(PD.takeError());
    bool Foreign = StringRef(Why).contains("has schema");
    return fail(Path, Why,
                Foreign ? "rebuild the program with this warpscope's plugin"
                        : Hint);
  }
  if (PD->ModuleId != ModuleId)
    return fail(Path, "belongs to another module than " + ModuleId, Hint);
  Database DB;
  DB.NumCounters = PD->NumCounters;
  DB.SourceHashes = PD->SourceHashes;
  DB.KernelFilter = PD->KernelFilter;
  DB.NotInstrumented = PD->KernelsNotInstrumented;
  for (const FunctionRecord &FR : PD->Functions)
    if (FR.SharedWithLeftOut)
      DB.SharedWithLeftOut.push_back(FR.Demangled);
  for (const FunctionRecord &FR : PD->Functions) {
    FunctionProfile Fn;
    Fn.ModuleId = ModuleId;
    Fn.Name = FR.Name;
    Fn.Demangled = FR.Demangled;
    Fn.Kernel = FR.Kernel;
    Fn.Loc = FR.Loc;
    Fn.CfgChecksum = FR.CfgChecksum;
    for (const BlockRecord &BR : FR.Blocks) {
      if (BR.Counter < 0)
        return fail(Path,
                    "block " + Twine(BR.Id) + " of " + FR.Name +
                        " has no counter",
                    Hint);
      if (BR.Successors)
        for (unsigned S : *BR.Successors)
          if (S >= FR.Blocks.size())
            return fail(Path,
                        "block " + Twine(BR.Id) + " of " + FR.Name +
                            " has a successor that does not exist",
                        Hint);
      BlockCounts B;
      static_cast<BlockRecord &>(B) = BR;
      if (!BR.Successors)
        B.Reconverges = false; // only meaningful with the graph
      Fn.Blocks.push_back(std::move(B));
    }
    Fn.PtxStatus = PD->PtxStatus;
    Fn.PtxArch = PD->PtxArch;
    Fn.PtxUnattributed = FR.PtxUnattributed;
    Fn.PtxEdges = FR.PtxEdges;
    Fn.PtxSwitchParts = FR.PtxSwitchParts;
    Fn.PlainPtxStatus = FR.PlainPtxStatus;
    if (Fn.PlainPtxStatus.empty())
      Fn.NoPlainPtx = PD->PlainPtxStatus.empty() || PD->PlainPtxStatus == "ok"
                          ? "the build made no plain PTX (an older plugin, "
                            "or -warpscope-plain-ptx=0)"
                          : "the build's plain PTX was " + PD->PlainPtxStatus;
    Fn.PlainPtxUnattributed = FR.PlainPtxUnattributed;
    Fn.PlainPtxEdges = FR.PlainPtxEdges;
    Fn.PlainPtxSwitchParts = FR.PlainPtxSwitchParts;
    Fn.MathCallSites = FR.MathCallSites;
    for (const BranchRecord &R : FR.Branches) {
      BranchCounts Br;
      static_cast<BranchRecord &>(Br) = R;
      // Only switches have uniform-visit words.
      Br.CountsUniformVisits = R.CountsUniformVisits && R.Successors.size() > 2;
      Fn.Branches.push_back(std::move(Br));
    }
    DB.Functions.push_back(std::move(Fn));
  }
  // Every record must fit in the counter array.
  for (const FunctionProfile &Fn : DB.Functions) {
    for (const BlockCounts &B : Fn.Blocks)
      if (uint64_t(B.Counter) + BlockRecordWords > DB.NumCounters)
        return fail(Path, "block counter of " + Fn.Name + " is out of range",
                    Hint);
    for (const BranchCounts &Br : Fn.Branches) {
      bool LoopEntry = !Br.Probed && Br.CountsArrivals;
      size_t N = Br.Successors.size();
      // Switch records of older plugins end before their arrivals words,
      // or before their uniform-visits words.
      uint64_t Words = LoopEntry                ? LoopEntryRecordWords
                       : N <= 2                 ? branchRecordWords(N)
                       : Br.CountsArrivals      ? branchRecordWords(N)
                       : Br.CountsUniformVisits ? switchArrivalsWord(N)
                                                : switchUniformVisitsWord(N);
      if ((Br.Probed || LoopEntry) &&
          (Br.Counter < 0 || uint64_t(Br.Counter) + Words > DB.NumCounters ||
           (LoopEntry && Br.Successors.size() != 2)))
        return fail(Path, "branch counter of " + Fn.Name + " is out of range",
                    Hint);
    }
  }
  return DB;
}

/// A probed branch's counts from its record (and its block's counts, which
/// must be known, where it shares them); false when no execution can
/// produce them.
static bool readBranch(BranchCounts &Br, const FunctionProfile &F,
                       const std::vector<uint64_t> &C) {
  uint64_t W = Br.Counter;
  if (Br.SharesBlockCounts) {
    Br.Visits = F.Blocks[Br.Block].WarpExecutions;
    Br.ActiveThreads = F.Blocks[Br.Block].ThreadExecutions;
  } else {
    Br.Visits = C[W + BranchVisits];
    Br.ActiveThreads = C[W + BranchActiveThreads];
  }
  Br.Divergent = C[W + BranchDivergent];
  Br.SuccessorThreads.assign(Br.Successors.size(), 0);
  uint64_t Others = 0;
  for (size_t K = 0; K + 1 < Br.Successors.size(); ++K) {
    Br.SuccessorThreads[K] = C[W + BranchFirstSuccessor + K];
    Others += Br.SuccessorThreads[K];
  }
  if (Br.Successors.size() == 2)
    Br.Successor0Arrivals = C[W + BranchSuccessor0Arrivals];
  Br.UniformVisits.clear();
  uint64_t AllUniform = 0;
  if (Br.CountsUniformVisits)
    for (size_t K = 0; K < Br.Successors.size(); ++K) {
      Br.UniformVisits.push_back(
          C[W + switchUniformVisitsWord(Br.Successors.size()) + K]);
      AllUniform += Br.UniformVisits.back();
    }
  // Every visit is divergent or sends all its lanes one way.
  if (Br.CountsUniformVisits && AllUniform + Br.Divergent != Br.Visits)
    return false;
  Br.SwitchArrivals.clear();
  if (Br.CountsArrivals && Br.Successors.size() > 2)
    for (size_t K = 0; K < Br.Successors.size(); ++K) {
      uint64_t A = C[W + switchArrivalsWord(Br.Successors.size()) + K];
      // Arrivals include the uniform visits and are at most the visits.
      if (A > Br.Visits || (Br.CountsUniformVisits && A < Br.UniformVisits[K]))
        return false;
      Br.SwitchArrivals.push_back(A);
    }
  if (Br.Divergent > Br.Visits || Others > Br.ActiveThreads ||
      Br.ActiveThreads < Br.Visits || Br.ActiveThreads / 32 > Br.Visits ||
      Br.Successor0Arrivals > Br.Visits)
    return false;
  // The last successor's threads are the active ones left over.
  Br.SuccessorThreads.back() = Br.ActiveThreads - Others;
  return true;
}

/// One module run's counts for a database's functions: block records
/// first, then branches (which may take visits and active threads from their
/// block) and blocks derived from a branch, in chains (a derived block's
/// branch may share its counts and feed derived blocks in turn). Counts no
/// execution can produce mean a damaged profile: the result is an error,
/// not a number.
std::string countsFor(const Database &DB, const std::vector<uint64_t> &C,
                      std::vector<FunctionProfile> &Out) {
  Out = DB.Functions;
  std::vector<char> BlockKnown, BranchKnown;
  for (FunctionProfile &F : Out) {
    auto Bad = [&](const char *What, unsigned Id) {
      return std::string(What) + " " + std::to_string(Id) + " of " + F.Name +
             " has impossible counts";
    };
    BlockKnown.assign(F.Blocks.size(), 1);
    BranchKnown.assign(F.Branches.size(), 1);
    size_t Pending = 0;
    for (size_t I = 0; I < F.Blocks.size(); ++I) {
      BlockCounts &B = F.Blocks[I];
      if (B.DerivedBranch >= 0) {
        if (size_t(B.DerivedBranch) >= F.Branches.size() ||
            !F.Branches[B.DerivedBranch].Probed)
          return Bad("block", B.Id);
        BlockKnown[I] = 0;
        ++Pending;
      } else if (B.SameCountsAs < 0) {
        B.WarpExecutions = C[B.Counter + BlockWarpExecutions];
        B.ThreadExecutions = C[B.Counter + BlockThreadExecutions];
      }
    }
    for (size_t I = 0; I < F.Branches.size(); ++I) {
      const BranchCounts &Br = F.Branches[I];
      if (!Br.Probed)
        continue;
      if (Br.SharesBlockCounts &&
          (Br.Block >= F.Blocks.size() || F.Blocks[Br.Block].SameCountsAs >= 0))
        return Bad("branch", Br.Id);
      BranchKnown[I] = 0;
      ++Pending;
    }
    // Usually one round; one more per link of a chain. A round that makes
    // no progress means a cycle (a damaged database).
    while (Pending) {
      size_t Before = Pending;
      for (size_t I = 0; I < F.Branches.size(); ++I) {
        BranchCounts &Br = F.Branches[I];
        if (BranchKnown[I] || (Br.SharesBlockCounts && !BlockKnown[Br.Block]))
          continue;
        if (!readBranch(Br, F, C))
          return Bad("branch", Br.Id);
        BranchKnown[I] = 1;
        --Pending;
      }
      for (size_t I = 0; I < F.Blocks.size(); ++I) {
        BlockCounts &B = F.Blocks[I];
        if (BlockKnown[I])
          continue;
        const BranchCounts &Br = F.Branches[B.DerivedBranch];
        if (B.EnteredFrom >= 0) {
          // A loop header: the lanes its preheader sends in (one group per
          // execution there) and those its latch sends back; over successor
          // 0 from the back edge's own words (the latch may be the header,
          // whose branch takes its visits from it), over successor 1 from
          // the branch's counts.
          bool Own = B.DerivedSuccessor == 0;
          if (!BlockKnown[B.EnteredFrom] ||
              (!Own && !BranchKnown[B.DerivedBranch]))
            continue;
          const BlockCounts &Pre = F.Blocks[B.EnteredFrom];
          B.ThreadExecutions =
              Pre.ThreadExecutions + (Own ? C[Br.Counter + BranchFirstSuccessor]
                                          : Br.SuccessorThreads[1]);
          B.WarpExecutions =
              Pre.WarpExecutions +
              (Own ? C[Br.Counter + BranchSuccessor0Arrivals] : Br.arrivals(1));
        } else if (BranchKnown[B.DerivedBranch]) {
          B.ThreadExecutions = Br.SuccessorThreads[B.DerivedSuccessor];
          B.WarpExecutions = Br.arrivals(B.DerivedSuccessor);
        } else {
          continue;
        }
        BlockKnown[I] = 1;
        --Pending;
      }
      if (Pending == Before) {
        size_t I = std::find(BlockKnown.begin(), BlockKnown.end(), 0) -
                   BlockKnown.begin();
        return Bad("block", I < F.Blocks.size() ? F.Blocks[I].Id : 0);
      }
    }
    // After those: a block may run exactly when a derived one runs.
    for (BlockCounts &B : F.Blocks) {
      if (B.SameCountsAs < 0)
        continue;
      if (size_t(B.SameCountsAs) >= F.Blocks.size())
        return Bad("block", B.Id);
      const BlockCounts &From = F.Blocks[B.SameCountsAs];
      B.WarpExecutions = From.WarpExecutions;
      B.ThreadExecutions = From.ThreadExecutions;
    }
    for (const BlockCounts &B : F.Blocks)
      if (B.ThreadExecutions < B.WarpExecutions ||
          B.ThreadExecutions / 32 > B.WarpExecutions)
        return Bad("block", B.Id);
    // Uniform branches with a loop-entry record: every visit sends all its
    // lanes one way, so visits and threads are the block's.
    for (BranchCounts &Br : F.Branches) {
      if (Br.Probed || !Br.CountsArrivals)
        continue;
      if (Br.Block >= F.Blocks.size())
        return Bad("branch", Br.Id);
      const BlockCounts &B = F.Blocks[Br.Block];
      Br.Visits = B.WarpExecutions;
      Br.ActiveThreads = B.ThreadExecutions;
      Br.Divergent = 0;
      Br.Successor0Arrivals = C[Br.Counter + LoopEntrySuccessor0Arrivals];
      uint64_t Threads0 = C[Br.Counter + LoopEntrySuccessor0Threads];
      if (Br.Successor0Arrivals > Br.Visits || Threads0 > Br.ActiveThreads ||
          Threads0 < Br.Successor0Arrivals)
        return Bad("branch", Br.Id);
      Br.SuccessorThreads = {Threads0, Br.ActiveThreads - Threads0};
    }
  }
  return "";
}

/// Adds one module run's counts to the functions' totals.
void addCounts(std::vector<FunctionProfile> &Fns,
               const std::vector<FunctionProfile> &Run) {
  for (size_t I = 0; I < Run.size(); ++I) {
    for (size_t B = 0; B < Run[I].Blocks.size(); ++B) {
      Fns[I].Blocks[B].WarpExecutions += Run[I].Blocks[B].WarpExecutions;
      Fns[I].Blocks[B].ThreadExecutions += Run[I].Blocks[B].ThreadExecutions;
    }
    for (size_t B = 0; B < Run[I].Branches.size(); ++B) {
      BranchCounts &D = Fns[I].Branches[B];
      const BranchCounts &S = Run[I].Branches[B];
      D.Visits += S.Visits;
      D.Divergent += S.Divergent;
      D.ActiveThreads += S.ActiveThreads;
      D.Successor0Arrivals += S.Successor0Arrivals;
      D.SwitchArrivals.resize(S.SwitchArrivals.size(), 0);
      for (size_t K = 0; K < S.SwitchArrivals.size(); ++K)
        D.SwitchArrivals[K] += S.SwitchArrivals[K];
      D.UniformVisits.resize(S.UniformVisits.size(), 0);
      for (size_t K = 0; K < S.UniformVisits.size(); ++K)
        D.UniformVisits[K] += S.UniformVisits[K];
      D.SuccessorThreads.resize(S.SuccessorThreads.size(), 0);
      for (size_t K = 0; K < S.SuccessorThreads.size(); ++K)
        D.SuccessorThreads[K] += S.SuccessorThreads[K];
    }
  }
}

} // namespace warpscope::profile

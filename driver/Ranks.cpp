//===- Ranks.cpp - MPI ranks: --rank LIST and the files of chosen ranks ---===//

#include "Ranks.h"
#include "RunDirectory.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace llvm;
using namespace warpscope;

static std::optional<std::set<int>> &selection() {
  static std::optional<std::set<int>> Ranks;
  return Ranks;
}

void warpscope::selectRanks(std::optional<std::set<int>> Ranks) {
  selection() = std::move(Ranks);
}

const std::optional<std::set<int>> &warpscope::selectedRanks() {
  return selection();
}

Expected<std::set<int>> warpscope::parseRankList(StringRef List) {
  auto Bad = [&] {
    return createStringError("--rank '" + List +
                             "' is not a list of ranks such as 0,3,8-15");
  };
  std::set<int> Ranks;
  SmallVector<StringRef> Parts;
  List.split(Parts, ',');
  for (StringRef Part : Parts) {
    auto [From, To] = Part.trim().split('-');
    unsigned A = 0, B = 0;
    if (From.getAsInteger(10, A) || A > INT32_MAX)
      return Bad();
    B = A;
    if (Part.contains('-') &&
        (To.getAsInteger(10, B) || B < A || B > INT32_MAX))
      return Bad();
    if (B - A > 1000000)
      return Bad();
    for (unsigned R = A; R <= B; ++R)
      Ranks.insert(int(R));
  }
  return Ranks;
}

std::string warpscope::rankRanges(const std::set<int> &Ranks) {
  std::string Out;
  for (auto I = Ranks.begin(); I != Ranks.end();) {
    int First = *I, Last = *I;
    for (++I; I != Ranks.end() && *I == Last + 1; ++I)
      Last = *I;
    Out += (Out.empty() ? "" : ",") + std::to_string(First);
    if (Last != First)
      Out += "-" + std::to_string(Last);
  }
  return Out;
}

std::map<long, int>
warpscope::rankedPids(const std::vector<std::string> &Names) {
  std::map<long, int> Pids;
  for (const std::string &Name : Names) {
    auto Pid = files::Profile.pidIn(Name);
    auto Rank = files::Profile.rankIn(Name);
    if (Pid && Rank)
      Pids[*Pid] = *Rank;
  }
  return Pids;
}

static bool perProcess(const FileKind &Kind) {
  for (const FileKind &K : files::PerProcess)
    if (StringRef(K.Prefix) == Kind.Prefix &&
        StringRef(K.Suffix) == Kind.Suffix)
      return true;
  return false;
}

std::vector<std::string>
warpscope::keepSelectedRanks(const std::map<long, int> &Pids,
                             const FileKind &Kind,
                             std::vector<std::string> Paths) {
  if (!selection() || !perProcess(Kind))
    return Paths;
  std::vector<std::string> Kept;
  for (std::string &P : Paths) {
    auto Pid = Kind.pidIn(sys::path::filename(P));
    auto It = Pid ? Pids.find(*Pid) : Pids.end();
    if (It != Pids.end() && selection()->count(It->second))
      Kept.push_back(std::move(P));
  }
  return Kept;
}

std::string warpscope::missingRanksProblem(RunDirectory &Run) {
  const std::string &Dir = Run.path();
  if (!selection() || !sys::fs::is_directory(Dir))
    return "";
  std::set<int> Held;
  for (const auto &[Pid, Rank] : rankedPids(Run.names())) {
    if (selection()->count(Rank))
      return "";
    Held.insert(Rank);
  }
  return "'" + Dir + "' holds no profile of rank " + rankRanges(*selection()) +
         (Held.empty() ? std::string(" (its profiles name no rank); leave "
                                     "out --rank")
                       : " (it holds ranks " + rankRanges(Held) +
                             "); give --rank some of those");
}

Error warpscope::chooseRanks(StringRef List, ArrayRef<RunDirectory *> Dirs) {
  Expected<std::set<int>> Ranks = parseRankList(List);
  if (!Ranks)
    return Ranks.takeError();
  selectRanks(std::move(*Ranks));
  for (RunDirectory *Dir : Dirs)
    if (std::string Bad = missingRanksProblem(*Dir); !Bad.empty())
      return createStringError(Bad);
  return Error::success();
}

//===- Ranks.h - MPI ranks: --rank LIST and the files of chosen ranks -----===//
//
// A profile directory of an MPI or Slurm job holds one profile per rank
// (files::Profile.perProcess with the rank), and every other per-process
// file of that rank's process (files::PerProcess) by its pid. `report`,
// `diff` and `advise --rank LIST` choose ranks once, and every reader of the
// directory (RunDirectory::files) then sees the files of those ranks'
// processes only.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RANKS_H
#define WARPSCOPE_DRIVER_RANKS_H

#include "warpscope/ABI/Files.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope {

class RunDirectory;

/// "0,3,8-15" -> {0, 3, 8..15}. The error is one line naming the option.
llvm::Expected<std::set<int>> parseRankList(llvm::StringRef List);

/// From now on RunDirectory::files lists, of the per-process kinds, only the
/// files of processes whose profile names one of Ranks (none: every file
/// again).
void selectRanks(std::optional<std::set<int>> Ranks);
const std::optional<std::set<int>> &selectedRanks();

/// pid -> rank of the profiles among a directory's file Names that name a
/// rank.
std::map<long, int> rankedPids(const std::vector<std::string> &Names);

/// Paths (files of Kind in a directory whose profiles give Pids) less those
/// of processes of unselected ranks.
std::vector<std::string> keepSelectedRanks(const std::map<long, int> &Pids,
                                           const FileKind &Kind,
                                           std::vector<std::string> Paths);

/// When ranks are selected and Run holds no profile of any: one line naming
/// the directory, the list and the ranks it holds. Otherwise "".
std::string missingRanksProblem(RunDirectory &Run);

/// --rank List for the directories Dirs: parses it, selects the ranks, and
/// checks that each directory holds a profile of one. The error is one line.
llvm::Error chooseRanks(llvm::StringRef List,
                        llvm::ArrayRef<RunDirectory *> Dirs);

/// "0-3,7" for a sorted set of ranks.
std::string rankRanges(const std::set<int> &Ranks);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RANKS_H

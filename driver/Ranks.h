//===- Ranks.h - MPI ranks: --rank LIST and the files of chosen ranks -----===//
//
// A profile directory of an MPI or Slurm job holds one profile per rank
// (files::Profile.perProcess with the rank), and every other per-process
// file of that rank's process (files::PerProcess) by its pid. `report`,
// `diff` and `advise --rank LIST` choose ranks once, and every reader of the
// directory (filesNamed) then sees the files of those ranks' processes only.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RANKS_H
#define WARPSCOPE_DRIVER_RANKS_H

#include "warpscope/ABI/Files.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope {

/// "0,3,8-15" -> {0, 3, 8..15}. The error is one line naming the option.
llvm::Expected<std::set<int>> parseRankList(llvm::StringRef List);

/// From now on filesNamed lists, of the per-process kinds, only the files of
/// processes whose profile names one of Ranks (none: every file again).
void selectRanks(std::optional<std::set<int>> Ranks);
const std::optional<std::set<int>> &selectedRanks();

/// Paths (files of Kind in Dir) less those of processes of unselected ranks.
std::vector<std::string> keepSelectedRanks(const std::string &Dir,
                                           const FileKind &Kind,
                                           std::vector<std::string> Paths);

/// When ranks are selected and Dir holds no profile of any: one line naming
/// Dir, the list and the ranks it holds. Otherwise "".
std::string missingRanksProblem(const std::string &Dir);

/// --rank List for the directories Dirs: parses it, selects the ranks, and
/// checks that each directory holds a profile of one. The error is one line.
llvm::Error chooseRanks(llvm::StringRef List,
                        const std::vector<std::string> &Dirs);

/// "0-3,7" for a sorted set of ranks.
std::string rankRanges(const std::set<int> &Ranks);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RANKS_H

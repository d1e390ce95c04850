//===- SourceText.h - Source lines for reports, never stale -----*- C++ -*-===//
//
// Reports quote the source line of each branch. A file edited after the
// build would shift every line, so each file's contents are checked against
// the hash the build recorded in the program database (source_hashes): a
// changed file is stale, and none of its text is shown. The hash also
// keeps a path equivalence honest: a remapped file must be the one built.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_SOURCETEXT_H
#define WARPSCOPE_DRIVER_SOURCETEXT_H

#include <map>
#include <string>
#include <vector>

namespace warpscope {

/// File -> hash of its contents when built (ProgramDatabase::sourceHash).
using SourceHashes = std::map<std::string, std::string>;

/// As llvm-cov's -path-equivalence: a file the build recorded under From is
/// read from under To, for sources built elsewhere (a CI runner, a
/// container) and checked out here.
struct PathEquivalence {
  std::string From, To;
};
/// Set once from the command line; every SourceText reads through it.
void setPathEquivalences(std::vector<PathEquivalence> Equivalences);
/// Where File is read from: under the first equivalence whose From holds it
/// and where it exists, else File itself.
std::string localSourcePath(const std::string &File);

/// The files of Hashes that exist and no longer hash as built.
std::vector<std::string> staleSourceFiles(const SourceHashes &Hashes);

/// Source lines, each file read once; a missing or stale file gives "".
class SourceText {
public:
  explicit SourceText(const SourceHashes &Hashes) : Hashes(Hashes) {}
  /// Line (1-based) without its indentation.
  std::string line(const std::string &File, unsigned Line);
  /// Every line of File as written; none when missing or stale.
  const std::vector<std::string> &lines(const std::string &File);

private:
  const SourceHashes &Hashes;
  std::map<std::string, std::vector<std::string>> Files;
};

/// How a report names a source line: "FILE:LINE"; line 0 is DWARF's "no
/// source line", code the compiler made (a merged store, a spill) and tied to
/// no line: "FILE (no line: compiler-made code)"; no file: "(no line info)".
std::string sourceLineLabel(const std::string &File, unsigned Line);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_SOURCETEXT_H

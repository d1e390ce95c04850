//===- AtomicFile.h - Files written whole or not at all -------------------===//
//
// The one way everything loaded into the user's process (the host runtime,
// the collector, the emulator) writes a file: into a temporary file beside
// it, then rename, so a reader never sees half a file, even when the process
// dies while writing. No LLVM (runtime layer).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_ATOMICFILE_H
#define WARPSCOPE_SUPPORT_ATOMICFILE_H

#include <string>
#include <string_view>

namespace warpscope::support {

/// Creates Dir and its parents (mkdir -p). Returns "" or a one-line error
/// naming the directory that could not be made.
std::string makeDirectories(const std::string &Dir);

/// Writes Data to Path through "<Path>.tmp.<pid>" and a rename. Returns ""
/// or a one-line error naming the file and the system's reason; the
/// temporary file never stays behind.
std::string writeFileAtomically(const std::string &Path, std::string_view Data);

/// Dir/Name written as above, Dir created first: what every writer of a
/// profile-directory file does. Returns "" or the one-line error.
std::string writeFileInDirectory(const std::string &Dir,
                                 const std::string &Name,
                                 std::string_view Data);

} // namespace warpscope::support

#endif // WARPSCOPE_SUPPORT_ATOMICFILE_H

//===- SourcePath.h - One name per source file ----------------------------===//
//
// The path of a source file as the debug info names it: a directory and a
// name (a DIFile, a PTX `.file` directive with two strings) or one path.
// The device pass's database, the emulator's PTX parser and the advisor's
// PTX reader all name files through joinSourcePath, so a file #included as
// "./kernel.cu" has one name in every view of a report, not "src/./kernel.cu"
// in one and "src/kernel.cu" in another.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_SOURCEPATH_H
#define WARPSCOPE_SUPPORT_SOURCEPATH_H

#include <string>
#include <string_view>

namespace warpscope {

/// Name alone when it is absolute or Dir is empty, Dir alone when Name is
/// empty, else Dir/Name; then without `.` components or repeated slashes
/// (`..` stays: through a symbolic link it need not cancel a component).
std::string joinSourcePath(std::string_view Dir, std::string_view Name);

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_SOURCEPATH_H

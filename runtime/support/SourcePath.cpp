//===- SourcePath.cpp - One name per source file --------------------------===//

#include "warpscope/Support/SourcePath.h"

std::string warpscope::joinSourcePath(std::string_view Dir,
                                      std::string_view Name) {
  std::string Path;
  if (Name.empty())
    Path = Dir;
  else if (Dir.empty() || Name.front() == '/')
    Path = Name;
  else
    Path = std::string(Dir) + "/" + std::string(Name);
  // Drop "." components and repeated slashes; ".." stays: through a
  // symbolic link "a/link/../b" need not be "a/b".
  std::string Out;
  const bool Absolute = !Path.empty() && Path.front() == '/';
  size_t I = 0;
  while (I < Path.size()) {
    size_t End = Path.find('/', I);
    if (End == std::string::npos)
      End = Path.size();
    std::string_view Part(Path.data() + I, End - I);
    if (!Part.empty() && Part != ".") {
      if (!Out.empty() || Absolute)
        Out += '/';
      Out += Part;
    }
    I = End + 1;
  }
  if (Out.empty())
    return Absolute ? "/" : Path.empty() ? "" : ".";
  return Out;
}

//===- AtomicFile.cpp - Files written whole or not at all -----------------===//

#include "warpscope/Support/AtomicFile.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

std::string warpscope::support::makeDirectories(const std::string &Dir) {
  for (size_t Pos = 1; Pos <= Dir.size(); ++Pos) {
    if (Pos != Dir.size() && Dir[Pos] != '/')
      continue;
    std::string Prefix = Dir.substr(0, Pos);
    if (mkdir(Prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return "cannot create directory '" + Prefix + "': " + strerror(errno);
  }
  struct stat St;
  if (!Dir.empty() && (stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)))
    return "cannot create directory '" + Dir + "': not a directory";
  return "";
}

std::string warpscope::support::writeFileAtomically(const std::string &Path,
                                                    std::string_view Data) {
  std::string Temp = Path + ".tmp." + std::to_string(getpid());
  FILE *F = std::fopen(Temp.c_str(), "wb");
  if (!F)
    return "cannot write '" + Temp + "': " + strerror(errno);
  bool Ok = std::fwrite(Data.data(), 1, Data.size(), F) == Data.size();
  int Errno = errno;
  if (std::fclose(F) != 0 && Ok) {
    Ok = false;
    Errno = errno;
  }
  if (!Ok) {
    std::remove(Temp.c_str());
    return "cannot write '" + Temp + "': " + strerror(Errno);
  }
  if (std::rename(Temp.c_str(), Path.c_str()) != 0) {
    Errno = errno;
    std::remove(Temp.c_str());
    return "cannot rename '" + Temp + "' to '" + Path + "': " + strerror(Errno);
  }
  return "";
}

std::string warpscope::support::writeFileInDirectory(const std::string &Dir,
                                                     const std::string &Name,
                                                     std::string_view Data) {
  std::string Error = makeDirectories(Dir);
  return Error.empty() ? writeFileAtomically(Dir + "/" + Name, Data) : Error;
}

//===- CubinStore.cpp - Each loaded cubin, saved once by CRC --------------===//

#include "CubinStore.h"
#include "PcSampleTable.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope::collect;

bool warpscope::collect::makeDirectories(const std::string &Dir) {
  for (size_t Pos = 1; Pos <= Dir.size(); ++Pos)
    if (Pos == Dir.size() || Dir[Pos] == '/') {
      std::string Prefix = Dir.substr(0, Pos);
      if (mkdir(Prefix.c_str(), 0777) != 0 && errno != EEXIST)
        return false;
    }
  struct stat St;
  return stat(Dir.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

bool warpscope::collect::writeFileAtomically(const std::string &Path,
                                             const void *Data, size_t Size,
                                             std::string &Error) {
  std::string Temp = Path + ".tmp" + std::to_string(getpid());
  FILE *F = std::fopen(Temp.c_str(), "wb");
  if (!F) {
    Error = "cannot write '" + Temp + "': " + std::strerror(errno);
    return false;
  }
  bool Ok = std::fwrite(Data, 1, Size, F) == Size;
  Ok &= std::fclose(F) == 0;
  if (!Ok || std::rename(Temp.c_str(), Path.c_str()) != 0) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    std::remove(Temp.c_str());
    return false;
  }
  return true;
}

std::string CubinStore::pathFor(uint64_t Crc) const {
  return Directory + "/" + cubinFileName(Crc);
}

bool CubinStore::save(uint64_t Crc, const void *Data, size_t Size,
                      std::string &Error) {
  if (Saved.count(Crc))
    return true;
  if (!Data || !Size) {
    Error = "module with CRC " + hex64(Crc) + " has no cubin image";
    return false;
  }
  if (!makeDirectories(Directory)) {
    Error = "cannot create '" + Directory + "': " + std::strerror(errno);
    return false;
  }
  if (!writeFileAtomically(pathFor(Crc), Data, Size, Error))
    return false;
  Saved.insert(Crc);
  return true;
}

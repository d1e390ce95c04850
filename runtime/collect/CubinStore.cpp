//===- CubinStore.cpp - Each loaded cubin, saved once by CRC --------------===//

#include "CubinStore.h"
#include "PcSampleTable.h"
#include "warpscope/Support/AtomicFile.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope::collect;
namespace support = warpscope::support;

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
  Error = support::writeFileInDirectory(
      Directory, cubinFileName(Crc),
      std::string_view(static_cast<const char *>(Data), Size));
  if (!Error.empty())
    return false;
  Saved.insert(Crc);
  return true;
}

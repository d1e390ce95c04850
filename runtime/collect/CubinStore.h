//===- CubinStore.h - Each loaded cubin, saved once by CRC ----------------===//
//
// A program loads the same module in every context (and again after an
// unload); the profile needs each distinct cubin once, under the CRC PC
// samples carry, so reports can map pc offsets to lines without the binary.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_COLLECT_CUBINSTORE_H
#define WARPSCOPE_COLLECT_CUBINSTORE_H

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

namespace warpscope::collect {

class CubinStore {
public:
  explicit CubinStore(std::string Directory)
      : Directory(std::move(Directory)) {}
  /// Writes <dir>/cubin-<crc>.cubin (temp file + rename) unless this CRC
  /// was saved before. Returns false with a one-line Error on failure.
  bool save(uint64_t Crc, const void *Data, size_t Size, std::string &Error);
  const std::set<uint64_t> &saved() const { return Saved; }
  std::string pathFor(uint64_t Crc) const;

private:
  std::string Directory;
  std::set<uint64_t> Saved;
};

} // namespace warpscope::collect

#endif // WARPSCOPE_COLLECT_CUBINSTORE_H

//===- Fatbin.h - CUDA fatbin wrapper/container decoder -------------------===//
//
// Decodes what clang (and nvcc) hand to __cudaRegisterFatBinary: the wrapper
// {magic 0x466243B1, version, data, unused} and the container it points to
// (magic 0xBA55ED50, a 16-byte header, then entries, each a header followed
// by its payload). Picks the PTX entry to run and decompresses it (zstd via
// libzstd, or the LZ4 block variant, decoded here). Every read is
// bounds-checked: corrupt input yields an error string, never a crash.
// No LLVM, no CUDA headers: the driver reuses this (static lib
// warpscope-fatbin). Layout notes: docs/emulator-runtime.md.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CUDART_FATBIN_H
#define WARPSCOPE_EMU_CUDART_FATBIN_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::emu::fatbin {

constexpr uint32_t WrapperMagic = 0x466243B1;
constexpr uint32_t ContainerMagic = 0xBA55ED50;

/// Entry kinds (u16 at entry offset 0).
constexpr uint16_t KindPtx = 1;
constexpr uint16_t KindElf = 2;

/// Entry flag bits (u64 at entry offset 0x28).
constexpr uint64_t Flag64Bit = 0x1;
constexpr uint64_t FlagDebug = 0x2;
constexpr uint64_t FlagLinux = 0x10;
constexpr uint64_t FlagCompressedLz4 = 0x2000;
constexpr uint64_t FlagCompressedZstd = 0x8000;

/// Sanity limit for a decompressed payload (and a container).
constexpr uint64_t MaxPayloadBytes = 1ull << 30;

enum class Compression { None, Lz4, Zstd };

struct Entry {
  uint16_t Kind = 0;
  uint32_t HeaderSize = 0;
  uint64_t Offset = 0;         ///< of the entry header, from container start
  uint64_t PayloadOffset = 0;  ///< from container start
  uint64_t PayloadSize = 0;    ///< padded size stored in the container
  uint32_t CompressedSize = 0; ///< exact compressed bytes (0: not compressed)
  uint64_t UncompressedSize = 0;
  uint16_t VersionMajor = 0, VersionMinor = 0; ///< PTX ISA for PTX entries
  uint32_t Arch = 0;                           ///< sm_XX as XX
  uint64_t Flags = 0;
  Compression Comp = Compression::None;

  bool isPtx() const { return Kind == KindPtx; }
  bool isElf() const { return Kind == KindElf; }
};

struct Container {
  const uint8_t *Base = nullptr;
  uint64_t Size = 0; ///< 16-byte header + body
  uint16_t Version = 0;
  std::vector<Entry> Entries;
};

/// What __cudaRegisterFatBinary received, decoded.
struct Wrapper {
  uint32_t Magic = 0;
  uint32_t Version = 0; ///< 1: whole-program; 2: nvcc -rdc (prelinked)
  const void *Data = nullptr;
};

/// Reads the wrapper struct. False (with Error) when the magic is wrong or
/// the data pointer is null.
bool readWrapper(const void *WrapperPtr, Wrapper &W, std::string &Error);

/// Size of the container at Data as its header claims (16 + body), or 0
/// when the header is not a fatbin header. Reads 16 bytes.
uint64_t containerSize(const void *Data);

/// Parses the container in [Data, Data + Avail). Fails on bad magic, sizes
/// out of bounds, or malformed entries.
bool parseContainer(const void *Data, uint64_t Avail, Container &C,
                    std::string &Error);

/// Decodes an LZ4 block (no frame) into exactly DstLen bytes of Dst.
/// Returns the number of bytes written, or -1 on malformed input (Error set).
long long lz4DecompressBlock(const uint8_t *Src, size_t SrcLen, uint8_t *Dst,
                             size_t DstLen, std::string &Error);

/// Returns E's payload, decompressed.
bool entryPayload(const Container &C, const Entry &E, std::string &Out,
                  std::string &Error);

/// The PTX entry to run: highest sm <= MaxArch, else the highest sm; null
/// when the container has no PTX.
const Entry *selectPtx(const Container &C, uint32_t MaxArch = 90);

enum class PtxStatus { Ok, NoPtx, Corrupt };

struct PtxResult {
  PtxStatus Status = PtxStatus::Corrupt;
  std::string Ptx;                ///< text, up to the first NUL
  uint32_t Arch = 0;              ///< sm of the chosen PTX entry
  std::vector<uint32_t> ElfArchs; ///< cubins present (for NoPtx messages)
  std::string Error;              ///< one line, for Corrupt
};

/// Parse + select + decompress.
PtxResult extractPtx(const void *Data, uint64_t Avail, uint32_t MaxArch = 90);

const char *compressionName(Compression C);

} // namespace warpscope::emu::fatbin

#endif // WARPSCOPE_EMU_CUDART_FATBIN_H

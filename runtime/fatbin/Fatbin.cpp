//===- Fatbin.cpp - CUDA fatbin wrapper/container decoder -----------------===//
#include "warpscope/Fatbin/Fatbin.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace warpscope::emu::fatbin {

namespace {

template <typename T> T rd(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V; // x86-64 / aarch64 hosts: little-endian like the format
}

std::string hex(uint64_t V) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

} // namespace

const char *compressionName(Compression C) {
  switch (C) {
  case Compression::None:
    return "none";
  case Compression::Lz4:
    return "lz4";
  case Compression::Zstd:
    return "zstd";
  }
  return "?";
}

bool readWrapper(const void *WrapperPtr, Wrapper &W, std::string &Error) {
  if (!WrapperPtr) {
    Error = "null fatbin wrapper";
    return false;
  }
  const auto *P = static_cast<const uint8_t *>(WrapperPtr);
  W.Magic = rd<uint32_t>(P);
  W.Version = rd<uint32_t>(P + 4);
  W.Data = rd<const void *>(P + 8);
  if (W.Magic != WrapperMagic) {
    // Some producers hand the container itself.
    if (W.Magic == ContainerMagic) {
      W.Data = WrapperPtr;
      W.Version = 1;
      return true;
    }
    Error = "bad fatbin wrapper magic " + hex(W.Magic);
    return false;
  }
  if (!W.Data) {
    Error = "fatbin wrapper has no data";
    return false;
  }
  return true;
}

uint64_t containerSize(const void *Data) {
  if (!Data)
    return 0;
  const auto *P = static_cast<const uint8_t *>(Data);
  if (rd<uint32_t>(P) != ContainerMagic)
    return 0;
  uint16_t HeaderSize = rd<uint16_t>(P + 6);
  uint64_t Body = rd<uint64_t>(P + 8);
  if (HeaderSize < 16 || Body > MaxPayloadBytes)
    return 0;
  return HeaderSize + Body;
}

bool parseContainer(const void *Data, uint64_t Avail, Container &C,
                    std::string &Error) {
  C = Container();
  const auto *P = static_cast<const uint8_t *>(Data);
  if (!P || Avail < 16) {
    Error = "fatbin truncated (no header)";
    return false;
  }
  uint32_t Magic = rd<uint32_t>(P);
  if (Magic != ContainerMagic) {
    Error = "bad fatbin magic " + hex(Magic);
    return false;
  }
  C.Version = rd<uint16_t>(P + 4);
  uint16_t HeaderSize = rd<uint16_t>(P + 6);
  uint64_t Body = rd<uint64_t>(P + 8);
  if (HeaderSize < 16 || HeaderSize > Avail) {
    Error = "bad fatbin header size " + std::to_string(HeaderSize);
    return false;
  }
  if (Body > Avail - HeaderSize) {
    Error = "fatbin truncated: header says " +
            std::to_string(HeaderSize + Body) + " bytes, have " +
            std::to_string(Avail);
    return false;
  }
  C.Base = P;
  C.Size = HeaderSize + Body;
  uint64_t Off = HeaderSize;
  const uint64_t End = C.Size;
  while (Off < End) {
    if (End - Off < 64) {
      Error = "fatbin entry at offset " + std::to_string(Off) + " truncated (" +
              std::to_string(End - Off) + " bytes left)";
      return false;
    }
    const uint8_t *H = P + Off;
    Entry E;
    E.Offset = Off;
    E.Kind = rd<uint16_t>(H);
    E.HeaderSize = rd<uint32_t>(H + 4);
    E.PayloadSize = rd<uint64_t>(H + 8);
    E.CompressedSize = rd<uint32_t>(H + 0x10);
    E.VersionMinor = rd<uint16_t>(H + 0x18);
    E.VersionMajor = rd<uint16_t>(H + 0x1a);
    E.Arch = rd<uint32_t>(H + 0x1c);
    E.Flags = rd<uint64_t>(H + 0x28);
    E.UncompressedSize = rd<uint64_t>(H + 0x38);
    if (E.HeaderSize < 64 || E.HeaderSize > End - Off) {
      Error = "fatbin entry at offset " + std::to_string(Off) +
              " has bad header size " + std::to_string(E.HeaderSize);
      return false;
    }
    E.PayloadOffset = Off + E.HeaderSize;
    if (E.PayloadSize > End - E.PayloadOffset) {
      Error = "fatbin entry at offset " + std::to_string(Off) +
              " has payload (" + std::to_string(E.PayloadSize) +
              " bytes) past the container end";
      return false;
    }
    if (E.Flags & FlagCompressedZstd)
      E.Comp = Compression::Zstd;
    else if (E.Flags & FlagCompressedLz4)
      E.Comp = Compression::Lz4;
    if (E.Comp != Compression::None) {
      if (E.CompressedSize == 0)
        E.CompressedSize = static_cast<uint32_t>(
            std::min<uint64_t>(E.PayloadSize, UINT32_MAX));
      if (E.CompressedSize > E.PayloadSize) {
        Error = "fatbin entry at offset " + std::to_string(Off) +
                " has compressed size larger than its payload";
        return false;
      }
    }
    C.Entries.push_back(E);
    Off = E.PayloadOffset + E.PayloadSize;
    if (C.Entries.size() > 100000) {
      Error = "fatbin has too many entries";
      return false;
    }
  }
  return true;
}

long long lz4DecompressBlock(const uint8_t *Src, size_t SrcLen, uint8_t *Dst,
                             size_t DstLen, std::string &Error) {
  size_t Ip = 0, Op = 0;
  auto ReadLen = [&](size_t Base, size_t &Len) -> bool {
    Len = Base;
    if (Base != 15)
      return true;
    for (;;) {
      if (Ip >= SrcLen) {
        Error = "lz4: truncated length";
        return false;
      }
      uint8_t B = Src[Ip++];
      Len += B;
      if (Len > (size_t(1) << 40)) {
        Error = "lz4: length overflow";
        return false;
      }
      if (B != 255)
        return true;
    }
  };
  if (SrcLen == 0) {
    if (DstLen == 0)
      return 0;
    Error = "lz4: empty input";
    return -1;
  }
  while (Ip < SrcLen) {
    uint8_t Token = Src[Ip++];
    size_t LitLen;
    if (!ReadLen(Token >> 4, LitLen))
      return -1;
    if (LitLen > SrcLen - Ip) {
      Error = "lz4: literals past end of input";
      return -1;
    }
    if (LitLen > DstLen - Op) {
      Error = "lz4: output overflow (literals)";
      return -1;
    }
    std::memcpy(Dst + Op, Src + Ip, LitLen);
    Ip += LitLen;
    Op += LitLen;
    if (Ip == SrcLen)
      break; // last sequence: literals only
    if (SrcLen - Ip < 2) {
      Error = "lz4: truncated match offset";
      return -1;
    }
    size_t Offset = Src[Ip] | (size_t(Src[Ip + 1]) << 8);
    Ip += 2;
    if (Offset == 0 || Offset > Op) {
      Error = "lz4: bad match offset " + std::to_string(Offset);
      return -1;
    }
    size_t MatchLen;
    if (!ReadLen(Token & 15, MatchLen))
      return -1;
    MatchLen += 4;
    if (MatchLen > DstLen - Op) {
      Error = "lz4: output overflow (match)";
      return -1;
    }
    const uint8_t *M = Dst + Op - Offset;
    for (size_t I = 0; I < MatchLen; ++I) // may overlap: byte by byte
      Dst[Op + I] = M[I];
    Op += MatchLen;
  }
  return static_cast<long long>(Op);
}

bool entryPayload(const Container &C, const Entry &E, std::string &Out,
                  std::string &Error) {
  Out.clear();
  if (E.PayloadOffset > C.Size || E.PayloadSize > C.Size - E.PayloadOffset) {
    Error = "entry payload out of bounds";
    return false;
  }
  const uint8_t *P = C.Base + E.PayloadOffset;
  if (E.Comp == Compression::None) {
    Out.assign(reinterpret_cast<const char *>(P), E.PayloadSize);
    return true;
  }
  uint64_t InLen = E.CompressedSize;
  // A corrupt header must not make us allocate gigabytes: neither codec
  // expands by more than ~255x for LZ4; zstd can, but not for PTX.
  uint64_t Limit = std::min<uint64_t>(MaxPayloadBytes, InLen * 1024 + 65536);
  if (E.UncompressedSize == 0 || E.UncompressedSize > Limit) {
    Error = "entry has implausible uncompressed size " +
            std::to_string(E.UncompressedSize) + " for " +
            std::to_string(InLen) + " compressed bytes";
    return false;
  }
  Out.resize(E.UncompressedSize);
  if (E.Comp == Compression::Lz4) {
    long long N = lz4DecompressBlock(
        P, InLen, reinterpret_cast<uint8_t *>(&Out[0]), Out.size(), Error);
    if (N < 0)
      return false;
    if (static_cast<uint64_t>(N) != E.UncompressedSize) {
      Error = "lz4: decoded " + std::to_string(N) + " bytes, expected " +
              std::to_string(E.UncompressedSize);
      return false;
    }
    return true;
  }
  size_t N = ZSTD_decompress(&Out[0], Out.size(), P, InLen);
  if (ZSTD_isError(N)) {
    Error = std::string("zstd: ") + ZSTD_getErrorName(N);
    return false;
  }
  if (N != E.UncompressedSize) {
    Error = "zstd: decoded " + std::to_string(N) + " bytes, expected " +
            std::to_string(E.UncompressedSize);
    return false;
  }
  return true;
}

const Entry *selectPtx(const Container &C, uint32_t MaxArch) {
  const Entry *BestLE = nullptr, *BestAny = nullptr;
  for (const Entry &E : C.Entries) {
    if (!E.isPtx())
      continue;
    if (E.Arch <= MaxArch && (!BestLE || E.Arch > BestLE->Arch))
      BestLE = &E;
    if (!BestAny || E.Arch > BestAny->Arch)
      BestAny = &E;
  }
  return BestLE ? BestLE : BestAny;
}

PtxResult extractPtx(const void *Data, uint64_t Avail, uint32_t MaxArch) {
  PtxResult R;
  Container C;
  if (!parseContainer(Data, Avail, C, R.Error)) {
    R.Status = PtxStatus::Corrupt;
    return R;
  }
  for (const Entry &E : C.Entries)
    if (E.isElf() && std::find(R.ElfArchs.begin(), R.ElfArchs.end(), E.Arch) ==
                         R.ElfArchs.end())
      R.ElfArchs.push_back(E.Arch);
  const Entry *E = selectPtx(C, MaxArch);
  if (!E) {
    R.Status = PtxStatus::NoPtx;
    return R;
  }
  R.Arch = E->Arch;
  std::string Payload;
  if (!entryPayload(C, *E, Payload, R.Error)) {
    R.Error = "PTX entry for sm_" + std::to_string(E->Arch) + ": " + R.Error;
    R.Status = PtxStatus::Corrupt;
    return R;
  }
  size_t Nul = Payload.find('\0');
  if (Nul != std::string::npos)
    Payload.resize(Nul);
  R.Ptx = std::move(Payload);
  R.Status = PtxStatus::Ok;
  return R;
}

} // namespace warpscope::emu::fatbin

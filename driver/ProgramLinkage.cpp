//===- ProgramLinkage.cpp - Which shared libraries a program loads --------===//

#include "ProgramLinkage.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>
#include <elf.h>

using namespace llvm;

std::optional<std::vector<std::string>>
warpscope::neededLibraries(const std::string &Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  StringRef Data = (*Buf)->getBuffer();
  Elf64_Ehdr H;
  if (Data.size() < sizeof H)
    return std::nullopt;
  std::memcpy(&H, Data.data(), sizeof H);
  if (std::memcmp(H.e_ident, ELFMAG, SELFMAG) != 0 ||
      H.e_ident[EI_CLASS] != ELFCLASS64 || H.e_shentsize != sizeof(Elf64_Shdr))
    return std::nullopt;
  // A section header of the file, or false where it lies outside it.
  auto Section = [&](size_t I, Elf64_Shdr &S) {
    uint64_t At = H.e_shoff + I * sizeof S;
    if (I >= H.e_shnum || At + sizeof S > Data.size())
      return false;
    std::memcpy(&S, Data.data() + At, sizeof S);
    return S.sh_offset + S.sh_size <= Data.size();
  };
  std::vector<std::string> Needed;
  for (size_t I = 0; I < H.e_shnum; ++I) {
    Elf64_Shdr Dyn, Str;
    if (!Section(I, Dyn) || Dyn.sh_type != SHT_DYNAMIC ||
        !Section(Dyn.sh_link, Str))
      continue;
    for (uint64_t At = Dyn.sh_offset;
         At + sizeof(Elf64_Dyn) <= Dyn.sh_offset + Dyn.sh_size;
         At += sizeof(Elf64_Dyn)) {
      Elf64_Dyn D;
      std::memcpy(&D, Data.data() + At, sizeof D);
      if (D.d_tag == DT_NULL)
        break;
      if (D.d_tag != DT_NEEDED || D.d_un.d_val >= Str.sh_size)
        continue;
      StringRef Names = Data.substr(Str.sh_offset, Str.sh_size);
      Needed.push_back(Names.substr(D.d_un.d_val).split('\0').first.str());
    }
  }
  return Needed;
}

bool warpscope::loadsSharedCudart(const std::vector<std::string> &Needed) {
  for (const std::string &N : Needed)
    if (StringRef(N).starts_with("libcudart.so"))
      return true;
  return false;
}

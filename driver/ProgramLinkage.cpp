//===- ProgramLinkage.cpp - How a program links the CUDA runtime ----------===//

#include "ProgramLinkage.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>
#include <elf.h>

using namespace llvm;
using namespace warpscope;

std::optional<ProgramLinkage>
warpscope::programLinkage(const std::string &Path) {
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
  ProgramLinkage Out;
  Elf64_Shdr Names;
  const bool HaveNames = Section(H.e_shstrndx, Names);
  for (size_t I = 0; I < H.e_shnum; ++I) {
    Elf64_Shdr S, Str;
    if (!Section(I, S))
      continue;
    if (HaveNames && S.sh_name < Names.sh_size &&
        Data.substr(Names.sh_offset + S.sh_name).starts_with(".nv_fatbin"))
      Out.HasFatbin = true;
    if (S.sh_type != SHT_DYNAMIC || !Section(S.sh_link, Str))
      continue;
    StringRef Strings = Data.substr(Str.sh_offset, Str.sh_size);
    for (uint64_t At = S.sh_offset;
         At + sizeof(Elf64_Dyn) <= S.sh_offset + S.sh_size;
         At += sizeof(Elf64_Dyn)) {
      Elf64_Dyn D;
      std::memcpy(&D, Data.data() + At, sizeof D);
      if (D.d_tag == DT_NULL)
        break;
      if (D.d_tag == DT_NEEDED && D.d_un.d_val < Strings.size())
        Out.Needed.push_back(
            Strings.substr(D.d_un.d_val).split('\0').first.str());
    }
  }
  return Out;
}

bool ProgramLinkage::loadsSharedCudart() const {
  for (const std::string &N : Needed)
    if (StringRef(N).starts_with("libcudart.so"))
      return true;
  return false;
}

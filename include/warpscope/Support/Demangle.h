//===- Demangle.h - Readable C++ names in messages, without LLVM ---------===//
//
// The runtime and the emulator name kernels by their symbols. Messages show
// each Itanium-mangled name as "bad(int*) [_Z3badPi]": readable, and still
// searchable by symbol. The C++ runtime's demangler serves, so this stays
// free of LLVM (the runtime layers must not link it).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_DEMANGLE_H
#define WARPSCOPE_SUPPORT_DEMANGLE_H

#include <cctype>
#include <cstdlib>
#include <cxxabi.h>
#include <string>

namespace warpscope {

inline bool isSymbolChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$';
}

/// Text with every word that demangles as a C++ symbol ("_Z...") written
/// "demangled [symbol]"; other words as they are.
inline std::string withDemangledNames(const std::string &Text) {
  std::string Out;
  size_t I = 0;
  while (I < Text.size()) {
    bool WordStart = I == 0 || !isSymbolChar(Text[I - 1]);
    if (!WordStart || Text.compare(I, 2, "_Z") != 0) {
      Out += Text[I++];
      continue;
    }
    size_t J = I;
    while (J < Text.size() && isSymbolChar(Text[J]))
      ++J;
    std::string Name = Text.substr(I, J - I);
    int Status = 0;
    char *D = abi::__cxa_demangle(Name.c_str(), nullptr, nullptr, &Status);
    Out += Status == 0 && D ? std::string(D) + " [" + Name + "]" : Name;
    std::free(D);
    I = J;
  }
  return Out;
}

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_DEMANGLE_H

//===- InlinedLines.cpp - Inlined header code on the user's line ----------===//

#include "InlinedLines.h"
#include "SourcePositions.h"
#include "warpscope/Support/MathHeaders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <string>
#include <tuple>

using namespace llvm;
using namespace warpscope;

/// A directory named like clang's version: `22`, `17.0.6`.
static bool isVersion(StringRef Name) {
  return !Name.empty() && isDigit(Name.front()) &&
         Name.find_first_not_of("0123456789.") == StringRef::npos;
}

bool warpscope::isToolkitHeader(StringRef Path) {
  SmallString<256> Clean = Path;
  sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
  StringRef P = Clean;
  if (P.starts_with("/usr/include/") || P.starts_with("/usr/lib/gcc/"))
    return true;
  SmallVector<StringRef, 16> Parts;
  P.split(Parts, '/', -1, /*KeepEmpty=*/false);
  // The last part is the file's own name.
  for (size_t I = 1; I + 1 < Parts.size(); ++I) {
    if (Parts[I] != "include")
      continue;
    if (I >= 2 && Parts[I - 2] == "clang" && isVersion(Parts[I - 1]))
      return true;
    if (Parts[I - 1].starts_with("cuda"))
      return true;
    if (I >= 3 && Parts[I - 2] == "targets" && Parts[I - 3].starts_with("cuda"))
      return true;
  }
  return false;
}

unsigned
warpscope::attributeInlinedLines(Function &F, InlinedLines Rule,
                                 std::vector<SourceLocation> *MathSites) {
  const DISubprogram *SP = F.getSubprogram();
  if (Rule == InlinedLines::Keep || !SP)
    return 0;
  const DIFile *MainFile = SP->getUnit()->getFile();
  std::string Main =
      sourcePath(MainFile->getDirectory(), MainFile->getFilename());
  DenseMap<const DIFile *, bool> Picked;
  auto Picks = [&](const DILocation *L) {
    auto [It, New] = Picked.try_emplace(L->getFile(), false);
    if (New) {
      std::string Path = sourcePath(L->getDirectory(), L->getFilename());
      It->second =
          Rule == InlinedLines::Toolkit ? isToolkitHeader(Path) : Path != Main;
    }
    return It->second;
  };
  unsigned Changed = 0;
  for (Instruction &I : instructions(F)) {
    const DILocation *DL = I.getDebugLoc().get();
    if (!DL || DL->getLine() == 0 || !Picks(DL))
      continue;
    // The nearest call site outside picked files: the line whose text holds
    // the call (a user's helper calling sqrtf gets the helper's line, as the
    // helper's own code does).
    const DILocation *At = DL->getInlinedAt();
    while (At && (At->getLine() == 0 || Picks(At)))
      At = At->getInlinedAt();
    if (!At)
      continue;
    I.setDebugLoc(DILocation::get(F.getContext(), At->getLine(),
                                  At->getColumn(), At->getScope(),
                                  At->getInlinedAt(), At->isImplicitCode()));
    ++Changed;
    if (MathSites &&
        isMathLibraryHeader(sourcePath(DL->getDirectory(), DL->getFilename())))
      MathSites->push_back({sourcePath(At->getDirectory(), At->getFilename()),
                            At->getLine(), At->getColumn()});
  }
  if (MathSites) {
    auto Key = [](const SourceLocation &L) {
      return std::tie(L.File, L.Line, L.Column);
    };
    llvm::sort(*MathSites,
               [&](const SourceLocation &A, const SourceLocation &B) {
                 return Key(A) < Key(B);
               });
    MathSites->erase(
        std::unique(MathSites->begin(), MathSites->end(),
                    [&](const SourceLocation &A, const SourceLocation &B) {
                      return Key(A) == Key(B);
                    }),
        MathSites->end());
  }
  return Changed;
}

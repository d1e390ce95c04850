//===- InlinedLines.cpp - Inlined header code on the user's line ----------===//

#include "InlinedLines.h"
#include "SourcePositions.h"
#include "warpscope/Support/MathHeaders.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include <algorithm>
#include <string>
#include <tuple>

using namespace llvm;
using namespace warpscope;

LinePlacement::LinePlacement(const Function &F, InlinedLines Rule)
    : Rule(Rule) {
  if (const DISubprogram *SP = F.getSubprogram()) {
    const DIFile *MainFile = SP->getUnit()->getFile();
    Main = sourcePath(MainFile->getDirectory(), MainFile->getFilename());
  }
}

bool LinePlacement::picks(const DILocation *L) {
  if (Rule == InlinedLines::Keep)
    return false;
  auto [It, New] = Picked.try_emplace(L->getFile(), false);
  if (New) {
    std::string Path = sourcePath(L->getDirectory(), L->getFilename());
    It->second =
        Rule == InlinedLines::Toolkit ? isToolkitHeader(Path) : Path != Main;
  }
  return It->second;
}

const DILocation *LinePlacement::place(const DILocation *DL) {
  if (!DL || DL->getLine() == 0 || !picks(DL))
    return DL;
  // The nearest call site outside picked files: the line whose text holds
  // the call (a user's helper calling sqrtf gets the helper's line, as the
  // helper's own code does).
  const DILocation *At = DL->getInlinedAt();
  while (At && (At->getLine() == 0 || picks(At)))
    At = At->getInlinedAt();
  return At ? At : DL;
}

unsigned
warpscope::attributeInlinedLines(Function &F, InlinedLines Rule,
                                 std::vector<SourceLocation> *MathSites) {
  if (Rule == InlinedLines::Keep || !F.getSubprogram())
    return 0;
  LinePlacement Lines(F, Rule);
  unsigned Changed = 0;
  for (Instruction &I : instructions(F)) {
    const DILocation *DL = I.getDebugLoc().get();
    const DILocation *At = Lines.place(DL);
    if (At == DL)
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

//===- SourcePositions.cpp - Debug locations as database positions --------===//
//
// Everything the device pass reads from debug info for the program database;
// nothing here changes the IR.
//
//===----------------------------------------------------------------------===//

#include "SourcePositions.h"
#include "warpscope/Support/SourcePath.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include <set>
#include <string>

using namespace llvm;
using namespace warpscope;

std::string warpscope::sourcePath(StringRef Directory, StringRef File) {
  return joinSourcePath(Directory, File);
}

SourceLocation warpscope::functionLocation(const Function &F) {
  SourceLocation L;
  if (const DISubprogram *SP = F.getSubprogram()) {
    L.File = sourcePath(SP->getDirectory(), SP->getFilename());
    L.Line = SP->getLine();
  }
  return L;
}

SourceLocation warpscope::toSourceLocation(const DILocation *DL) {
  SourceLocation L;
  if (!DL || DL->getLine() == 0)
    return L;
  L.File = sourcePath(DL->getDirectory(), DL->getFilename());
  L.Line = DL->getLine();
  L.Column = DL->getColumn();
  return L;
}

const DILocation *warpscope::firstLocation(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (const DILocation *DL = I.getDebugLoc().get())
      if (DL->getLine() != 0)
        return DL;
  return nullptr;
}

const DILocation *warpscope::branchLocation(const Instruction &Term,
                                            const Value *Cond) {
  const DILocation *DL = nullptr;
  if (auto *CI = dyn_cast<Instruction>(Cond))
    DL = CI->getDebugLoc().get();
  if (!DL || DL->getLine() == 0)
    DL = Term.getDebugLoc().get();
  if (!DL || DL->getLine() == 0)
    DL = firstLocation(*Term.getParent());
  return DL && DL->getLine() ? DL : nullptr;
}

/// Where DL's code came from, outermost function first: for each level, the
/// function and the line offset from its DISubprogram's line.
static std::vector<InlineFrame> inlineStack(const DILocation *DL,
                                            const SubprogramSymbols &Symbols) {
  std::vector<InlineFrame> Frames;
  for (; DL && DL->getLine(); DL = DL->getInlinedAt()) {
    const DISubprogram *SP = DL->getScope()->getSubprogram();
    if (!SP)
      break;
    // The loader matches calls by symbol before it inlines them.
    auto Recorded = Symbols.find(SP);
    StringRef Name =
        Recorded == Symbols.end() ? StringRef() : StringRef(Recorded->second);
    if (Name.empty())
      Name = SP->getLinkageName();
    if (Name.empty())
      Name = SP->getName();
    unsigned Offset =
        DL->getLine() >= SP->getLine() ? DL->getLine() - SP->getLine() : 0;
    Frames.insert(Frames.begin(),
                  {Name.str(), Offset, DL->getBaseDiscriminator()});
  }
  return Frames;
}

/// Sample profiles key the function itself by its symbol (line-tables-only
/// debug info has no linkage names); inlined frames keep the debug name,
/// which is what the sample loader looks them up by.
std::vector<std::vector<InlineFrame>>
warpscope::inlineStacks(const BasicBlock &BB, StringRef Symbol,
                        const SubprogramSymbols &Symbols) {
  std::vector<std::vector<InlineFrame>> Stacks;
  std::set<std::string> Seen;
  for (const Instruction &I : BB) {
    std::vector<InlineFrame> Stack =
        inlineStack(I.getDebugLoc().get(), Symbols);
    if (Stack.empty())
      continue;
    Stack.front().Function = Symbol.str();
    std::string Key;
    for (const InlineFrame &Fr : Stack)
      Key += Fr.Function + ":" + std::to_string(Fr.LineOffset) + "." +
             std::to_string(Fr.Discriminator) + "/";
    if (Seen.insert(Key).second)
      Stacks.push_back(std::move(Stack));
  }
  return Stacks;
}

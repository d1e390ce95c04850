//===- SourceSides.cpp - Which successor is the source condition's true side =//

#include "SourceSides.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Triple.h"
#include <algorithm>
#include <iterator>

using namespace llvm;
using namespace warpscope;

/// Beyond this many blocks on one side a branch is left unknown: the
/// comparison costs time in proportion, and a cut-off side would be
/// compared with a whole one.
static constexpr unsigned MaxSideBlocks = 4096;

/// Where the branch is, as the database says (its condition's location,
/// else its own), but innermost: the inlined copies of a branch of a device
/// function share its position in that function.
static const DILocation *positionLocation(const BranchInst &Br) {
  if (auto *I = dyn_cast<Instruction>(Br.getCondition()))
    if (const DILocation *DL = I->getDebugLoc().get(); DL && DL->getLine())
      return DL;
  if (const DILocation *DL = Br.getDebugLoc().get(); DL && DL->getLine())
    return DL;
  return nullptr;
}

static std::string fileOf(const DILocation *DL) {
  return (DL->getDirectory() + "/" + DL->getFilename()).str();
}

/// A source position as one number: 16 bits of the file's hash, the line
/// and the column.
static uint64_t packPosition(const DILocation *DL) {
  uint64_t File = xxh3_64bits(fileOf(DL)) & 0xffff;
  return File << 48 | uint64_t(DL->getLine() & 0xffffffffu) << 16 |
         (DL->getColumn() & 0xffffu);
}

/// Whether I is code of the statement its location names. Terminators
/// name statements, not code; lifetime markers and assumptions sit where
/// a scope ends (a loop's exit names the loop), not where code runs.
static bool isCode(const Instruction &I) {
  return !I.isTerminator() && !I.isLifetimeStartOrEnd() &&
         !I.isDebugOrPseudoInst() && !isa<AssumeInst>(I) &&
         !isa<NoAliasScopeDeclInst>(I);
}

/// Adds the source positions of the code on side S of the branch ending
/// block B: the blocks reachable from S before the lanes meet again at B's
/// immediate post-dominator (or come back to B), i.e. the code that runs
/// only because the branch went to S; nothing when S is that meeting point.
/// False when there are more than MaxSideBlocks of them.
static bool sidePositions(const BasicBlock *B, const BasicBlock *S,
                          const PostDominatorTree &PDT,
                          std::set<uint64_t> &Out) {
  SmallPtrSet<const BasicBlock *, 32> Seen = {B};
  if (const DomTreeNode *N = PDT.getNode(B); N && N->getIDom())
    if (const BasicBlock *Join = N->getIDom()->getBlock())
      Seen.insert(Join);
  SmallVector<const BasicBlock *, 16> Work;
  if (Seen.insert(S).second)
    Work.push_back(S);
  unsigned Blocks = 0;
  while (!Work.empty()) {
    const BasicBlock *X = Work.pop_back_val();
    if (++Blocks > MaxSideBlocks)
      return false;
    for (const Instruction &I : *X)
      if (isCode(I))
        if (const DILocation *DL = I.getDebugLoc().get(); DL && DL->getLine())
          Out.insert(packPosition(DL));
    for (const BasicBlock *Y : successors(X))
      if (Seen.insert(Y).second)
        Work.push_back(Y);
  }
  return true;
}

static const BranchInst *twoWayBranch(const BasicBlock &BB) {
  auto *Br = dyn_cast_or_null<BranchInst>(BB.getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
    return nullptr;
  return Br;
}

static std::string encode(const std::set<uint64_t> &Positions) {
  std::string Out;
  for (uint64_t P : Positions) {
    if (!Out.empty())
      Out += ' ';
    Out += utohexstr(P);
  }
  return Out;
}

static std::set<uint64_t> decode(StringRef Text) {
  std::set<uint64_t> Out;
  SmallVector<StringRef, 64> Parts;
  Text.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts) {
    uint64_t V;
    if (!P.getAsInteger(16, V))
      Out.insert(V);
  }
  return Out;
}

PreservedAnalyses RecordSourceSidesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  SourceSides Sides;
  std::set<BranchPosition> TooLarge;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    // Its own tree, not the analysis manager's: nothing is cached for the
    // pipeline to invalidate.
    PostDominatorTree PDT(F);
    for (BasicBlock &BB : F) {
      const BranchInst *Br = twoWayBranch(BB);
      const DILocation *DL = Br ? positionLocation(*Br) : nullptr;
      if (!DL)
        continue;
      BranchPosition Pos{fileOf(DL), DL->getLine(), DL->getColumn()};
      // Clang's IR branches to the source condition's true side first.
      SourceSideRecord &R = Sides[Pos];
      if (!sidePositions(&BB, Br->getSuccessor(0), PDT, R.True) ||
          !sidePositions(&BB, Br->getSuccessor(1), PDT, R.False))
        TooLarge.insert(Pos);
    }
  }
  NamedMDNode *Records = M.getOrInsertNamedMetadata(SourceSidesMD);
  Records->clearOperands();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  for (const auto &[Pos, R] : Sides) {
    if (TooLarge.count(Pos))
      continue;
    const auto &[File, Line, Column] = Pos;
    Records->addOperand(MDTuple::get(
        Ctx, {MDString::get(Ctx, File),
              ConstantAsMetadata::get(ConstantInt::get(I32, Line)),
              ConstantAsMetadata::get(ConstantInt::get(I32, Column)),
              MDString::get(Ctx, encode(R.True)),
              MDString::get(Ctx, encode(R.False))}));
  }
  // Named metadata feeds no analysis.
  return PreservedAnalyses::all();
}

SourceSides warpscope::takeSourceSides(Module &M) {
  SourceSides Sides;
  NamedMDNode *Records = M.getNamedMetadata(SourceSidesMD);
  if (!Records)
    return Sides;
  for (const MDNode *R : Records->operands()) {
    if (R->getNumOperands() != 5)
      continue;
    auto *File = dyn_cast_or_null<MDString>(R->getOperand(0));
    auto *Line = mdconst::dyn_extract_or_null<ConstantInt>(R->getOperand(1));
    auto *Col = mdconst::dyn_extract_or_null<ConstantInt>(R->getOperand(2));
    auto *True = dyn_cast_or_null<MDString>(R->getOperand(3));
    auto *False = dyn_cast_or_null<MDString>(R->getOperand(4));
    if (!File || !Line || !Col || !True || !False)
      continue;
    Sides[{File->getString().str(), unsigned(Line->getZExtValue()),
           unsigned(Col->getZExtValue())}] = {decode(True->getString()),
                                              decode(False->getString())};
  }
  M.eraseNamedMetadata(Records);
  return Sides;
}

static std::set<uint64_t> minus(const std::set<uint64_t> &A,
                                const std::set<uint64_t> &B) {
  std::set<uint64_t> Out;
  std::set_difference(A.begin(), A.end(), B.begin(), B.end(),
                      std::inserter(Out, Out.end()));
  return Out;
}

static size_t common(const std::set<uint64_t> &A, const std::set<uint64_t> &B) {
  size_t N = 0;
  for (uint64_t P : A)
    N += B.count(P);
  return N;
}

std::optional<unsigned>
warpscope::sourceTrueSuccessor(const SourceSides &Sides, const BranchInst &Br,
                               const PostDominatorTree &PDT) {
  const DILocation *DL =
      twoWayBranch(*Br.getParent()) == &Br ? positionLocation(Br) : nullptr;
  if (!DL)
    return std::nullopt;
  auto It = Sides.find({fileOf(DL), DL->getLine(), DL->getColumn()});
  if (It == Sides.end())
    return std::nullopt;
  std::set<uint64_t> Now0, Now1;
  if (!sidePositions(Br.getParent(), Br.getSuccessor(0), PDT, Now0) ||
      !sidePositions(Br.getParent(), Br.getSuccessor(1), PDT, Now1))
    return std::nullopt;
  // Only positions one side reaches and the other does not tell the sides
  // apart.
  std::set<uint64_t> Only0 = minus(Now0, Now1), Only1 = minus(Now1, Now0);
  std::set<uint64_t> True = minus(It->second.True, It->second.False),
                     False = minus(It->second.False, It->second.True);
  size_t Kept = common(Only0, True) + common(Only1, False);
  size_t Inverted = common(Only0, False) + common(Only1, True);
  if (Kept && !Inverted)
    return 0;
  if (Inverted && !Kept)
    return 1;
  return std::nullopt;
}

//===- PlainPtx.cpp - The PTX the module compiles to without the plugin ---===//

#include "PlainPtx.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace llvm;

static Error fail(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// clang's -ffp-contract=fast and fast-honor-pragmas (CUDA's default) let
/// the code generator fuse (FPOpFusion::Fast), and mark the floating-point
/// operations they allow to fuse `contract`; on and off do not.
static FPOpFusion::FPOpFusionMode fusion(const Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (isa<FPMathOperator>(I) && I.getFastMathFlags().allowContract())
        return FPOpFusion::Fast;
  return FPOpFusion::Standard;
}

Expected<std::string> warpscope::plainPtx(const Module &M, unsigned OptLevel) {
  // Its cost shows in clang's -ftime-trace.
  TimeTraceScope Scope("WarpScopePlainPtx");
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Error);
  if (!T)
    return fail("this compiler has no target for " + M.getTargetTriple().str() +
                " (" + Error + ")");
  // The NVPTX code generator has one subtarget per module: clang gives it
  // the CPU and features every function's attributes carry.
  const Function *First = nullptr;
  for (const Function &F : M)
    if (!F.isDeclaration() && !First)
      First = &F;
  // Without them this is no module clang made (a test's IR): the code
  // generator's default CPU may not select what the module uses, and it
  // ends the process when it cannot.
  if (!First || !First->hasFnAttribute("target-cpu"))
    return fail("its functions carry no target-cpu (not a module from clang)");
  StringRef CPU = First->getFnAttribute("target-cpu").getValueAsString();
  StringRef Features =
      First->getFnAttribute("target-features").getValueAsString();
  CodeGenOptLevel Level = OptLevel == 0   ? CodeGenOptLevel::None
                          : OptLevel == 1 ? CodeGenOptLevel::Less
                          : OptLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  TargetOptions Options;
  Options.AllowFPOpFusion = fusion(M);
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(M.getTargetTriple(), CPU, Features, Options,
                             std::nullopt, std::nullopt, Level));
  if (!TM)
    return fail("no target machine for " + CPU);
  TM->resetTargetOptions(*First); // -ffast-math's, from the attributes
  // A copy through bitcode, use-list order kept: the order of a value's uses
  // steers instruction selection and register numbering, and CloneModule
  // does not keep it. Its own context: the code generator's diagnostics and
  // types stay out of the module's.
  SmallString<0> Bitcode;
  raw_svector_ostream BC(Bitcode);
  WriteBitcodeToFile(M, BC, /*ShouldPreserveUseListOrder=*/true);
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Copy =
      parseBitcodeFile(MemoryBufferRef(Bitcode, "plain"), Ctx);
  if (!Copy)
    return fail("the module's bitcode does not read back (" +
                toString(Copy.takeError()) + ")");
  SmallString<0> Ptx;
  raw_svector_ostream OS(Ptx);
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile))
    return fail("the code generator for " + CPU + " cannot emit PTX");
  PM.run(**Copy);
  return std::string(Ptx);
}

//===- DivergenceModelTest.cpp - Our sources of divergence
//-----------------===//

#include "DivergenceModel.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace warpscope;

namespace {

const char *IR = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @ext(i32)
define ptx_kernel void @k(i32 %arg, ptr addrspace(1) %g, ptr %generic) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %grid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %max = call i32 @llvm.smax.i32(i32 %bid, i32 %arg)
  %call = call i32 @ext(i32 %bid)
  %gl = load i32, ptr addrspace(1) %g
  %gen = load i32, ptr %generic
  %rmw = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic
  ret void
}
define void @dev(i32 %x) {
  ret void
}
)";

class DivergenceModelTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
  }
  const Value *named(StringRef Name) {
    for (Instruction &I : instructions(*M->getFunction("k")))
      if (I.getName() == Name)
        return &I;
    return nullptr;
  }
};

TEST_F(DivergenceModelTest, ThreadAndLaneIndicesAreDivergent) {
  EXPECT_EQ(classifyDivergence(named("tid")),
            InstructionUniformity::NeverUniform);
  EXPECT_EQ(classifyDivergence(named("lane")),
            InstructionUniformity::NeverUniform);
}

TEST_F(DivergenceModelTest, BlockAndGridRegistersAreUniform) {
  EXPECT_EQ(classifyDivergence(named("bid")),
            InstructionUniformity::AlwaysUniform);
  EXPECT_EQ(classifyDivergence(named("grid")),
            InstructionUniformity::AlwaysUniform);
}

TEST_F(DivergenceModelTest, PureIntrinsicsFollowTheirOperands) {
  EXPECT_EQ(classifyDivergence(named("max")), InstructionUniformity::Default);
}

TEST_F(DivergenceModelTest, CallsLoadsAndAtomics) {
  EXPECT_EQ(classifyDivergence(named("call")),
            InstructionUniformity::NeverUniform);
  EXPECT_EQ(classifyDivergence(named("gl")), InstructionUniformity::Default);
  EXPECT_EQ(classifyDivergence(named("gen")),
            InstructionUniformity::NeverUniform);
  EXPECT_EQ(classifyDivergence(named("rmw")),
            InstructionUniformity::NeverUniform);
}

TEST_F(DivergenceModelTest, KernelArgumentsUniformDeviceArgumentsNot) {
  EXPECT_EQ(classifyDivergence(M->getFunction("k")->getArg(0)),
            InstructionUniformity::Default);
  EXPECT_EQ(classifyDivergence(M->getFunction("dev")->getArg(0)),
            InstructionUniformity::NeverUniform);
}

TEST_F(DivergenceModelTest, UniformityAnalysisUsesTheModel) {
  PassBuilder PB;
  FunctionAnalysisManager FAM;
  PB.registerFunctionAnalyses(FAM);
  UniformityResult R = computeUniformity(*M->getFunction("k"), FAM);
  EXPECT_TRUE(R.Info->isUniform(named("bid")));
  EXPECT_TRUE(R.Info->isUniform(named("max")));
  EXPECT_TRUE(R.Info->isDivergent(named("tid")));
}

} // namespace

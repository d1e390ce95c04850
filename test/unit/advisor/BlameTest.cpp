//===- BlameTest.cpp - Instruction representation, blamer, estimators -----===//

#include "AdviseInputs.h"
#include "AdvisorFixture.h"
#include "Estimators.h"
#include <fstream>
#include <sstream>

using namespace warpscope;
using namespace warpscope::advise;
using namespace warpscope::advise::test;

namespace {

std::string readFile(const std::string &P) {
  std::ifstream In(P);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

std::string reg(const Function &F, unsigned Id) { return F.RegNames[Id]; }

// The real nvdisasm -c -g listing of the H100 reduction run.
TEST(SassListing, ParsesTheRealReductionListing) {
  std::vector<Function> Fns;
  std::string Error;
  ASSERT_TRUE(parseSassListing(
      readFile(WARPSCOPE_FIXTURES
               "/gpu/pcs-reduction/cubin-000000003b187f54.sass"),
      Fns, Error))
      << Error;
  const Function *Max = nullptr;
  for (const Function &F : Fns)
    if (F.Name == "_Z14reduce_max_i32PKilPi")
      Max = &F;
  ASSERT_NE(Max, nullptr);
  EXPECT_TRUE(Max->Kernel);
  // /*01a0*/ LDG.E R5, desc[UR6][R4.64] ;  at reduction.cu:31
  const Instr &Ldg = Max->Instrs[Max->ByOffset.at(0x1a0)];
  EXPECT_EQ(Ldg.Opcode, "LDG.E");
  EXPECT_EQ(Ldg.Mem, Space::Global);
  EXPECT_TRUE(Ldg.Load);
  EXPECT_EQ(Ldg.Line, 31u);
  EXPECT_EQ(Ldg.File, "/work/main/benchmarks/src/reduction.cu");
  ASSERT_EQ(Ldg.Defs.size(), 1u);
  EXPECT_EQ(reg(*Max, Ldg.Defs[0]), "R5");
  std::vector<std::string> Uses;
  for (unsigned U : Ldg.Uses)
    Uses.push_back(reg(*Max, U));
  EXPECT_EQ(Uses, (std::vector<std::string>{"UR6", "UR7", "R4", "R5"}));
  // /*00b0*/ ISETP.GE.AND.EX P0, PT, R5, UR11, PT, P0 ; defines P0 only.
  const Instr &Setp = Max->Instrs[Max->ByOffset.at(0xb0)];
  ASSERT_EQ(Setp.Defs.size(), 1u);
  EXPECT_EQ(reg(*Max, Setp.Defs[0]), "P0");
  // /*00c0*/ @P0 BRA `(.L_x_1) ; guarded, two successors.
  const Instr &Bra = Max->Instrs[Max->ByOffset.at(0xc0)];
  ASSERT_GE(Bra.Guard, 0);
  EXPECT_EQ(reg(*Max, unsigned(Bra.Guard)), "P0");
  EXPECT_FALSE(Bra.GuardNegated);
  EXPECT_EQ(Max->Blocks[Bra.Block].Succs.size(), 2u);
  // The grid-stride loop .L_x_2 (0x180..0x220) at line 31 is a loop, the
  // tree reduction at line 34 another.
  ASSERT_GE(Max->Loops.size(), 2u);
  EXPECT_GE(Ldg.Block, 1u);
  EXPECT_EQ(Max->loopNest(Max->ByOffset.at(0x1a0)).size(), 1u);
  EXPECT_TRUE(Max->loopNest(0).empty());
  const Instr &Sts = Max->Instrs[Max->ByOffset.at(0x2b0)];
  EXPECT_EQ(Sts.Mem, Space::Shared);
  EXPECT_TRUE(Sts.Defs.empty());
  EXPECT_EQ(Max->Instrs[Max->ByOffset.at(0x2c0)].Class, OpClass::Sync);
}

// The same listing with the real encodings (fixtures/advisor/reduction-hex):
// the control bits make the scoreboard barriers virtual registers.
TEST(SassListing, ControlBitsBecomeScoreboardRegisters) {
  std::vector<Function> Fns;
  std::string Error;
  ASSERT_TRUE(parseSassListing(
      readFile(WARPSCOPE_FIXTURES
               "/advisor/reduction-hex/cubin-000000003b187f54.sass"),
      Fns, Error))
      << Error;
  const Function &Max = Fns.at(0);
  ASSERT_EQ(Max.Name, "_Z14reduce_max_i32PKilPi");
  // LDC R1, c[0x0][0x28]: hi word 0x000fe20000000800, no barrier.
  const Instr &Ldc = Max.Instrs[Max.ByOffset.at(0)];
  EXPECT_TRUE(Ldc.HasControl);
  EXPECT_EQ(Ldc.WriteBarrier, -1);
  EXPECT_EQ(Ldc.StallCycles, 1u);
  // S2R R2, SR_TID.X: hi word 0x000e2e0000002100 writes barrier 0.
  const Instr &S2r = Max.Instrs[Max.ByOffset.at(0x10)];
  EXPECT_EQ(S2r.WriteBarrier, 0);
  EXPECT_EQ(S2r.StallCycles, 7u);
  EXPECT_EQ(reg(Max, S2r.Defs.back()), "SB0");
  // The LDG sets a barrier that the VIMNMX using its result waits on.
  const Instr &Ldg = Max.Instrs[Max.ByOffset.at(0x1a0)];
  const Instr &Max2 = Max.Instrs[Max.ByOffset.at(0x210)];
  ASSERT_GE(Ldg.WriteBarrier, 0);
  EXPECT_TRUE(Max2.WaitMask & (1u << Ldg.WriteBarrier));
  std::string Sb = "SB" + std::to_string(Ldg.WriteBarrier);
  bool Waits = false;
  for (unsigned U : Max2.Uses)
    Waits |= reg(Max, U) == Sb;
  EXPECT_TRUE(Waits);
  // Every instruction got its control word.
  for (const Function &F : Fns)
    for (const Instr &I : F.Instrs)
      EXPECT_TRUE(I.HasControl) << F.Name << " " << I.Offset;
}

TEST(SassListing, RejectsWhatIsNotAListing) {
  std::vector<Function> Fns;
  std::string Error;
  EXPECT_FALSE(parseSassListing("hello\n", Fns, Error));
  EXPECT_NE(Error.find("nvdisasm"), std::string::npos) << Error;
  Fns.clear();
  EXPECT_FALSE(parseSassListing(
      "\t.section\t.text.k,\"ax\",@progbits\n/*zz*/ NOP ;\n", Fns, Error));
  EXPECT_NE(Error.find("line 2"), std::string::npos) << Error;
}

TEST(PtxCode, OperandsGuardsLinesAndLoops) {
  Kernel K;
  Function &F = K.fn();
  EXPECT_TRUE(F.Kernel);
  const Instr &Ld = F.Instrs[K.at("ld.global.f32")];
  EXPECT_EQ(Ld.Mem, Space::Global);
  EXPECT_EQ(Ld.Line, 5u);
  EXPECT_EQ(Ld.File, "/t/k.cu");
  ASSERT_EQ(Ld.Defs.size(), 1u);
  EXPECT_EQ(reg(F, Ld.Defs[0]), "%f1");
  ASSERT_EQ(Ld.Uses.size(), 1u);
  EXPECT_EQ(reg(F, Ld.Uses[0]), "%rd3");
  const Instr &St = F.Instrs[K.at("st.shared.f32")];
  EXPECT_TRUE(St.Defs.empty());
  EXPECT_EQ(St.Mem, Space::Shared);
  const Instr &Bra = F.Instrs[K.at("bra")];
  EXPECT_EQ(reg(F, unsigned(Bra.Guard)), "%p1");
  EXPECT_EQ(F.Instrs[K.at("ex2.approx.f32")].File,
            "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h");
  EXPECT_EQ(F.Instrs[K.at("div.rn.f32")].Class, OpClass::LongArith);
  // As the timing model runs them: a division is a chain of fixed-latency
  // instructions (its readers wait), ex2.approx one MUFU (short
  // scoreboard), a kernel's ld.param a constant operand (no memory).
  EXPECT_EQ(F.Instrs[K.at("div.rn.f32")].Latency, LatencyClass::Chain);
  EXPECT_FALSE(F.Instrs[K.at("div.rn.f32")].variableLatency());
  EXPECT_EQ(F.Instrs[K.at("ex2.approx.f32")].Latency, LatencyClass::Sfu);
  EXPECT_EQ(F.Instrs[K.at("ld.param.u64")].Class, OpClass::Arith);
  ASSERT_EQ(F.Loops.size(), 1u);
  EXPECT_EQ(F.Loops[0].Line, 5u);
  EXPECT_EQ(F.loopNest(K.at("ld.global.f32")).size(), 1u);
  EXPECT_TRUE(F.loopNest(K.at("st.global.f32")).empty());
}

// A memory dependency stall is blamed on the load, not on the add that
// also feeds the use (opcode pruning).
TEST(Blame, MemoryStallGoesToTheLoad) {
  Kernel K;
  unsigned Use = K.at("add.f32");
  K.stall(Use, "long_scoreboard", 40);
  const FunctionBlame &B = K.blameAll();
  double ToLoad = 0, Kept = 0;
  bool OpcodePruned = false;
  for (const BlameEdge &E : B.Edges) {
    if (E.Use != Use)
      continue;
    if (!*E.PrunedBy) {
      Kept += E.Samples;
      if (E.Def == K.at("ld.global.f32"))
        ToLoad += E.Samples;
      EXPECT_EQ(E.Class, DepClass::GlobalMemory);
    }
    // %f10 comes from the add itself (loop-carried): not a memory source.
    if (E.Def == Use)
      OpcodePruned = std::string(E.PrunedBy) == "opcode";
  }
  EXPECT_DOUBLE_EQ(ToLoad, 40);
  EXPECT_DOUBLE_EQ(Kept, 40);
  EXPECT_TRUE(OpcodePruned);
}

const char *Straight = R"(.version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_p0)
{
.reg .pred %p<4>;
.reg .b32 %r<20>;
.reg .f32 %f<20>;
.reg .b64 %rd<10>;
ld.param.u64 %rd1, [k_p0];
setp.ne.s64 %p1, %rd1, 0;
ld.global.f32 %f1, [%rd1+64];
@%p1 ld.global.f32 %f1, [%rd1];
@!%p1 ld.global.f32 %f1, [%rd1+4];
@%p1 ld.global.f32 %f2, [%rd1+8];
add.f32 %f3, %f2, %f2;
add.f32 %f4, %f1, %f3;
mov.f32 %f5, %f1;
add.f32 %f6, %f1, %f1;
add.f32 %f7, %f1, %f1;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f7, %f7, %f7;
add.f32 %f8, %f5, %f5;
ret;
}
)";

// Slicing continues past predicated definitions until their guards cover
// the use's: @p1 and @!p1 together cover an unguarded use, so the
// unguarded load before them is not a source.
TEST(Blame, PredicatedDefinitionsUntilCovered) {
  Kernel K(Straight);
  unsigned Use = K.at("add.f32", 1); // add.f32 %f4, %f1, %f3
  K.stall(Use, "long_scoreboard", 30);
  const FunctionBlame &B = K.blameAll();
  std::vector<unsigned> Defs;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Use && !*E.PrunedBy)
      Defs.push_back(E.Def);
  std::sort(Defs.begin(), Defs.end());
  // @p1 ld [%rd1] (3), @!p1 ld [%rd1+4] (4), @p1 ld %f2 (5, via %f3? no:
  // %f3 comes from an add, pruned by opcode).
  EXPECT_EQ(Defs, (std::vector<unsigned>{3, 4}));
  double Sum = 0;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Use)
      Sum += E.Samples;
  EXPECT_NEAR(Sum, 30, 1e-9);
}

// Eq. 1: shares proportional to (issued samples + 1) / (longest path + 1).
TEST(Blame, Equation1Apportioning) {
  Kernel K(Straight);
  unsigned Use = K.at("add.f32", 1);
  K.stall(3, "selected", 5); // @p1 ld: issued 5
  K.stall(Use, "long_scoreboard", 30);
  const FunctionBlame &B = K.blameAll();
  double S3 = 0, S4 = 0;
  unsigned D3 = 0, D4 = 0;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Use && !*E.PrunedBy) {
      (E.Def == 3 ? S3 : S4) = E.Samples;
      (E.Def == 3 ? D3 : D4) = E.MaxDistance;
    }
  EXPECT_EQ(D3, 3u); // three instructions between
  EXPECT_EQ(D4, 2u);
  double W3 = (5 + 1.0) / (D3 + 1), W4 = (0 + 1.0) / (D4 + 1);
  EXPECT_NEAR(S3, 30 * W3 / (W3 + W4), 1e-9);
  EXPECT_NEAR(S4, 30 * W4 / (W3 + W4), 1e-9);
}

// GPA's hybrid mode: a source that never ran gets nothing; the others
// share by exact executions / path length.
TEST(Blame, HybridModeUsesExactExecutions) {
  Kernel K(Straight);
  unsigned Use = K.at("add.f32", 1);
  K.stall(Use, "long_scoreboard", 30);
  std::vector<InstrStalls> S = K.Stalls["k"];
  std::vector<double> Exec(K.fn().Instrs.size(), 10);
  Exec[4] = 0; // the @!p1 load never ran
  FunctionBlame B = blame(K.fn(), S, &Exec);
  double S3 = 0;
  bool NotRun = false;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Use) {
      if (E.Def == 3)
        S3 = E.Samples;
      if (E.Def == 4)
        NotRun = std::string(E.PrunedBy) == "not executed";
    }
  EXPECT_TRUE(NotRun);
  EXPECT_DOUBLE_EQ(S3, 30);
  // Executions 30 and 10 over paths 4 and 3: 30/4 : 10/3.
  Exec[4] = 10;
  Exec[3] = 30;
  B = blame(K.fn(), S, &Exec);
  for (const BlameEdge &E : B.Edges) {
    if (E.Use == Use && E.Def == 3) {
      EXPECT_NEAR(E.Samples, 30 * (30.0 / 4) / (30.0 / 4 + 10.0 / 3), 1e-9);
    }
  }
  // The ground truth's instructions, instrumentation left out, map onto
  // the listing when their opcodes agree.
  Truth T;
  TruthInstruction Probe;
  Probe.Opcode = "atom.global.add.u64";
  Probe.Instrumentation = true;
  T.Functions["k"].Insts.push_back(Probe);
  for (const Instr &I : K.fn().Instrs) {
    TruthInstruction X;
    X.Opcode = I.Opcode;
    X.Warp = 7;
    T.Functions["k"].Insts.push_back(X);
  }
  EXPECT_EQ(exactExecutions(K.fn(), T),
            std::vector<double>(K.fn().Instrs.size(), 7));
  T.Functions["k"].Insts[2].Opcode = "mul.f32";
  EXPECT_TRUE(exactExecutions(K.fn(), T).empty());
}

// A `wait` on a division's result stays with the division (a chain of
// fixed-latency instructions), a short-scoreboard stall on it does not.
TEST(Blame, WaitOnADivisionIsBlamedOnIt) {
  Kernel K;
  unsigned Mul = K.at("mul.f32"), Div = K.at("div.rn.f32");
  K.stall(Mul, "wait", 10);
  const FunctionBlame &B = K.blameAll();
  double ToDiv = 0;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Mul && E.Def == Div && !*E.PrunedBy)
      ToDiv += E.Samples;
  EXPECT_DOUBLE_EQ(ToDiv, 10);
  Kernel S;
  S.stall(Mul, "short_scoreboard", 10);
  const FunctionBlame &BS = S.blameAll();
  for (const BlameEdge &E : BS.Edges) {
    if (E.Use == Mul && E.Def == Div) {
      EXPECT_STREQ(E.PrunedBy, "opcode");
    }
  }
}

// Dominator pruning: the unguarded mov reads %f1 between the loads and the
// stalled add, so the add's stall on %f1 cannot be the loads'.
TEST(Blame, DominatorPruning) {
  Kernel K(Straight);
  unsigned Use = K.at("add.f32", 2); // add.f32 %f6, %f1, %f1
  K.stall(Use, "long_scoreboard", 10);
  const FunctionBlame &B = K.blameAll();
  unsigned Dom = 0, Kept = 0;
  for (const BlameEdge &E : B.Edges)
    if (E.Use == Use) {
      Dom += std::string(E.PrunedBy) == "dominator";
      Kept += !*E.PrunedBy;
    }
  EXPECT_EQ(Dom, 2u);
  EXPECT_EQ(Kept, 0u);
  EXPECT_DOUBLE_EQ(B.Unexplained[Use], 10);
}

// Latency pruning: a fixed-latency result (the mov) 10 instructions back
// is ready.
TEST(Blame, LatencyPruning) {
  Kernel K(Straight);
  unsigned Use = K.at("add.f32", 12); // add.f32 %f8, %f5, %f5
  unsigned Near = K.at("add.f32", 11);
  ASSERT_EQ(K.fn().Instrs[Use].Text, "add.f32 %f8, %f5, %f5");
  K.stall(Use, "wait", 7);
  K.stall(Near, "wait", 3); // %f7 from the add right before it
  const FunctionBlame &B = K.blameAll();
  bool Latency = false;
  for (const BlameEdge &E : B.Edges) {
    if (E.Use == Use)
      Latency |= std::string(E.PrunedBy) == "latency";
    if (E.Use == Near && !*E.PrunedBy) {
      EXPECT_EQ(E.Def, Near - 1);
      EXPECT_EQ(E.Class, DepClass::Arithmetic);
      EXPECT_DOUBLE_EQ(E.Samples, 3);
    }
  }
  EXPECT_TRUE(Latency);
  EXPECT_DOUBLE_EQ(B.Unexplained[Use], 7);
}

// Single-dependency coverage (GPA Fig. 7): the add of %f1 (two predicated
// loads) is not single before or after; the add of %f7 is single.
TEST(Blame, SingleDependencyCoverage) {
  Kernel K(Straight);
  K.stall(K.at("add.f32", 1), "long_scoreboard", 1);
  K.stall(K.at("add.f32", 10), "wait", 1);
  const FunctionBlame &B = K.blameAll();
  EXPECT_EQ(B.Nodes, 2u);
  // add %f4, %f1, %f3: sources 3, 4 (global) and the add of %f3; after
  // pruning 3 and 4 remain, two of one class.
  EXPECT_EQ(B.SingleBefore, 1u);
  EXPECT_EQ(B.SingleAfter, 1u);
}

TEST(Estimators, StallElimination) {
  EXPECT_DOUBLE_EQ(stallElimination(100, 20), 1.25);
  EXPECT_DOUBLE_EQ(stallElimination(100, 0), 1.0);
  EXPECT_DOUBLE_EQ(stallElimination(100, 100), 100.0); // 99% at most
}

TEST(Estimators, LatencyHidingIsBoundedByActiveAndTwo) {
  EXPECT_DOUBLE_EQ(latencyHiding(100, 10, 50), 100.0 / 90);
  EXPECT_DOUBLE_EQ(latencyHiding(100, 60, 20), 1.25);
  EXPECT_DOUBLE_EQ(latencyHiding(100, 80, 80), 2.0);
}

// Eq. 5: the inner loop hides min(A_inner, M_inner); the outer loop only
// what is left of the active samples of both.
TEST(Estimators, ScopesNest) {
  std::vector<Scope> S = {{10, 30, -1}, {5, 3, 0}};
  // inner: min(5, 3) = 3; outer: min(10 + 5 - 3, 30) = 12.
  EXPECT_DOUBLE_EQ(hiddenByScopes(S), 15);
  std::vector<Scope> Flat = {{10, 30, -1}, {5, 3, -1}};
  EXPECT_DOUBLE_EQ(hiddenByScopes(Flat), 13);
}

// Function inlining: E eliminated (EA of it active), then latency hiding
// with what is left, at most half the rest.
TEST(Estimators, EliminationAndHiding) {
  EXPECT_DOUBLE_EQ(eliminationAndHiding(100, 55, 30, 15, 30), 2.5);
  EXPECT_DOUBLE_EQ(eliminationAndHiding(100, 20, 30, 15, 30), 100.0 / 65);
  EXPECT_DOUBLE_EQ(eliminationAndHiding(100, 90, 20, 0, 80), 100.0 / 40);
  EXPECT_DOUBLE_EQ(eliminationAndHiding(100, 50, 0, 0, 0), 1.0);
}

TEST(Estimators, Parallelism) {
  EXPECT_DOUBLE_EQ(issueRate(0.5, 2), 0.75);
  // Work per scheduler halves, issue rate drops from 0.75 to 0.5: 1.333x.
  EXPECT_NEAR(parallelism(2, 1, 2, 1, 0.5), 2 * 0.5 / 0.75, 1e-12);
  // Same work, twice the resident warps.
  EXPECT_NEAR(parallelism(1, 1, 1, 2, 0.5), 1.5, 1e-12);
}

} // namespace

namespace {
// Mutated listings give an error or a representation the blamer runs on;
// never a crash or a hang.
TEST(SassListing, MutatedListingsNeverCrash) {
  std::string Text = readFile(
      WARPSCOPE_FIXTURES "/advisor/reduction-hex/cubin-000000003b187f54.sass");
  const std::string Junk = "@!;,[]{}()%RPB.0123456789\n /*x`";
  uint64_t Seed = 12345;
  auto Next = [&]() {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return unsigned(Seed >> 33);
  };
  for (int Round = 0; Round < 200; ++Round) {
    std::string T = Text;
    for (unsigned K = 0, N = 1 + Next() % 20; K < N; ++K)
      T[Next() % T.size()] = Junk[Next() % Junk.size()];
    std::vector<Function> Fns;
    std::string Error;
    if (!parseSassListing(T, Fns, Error)) {
      EXPECT_FALSE(Error.empty());
      continue;
    }
    for (const Function &F : Fns) {
      std::vector<InstrStalls> S(F.Instrs.size());
      for (InstrStalls &X : S) {
        X.add("smsp__pcsamp_warps_issue_stalled_long_scoreboard", 1);
        X.add("smsp__pcsamp_warps_issue_stalled_wait", 1);
      }
      FunctionBlame B = blame(F, S);
      EXPECT_LE(B.SingleAfter, B.Nodes);
    }
  }
}
} // namespace

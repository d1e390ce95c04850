//===- AdvisorFixture.h - A hand-written kernel to advise on ----*- C++ -*-===//
//
// One PTX kernel with a piece of code for each GPA optimizer to find, and
// helpers to put samples on its instructions, blame them and run one
// optimizer. Tests say where the samples go; nothing here decides what an
// optimizer should report.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_TEST_ADVISORFIXTURE_H
#define WARPSCOPE_TEST_ADVISORFIXTURE_H

#include "Advice.h"
#include "Blame.h"
#include "Code.h"
#include "GroundTruth.h"
#include "ProfileModel.h"
#include <gtest/gtest.h>

namespace warpscope::advise::test {

inline const char *KernelPtx = R"(.version 8.6
.target sm_90
.address_size 64
.file 1 "/t/k.cu"
.file 2 "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h"
.visible .entry k(.param .u64 k_p0, .param .u32 k_p1)
{
.reg .pred %p<4>;
.reg .b32 %r<20>;
.reg .f32 %f<20>;
.reg .b64 %rd<10>;
.shared .align 4 .b8 sm[1024];
.loc 1 2 1
ld.param.u64 %rd1, [k_p0];
ld.param.u32 %r1, [k_p1];
mov.u32 %r2, 0;
mov.f32 %f10, 0f00000000;
$L__BB0_1:
.loc 1 5 1
mul.wide.u32 %rd2, %r2, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.f32 %f1, [%rd3];
.loc 1 6 1
add.f32 %f10, %f10, %f1;
.loc 1 7 1
ld.local.f32 %f2, [%rd3];
add.f32 %f3, %f2, %f2;
div.rn.f32 %f4, %f3, %f1;
mul.f32 %f5, %f4, %f4;
.loc 1 9 1
ld.global.nc.f32 %f11, [%rd3+4];
st.shared.f32 [sm], %f11;
bar.sync 0;
ld.shared.f32 %f6, [sm];
sub.f32 %f7, %f6, %f6;
.loc 1 11 1
ld.global.u32 %r5, [%rd3];
mul.wide.u32 %rd4, %r5, 4;
add.s64 %rd5, %rd1, %rd4;
ld.global.f32 %f8, [%rd5];
.loc 2 100 1
ex2.approx.f32 %f9, %f7;
.loc 1 13 1
add.s32 %r2, %r2, 1;
setp.lt.s32 %p1, %r2, %r1;
@%p1 bra $L__BB0_1;
.loc 1 15 1
st.global.f32 [%rd1], %f10;
ret;
}
)";

struct Kernel {
  CodeSet Code;
  std::map<std::string, std::vector<InstrStalls>> Stalls;
  std::map<std::string, FunctionBlame> Blame;
  /// Samples in which the scheduler issued, per function (the loader's
  /// FunctionBlame::Issued, from the not-issued samples); unset: unknown.
  std::map<std::string, double> Issued;
  ProfileSet Profile;
  Truth GroundTruth;
  Inputs In;
  /// Exact warp executions per instruction, by function (hybrid mode).
  std::map<std::string, std::vector<double>> Executed;

  explicit Kernel(const char *Ptx = KernelPtx) {
    std::vector<Function> Fns;
    std::string Error;
    EXPECT_TRUE(parsePtxCode(Ptx, Fns, Error)) << Error;
    Code.Granularity = "ptx";
    for (Function &F : Fns)
      Code.Functions[F.Name] = std::move(F);
    FunctionProfile P;
    P.Name = "k";
    P.Kernel = true;
    P.Loc = {"/t/k.cu", 1, 1};
    Profile.Functions.push_back(P);
  }
  Function &fn(const std::string &Name = "k") { return Code.Functions[Name]; }
  /// The N-th instruction (0-based) whose opcode is Op.
  unsigned at(const std::string &Op, unsigned N = 0) {
    for (unsigned I = 0; I < fn().Instrs.size(); ++I)
      if (fn().Instrs[I].Opcode == Op && N-- == 0)
        return I;
    ADD_FAILURE() << "no " << Op;
    return 0;
  }
  void stall(unsigned I, const std::string &Reason, double N,
             const std::string &Fn = "k") {
    std::vector<InstrStalls> &S = Stalls[Fn];
    S.resize(fn(Fn).Instrs.size());
    S[I].add("smsp__pcsamp_warps_issue_stalled_" + Reason, N);
  }
  /// Active samples spread so that T and A are what a test wants.
  void active(double N) { stall(0, "selected", N); }
  const FunctionBlame &blameAll() {
    for (auto &[Name, S] : Stalls) {
      auto E = Executed.find(Name);
      Blame[Name] =
          blame(fn(Name), S, E == Executed.end() ? nullptr : &E->second);
      auto I = Issued.find(Name);
      if (I != Issued.end())
        Blame[Name].Issued = I->second;
    }
    In.Code = &Code;
    In.Blame = &Blame;
    In.Profile = &Profile;
    In.GroundTruth = GroundTruth.Files ? &GroundTruth : nullptr;
    In.Present = {InputKind::Samples,      InputKind::Instructions,
                  InputKind::Counts,       InputKind::Divergence,
                  InputKind::LaunchConfig, InputKind::Occupancy,
                  InputKind::MemoryCounts};
    return Blame["k"];
  }
  std::vector<Advice> run(const std::string &Id) {
    blameAll();
    std::vector<Advice> Out;
    bool Found = false;
    for (auto &O : gpaOptimizers())
      if (O->id() == Id) {
        Found = true;
        O->run(In, Out);
      }
    EXPECT_TRUE(Found) << "no optimizer " << Id;
    return Out;
  }
};

/// The estimated speedup of the one advice a test expects.
inline double only(const std::vector<Advice> &A) {
  EXPECT_EQ(A.size(), 1u);
  return A.empty() ? 0 : A[0].EstimatedSpeedup;
}

} // namespace warpscope::advise::test

#endif // WARPSCOPE_TEST_ADVISORFIXTURE_H

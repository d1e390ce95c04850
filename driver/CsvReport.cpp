//===- CsvReport.cpp - CSV per kernel and per block -----------------------===//

#include "CsvReport.h"
#include "ReportFormats.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

static std::string fraction(std::optional<double> F) {
  return F ? formatv("{0:F6}", *F).str() : std::string();
}

void warpscope::renderCsvKernels(const std::vector<FunctionSummary> &Summaries,
                                 raw_ostream &OS) {
  OS << "kernel,mangled,kind,module_id,launches,warp_executions,"
        "thread_executions,simd_efficiency,branch_efficiency,"
        "branches_probed,branches_uniform,branches_divergent,visits,"
        "divergent,time_ms\n";
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    OS << csvField(F.Demangled) << ',' << csvField(F.Name) << ','
       << (F.Kernel ? "kernel" : "device") << ',' << F.ModuleId << ','
       << F.launches() << ',' << S.WarpExecutions << ',' << S.ThreadExecutions
       << ',' << fraction(S.SimdEfficiency) << ','
       << fraction(S.BranchEfficiency) << ',' << S.Probed << ',' << S.Uniform
       << ',' << S.DivergentBranches << ',' << S.Visits << ',' << S.Divergent
       << ',' << (S.TimeMs ? formatv("{0:F6}", *S.TimeMs).str() : "") << '\n';
  }
}

void warpscope::renderCsvBlocks(const std::vector<FunctionSummary> &Summaries,
                                raw_ostream &OS) {
  OS << "kernel,mangled,block,file,line,column,loop_depth,warp_executions,"
        "thread_executions,simd_efficiency\n";
  for (const FunctionSummary &S : Summaries)
    for (const BlockCounts &B : S.Function->Blocks) {
      std::optional<double> Simd;
      if (B.WarpExecutions)
        Simd = double(B.ThreadExecutions) / (32.0 * B.WarpExecutions);
      OS << csvField(S.Function->Demangled) << ',' << csvField(S.Function->Name)
         << ',' << B.Id << ',' << csvField(B.Loc.File) << ',' << B.Loc.Line
         << ',' << B.Loc.Column << ',' << B.LoopDepth << ',' << B.WarpExecutions
         << ',' << B.ThreadExecutions << ',' << fraction(Simd) << '\n';
    }
}

//===- AdviseCommand.cpp - warpscope advise -------------------------------===//
//
// warpscope advise DIR [--kernel REGEX] [--top N] [--format F] [-o FILE]
// [--what-if]:
// what to change in each kernel and what it would buy (issue 18,
// docs/advisor.md).
//
//===----------------------------------------------------------------------===//

#include "../Commands.h"
#include "../FormatOption.h"
#include "../Ranks.h"
#include "AdviseRender.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace warpscope;
using namespace warpscope::advise;

cl::SubCommand warpscope::AdviseSub(
    "advise", "What to change in each kernel, ranked by estimated speedup "
              "(GPA's blamer, optimizers and estimators, with exact counts)");

static cl::opt<std::string> AdviseDir(cl::Positional, cl::desc("<profile dir>"),
                                      cl::Required, cl::sub(AdviseSub));
static FormatOption
    AdviseFormat("format", cl::desc("Output format"),
                 formats{{OutputFormat::Text, "a list per kernel (default)"},
                         {OutputFormat::Json, "one JSON object"},
                         {OutputFormat::Html, "an HTML page"},
                         {OutputFormat::Sarif, "a SARIF 2.1.0 log"}},
                 cl::sub(AdviseSub));
static cl::opt<std::string>
    AdviseKernelFilter("kernel",
                       cl::desc("Only kernels whose mangled or demangled name "
                                "matches this regex"),
                       cl::init(""), cl::sub(AdviseSub));
static cl::opt<unsigned> AdviseTop(
    "top",
    cl::desc("Advice kept per kernel (0 = all; default 5 for text and "
             "html, all for json and sarif)"),
    cl::init(5), cl::sub(AdviseSub));
// `report`'s option of the same name (one per subcommand: options are
// registered as each file's statics are made).
static cl::list<std::string> AdvisePathEquivalences(
    "path-equivalence",
    cl::desc("Read the sources the build recorded under <from> from under "
             "<to> (as llvm-cov's), for a program built elsewhere; "
             "repeatable, the first that holds a file wins"),
    cl::value_desc("from,to"), cl::sub(AdviseSub));
static cl::opt<std::string> AdviseOutFile("o",
                                          cl::desc("Write here, not stdout"),
                                          cl::value_desc("file"), cl::init("-"),
                                          cl::sub(AdviseSub));
static cl::opt<std::string> AdviseRankList(
    "rank",
    cl::desc("Only the files of these MPI ranks' processes, e.g. "
             "0,3,8-15"),
    cl::value_desc("list"), cl::init(""), cl::sub(AdviseSub));

static cl::opt<bool> WhatIf(
    "what-if",
    cl::desc("Estimate advice whose change is a launch or machine parameter "
             "(occupancy limit, block or thread count of a grid-stride loop) "
             "by running the recorded program again on the emulator with the "
             "change (one run each; docs/advisor.md)"),
    cl::sub(AdviseSub));

int warpscope::runAdvise() {
  auto Error = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope advise") << Msg << "\n";
    return 2;
  };
  if (std::string Bad = applyPathEquivalences(AdvisePathEquivalences);
      !Bad.empty())
    return Error(Bad);
  std::string RegexError;
  if (!AdviseKernelFilter.empty() &&
      !Regex(AdviseKernelFilter).isValid(RegexError))
    return Error("--kernel '" + AdviseKernelFilter +
                 "' is not a valid regex: " + RegexError);
  RunDirectory Run(AdviseDir);
  if (AdviseRankList.getNumOccurrences())
    if (llvm::Error E = chooseRanks(AdviseRankList, {&Run}))
      return Error(toString(std::move(E)));
  Expected<std::unique_ptr<LoadedInputs>> L = loadAdviseInputs(Run);
  if (!L)
    return Error(toString(L.takeError()));
  unsigned Keep = AdviseTop;
  if (!AdviseTop.getNumOccurrences() && (AdviseFormat == OutputFormat::Json ||
                                         AdviseFormat == OutputFormat::Sarif))
    Keep = 0;
  std::vector<std::unique_ptr<Optimizer>> Opts = allOptimizers();
  std::optional<WhatIfRunner> Runner;
  if (WhatIf)
    Runner = programRunner(Run, (*L)->In);
  AdviceReport R = runAdvisor(**L, Opts, AdviseKernelFilter, Keep,
                              Runner ? &*Runner : nullptr);
  std::error_code EC;
  raw_fd_ostream OS(AdviseOutFile, EC, sys::fs::OF_Text);
  if (EC)
    return Error("cannot write '" + AdviseOutFile + "': " + EC.message());
  if (AdviseFormat == OutputFormat::Text)
    renderAdviceText(R, OS);
  else if (AdviseFormat == OutputFormat::Json)
    OS << formatv("{0:2}", renderAdviceJson(R)) << "\n";
  else if (AdviseFormat == OutputFormat::Sarif)
    OS << formatv("{0:2}", renderAdviceSarif(R, Opts, WARPSCOPE_VERSION))
       << "\n";
  else
    OS << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>"
          "WarpScope advice</title></head><body>\n"
       << renderAdviceHtml(R) << "</body></html>\n";
  return 0;
}

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

static cl::opt<std::string> Dir(cl::Positional, cl::desc("<profile dir>"),
                                cl::Required, cl::sub(AdviseSub));
static FormatOption
    Format("format", cl::desc("Output format"),
           formats{{OutputFormat::Text, "a list per kernel (default)"},
                   {OutputFormat::Json, "one JSON object"},
                   {OutputFormat::Html, "an HTML page"},
                   {OutputFormat::Sarif, "a SARIF 2.1.0 log"}},
           cl::sub(AdviseSub));
static cl::opt<std::string>
    KernelFilter("kernel",
                 cl::desc("Only kernels whose mangled or demangled name "
                          "matches this regex"),
                 cl::init(""), cl::sub(AdviseSub));
static cl::opt<unsigned>
    Top("top",
        cl::desc("Advice kept per kernel (0 = all; default 5 for text and "
                 "html, all for json and sarif)"),
        cl::init(5), cl::sub(AdviseSub));
// `report`'s option of the same name (one per subcommand: options are
// registered as each file's statics are made).
static cl::list<std::string> PathEquivalences(
    "path-equivalence",
    cl::desc("Read the sources the build recorded under <from> from under "
             "<to> (as llvm-cov's), for a program built elsewhere; "
             "repeatable, the first that holds a file wins"),
    cl::value_desc("from,to"), cl::sub(AdviseSub));
static cl::opt<std::string> OutFile("o", cl::desc("Write here, not stdout"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::sub(AdviseSub));
static cl::opt<std::string>
    RankList("rank",
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
  if (std::string Bad = applyPathEquivalences(PathEquivalences); !Bad.empty())
    return Error(Bad);
  std::string RegexError;
  if (!KernelFilter.empty() && !Regex(KernelFilter).isValid(RegexError))
    return Error("--kernel '" + KernelFilter +
                 "' is not a valid regex: " + RegexError);
  RunDirectory Run(Dir);
  if (RankList.getNumOccurrences())
    if (llvm::Error E = chooseRanks(RankList, {&Run}))
      return Error(toString(std::move(E)));
  Expected<std::unique_ptr<LoadedInputs>> L = loadAdviseInputs(Run);
  if (!L)
    return Error(toString(L.takeError()));
  unsigned Keep = Top;
  if (!Top.getNumOccurrences() &&
      (Format == OutputFormat::Json || Format == OutputFormat::Sarif))
    Keep = 0;
  std::vector<std::unique_ptr<Optimizer>> Opts = allOptimizers();
  std::optional<WhatIfRunner> Runner;
  if (WhatIf)
    Runner = programRunner(Run, (*L)->In);
  AdviceReport R =
      runAdvisor(**L, Opts, KernelFilter, Keep, Runner ? &*Runner : nullptr);
  std::error_code EC;
  raw_fd_ostream OS(OutFile, EC, sys::fs::OF_Text);
  if (EC)
    return Error("cannot write '" + OutFile + "': " + EC.message());
  if (Format == OutputFormat::Text)
    renderAdviceText(R, OS);
  else if (Format == OutputFormat::Json)
    OS << formatv("{0:2}", renderAdviceJson(R)) << "\n";
  else if (Format == OutputFormat::Sarif)
    OS << formatv("{0:2}", renderAdviceSarif(R, Opts, WARPSCOPE_VERSION))
       << "\n";
  else
    OS << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>"
          "WarpScope advice</title></head><body>\n"
       << renderAdviceHtml(R) << "</body></html>\n";
  return 0;
}

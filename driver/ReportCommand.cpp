//===- ReportCommand.cpp - warpscope report -------------------------------===//

#include "ClusterReport.h"
#include "Commands.h"
#include "CsvReport.h"
#include "FormatOption.h"
#include "HtmlSource.h"
#include "LeftOutReport.h"
#include "MemoryReport.h"
#include "ModeledTime.h"
#include "Prediction.h"
#include "ProfileModel.h"
#include "Ranks.h"
#include "Report.h"
#include "ReportFormats.h"
#include "RunDirectory.h"
#include "SarifFormat.h"
#include "SassMetrics.h"
#include "SourceText.h"
#include "StallReport.h"
#include "advise/AdviseRender.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::ReportSub(
    "report", "Report a profile directory: per-kernel metrics and the "
              "divergence map");

static cl::opt<std::string> ReportDir(cl::Positional, cl::desc("<profile dir>"),
                                      cl::Required, cl::sub(ReportSub));
static FormatOption ReportFormat(
    "format", cl::desc("Output format"),
    formats{{OutputFormat::Text, "a table (default)"},
            {OutputFormat::Json, "one JSON object"},
            {OutputFormat::Csv,
             "a row per branch, block, kernel or rank (--csv-rows)"},
            {OutputFormat::Html, "a page with the source view"},
            {OutputFormat::Sarif, "a SARIF 2.1.0 log"}},
    cl::sub(ReportSub));
static cl::opt<std::string>
    ReportKernelFilter("kernel",
                       cl::desc("Only functions whose mangled or "
                                "demangled name matches this regex"),
                       cl::init(""), cl::sub(ReportSub));
static cl::opt<unsigned>
    ReportTop("top", cl::desc("Branches shown per kernel in text (0 = all)"),
              cl::init(10), cl::sub(ReportSub));
static cl::opt<double> SarifThreshold(
    "sarif-min-rate",
    cl::desc("SARIF: report branches whose divergence rate is at least this "
             "fraction"),
    cl::init(0.1), cl::sub(ReportSub));
static cl::opt<std::string>
    CsvRows("csv-rows",
            cl::desc("CSV: one row per branch (default), block, kernel, or "
                     "kernel and MPI rank"),
            cl::value_desc("branches|blocks|kernels|ranks"),
            cl::init("branches"), cl::sub(ReportSub));
static cl::opt<std::string> ReportRankList(
    "rank",
    cl::desc("Only the profiles of these MPI ranks, e.g. 0,3,8-15 "
             "(and their processes' other files)"),
    cl::value_desc("list"), cl::init(""), cl::sub(ReportSub));
static cl::opt<std::string> SourceRoot(
    "srcroot",
    cl::desc("SARIF: artifact URIs relative to this directory (uriBaseId "
             "SRCROOT), e.g. the repository's checkout"),
    cl::value_desc("dir"), cl::init(""), cl::sub(ReportSub));
static cl::list<std::string> ReportPathEquivalences(
    "path-equivalence",
    cl::desc("Read the sources the build recorded under <from> from under "
             "<to> (as llvm-cov's), for a program built elsewhere; "
             "repeatable, the first that holds a file wins"),
    cl::value_desc("from,to"), cl::sub(ReportSub));
static cl::opt<bool> PlainHistogram(
    "plain-histogram",
    cl::desc("Text: also each function's plain-build PTX instructions by "
             "opcode (the program compiled without the plugin, counts from "
             "the instrumented run; where its blocks map one to one)"),
    cl::init(false), cl::sub(ReportSub));
static cl::opt<std::string> ReportPredictGpu(
    "predict-gpu",
    cl::desc("text, json: add each kernel's time predicted on this GPU by "
             "its shipped model (labelled a prediction, with its error)"),
    cl::value_desc("name"), cl::sub(ReportSub));
static cl::opt<std::string>
    PredictModelFile("predict-model",
                     cl::desc("text, json: as --predict-gpu, with a model "
                              "file"),
                     cl::value_desc("file"), cl::sub(ReportSub));
static cl::opt<std::string> ReportOutFile("o",
                                          cl::desc("Write here, not stdout"),
                                          cl::value_desc("file"), cl::init("-"),
                                          cl::sub(ReportSub));

/// A run of an uninstrumented program with --pc-sampling or --sass-metrics
/// leaves the hardware's files and no profile, one under --emulate the
/// emulator's ground truth: those are reported alone.
static bool hardwareOnly(RunDirectory &Run) {
  return !Run.has(files::Profile) && !Run.listError() &&
         (Run.has(files::PcSamples) || Run.has(files::SassMetrics) ||
          Run.has(files::Truth));
}

static ProfileSet hardwareOnlySet(RunDirectory &Run) {
  ProfileSet Set;
  Set.Directory = Run.path();
  bool Hardware = Run.has(files::PcSamples) || Run.has(files::SassMetrics);
  Set.Program = Hardware ? "(not instrumented: hardware data only)"
                         : "(not instrumented: emulator ground truth only)";
  Set.Mode = "none";
  if (std::optional<std::string> Merged = Run.mergedRunsNote())
    Set.Warnings.push_back(*Merged);
  return Set;
}

/// Why --csv-rows or --srcroot is misused, or "".
static std::string misusedCsvOrSarifOption() {
  if (CsvRows != "branches" && CsvRows != "blocks" && CsvRows != "kernels" &&
      CsvRows != "ranks")
    return "--csv-rows '" + CsvRows +
           "' is not one of branches, blocks, kernels, ranks";
  if (CsvRows.getNumOccurrences() && ReportFormat != OutputFormat::Csv)
    return "--csv-rows applies to --format csv only";
  if (SourceRoot.getNumOccurrences() && ReportFormat != OutputFormat::Sarif)
    return "--srcroot applies to --format sarif only";
  return "";
}

std::string
warpscope::applyPathEquivalences(const std::vector<std::string> &Args) {
  std::vector<PathEquivalence> All;
  for (const std::string &Arg : Args) {
    auto [From, To] = StringRef(Arg).split(',');
    if (From.empty() || To.empty())
      return "--path-equivalence '" + Arg +
             "' is not <from>,<to> (two directories, a comma between)";
    All.push_back({From.str(), To.str()});
  }
  setPathEquivalences(std::move(All));
  return "";
}

/// The text report's last section: what the run left out.
static void renderLeftOutText(const LeftOut &L, bool MemoryView,
                              raw_ostream &OS) {
  std::vector<std::string> Lines = leftOutLines(L);
  // The ground truth is the emulator's, of every launch.
  if (MemoryView && !L.LaunchesLeftOut.empty())
    Lines.push_back("the memory view below is the emulator's ground truth "
                    "of every launch, the left-out ones included");
  if (Lines.empty())
    return;
  OS << "\nleft out:\n";
  for (const std::string &Line : Lines)
    OS << "  " << Line << "\n";
}

/// SARIF: the profile's warnings become notifications, what it left out
/// notes; Root is --srcroot as sarifSourceRoot resolved it, or "".
static void renderSarifLog(const ProfileSet &Set,
                           const std::vector<FunctionSummary> &S,
                           const std::string &Root,
                           const std::optional<ClusterView> &Cluster,
                           raw_ostream &OS) {
  SourceText Sources(Set.SourceHashes);
  SarifContext Context;
  Context.Sources = &Sources;
  Context.Notifications = Set.Warnings;
  Context.Notes = leftOutLines(Set.Left);
  Context.SourceRoot = Root;
  OS << formatv("{0:2}", renderSarif(S, SarifThreshold, Context,
                                     Cluster ? &*Cluster : nullptr))
     << "\n";
}

/// The report's optional sections: each present when the directory holds
/// what it is made from.
struct Sections {
  std::optional<StallView> Stalls;
  std::optional<SassMetricsSummary> Sass;
  std::optional<MemoryView> Memory;
  std::optional<ModeledTimeView> Modeled;
  std::optional<advise::AdviceReport> Advice;
  /// --predict-gpu/--predict-model: the model and its rows' predictions.
  std::unique_ptr<ChosenModel> Predictor;
  std::unique_ptr<FeatureRowSet> PredictedRows;
  std::vector<RowPrediction> Predictions;
  /// HTML: the emulator's ground truth, for the PTX beside the source.
  const Truth *Ptx = nullptr;
  std::optional<ClusterView> Cluster; ///< two ranks or more
};

/// The text section of predicted times.
static void renderPredictedText(const Sections &X, raw_ostream &OS) {
  OS << "\nPredicted " << predictionTitle(X.Predictor->M)
     << " (a prediction, not a measurement):\n";
  renderModelLabel(*X.Predictor, OS, "  ");
  const auto &Rows = X.PredictedRows->Rows;
  for (size_t I = 0; I < Rows.size(); ++I) {
    const FeatureRow &R = Rows[I];
    const LaunchGroup &L = *R.Launch;
    OS << formatv(
        "  {0} grid {1}x{2}x{3} block {4}x{5}x{6}: ", R.function().Demangled,
        L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0], L.Block[1], L.Block[2]);
    const RowPrediction &P = X.Predictions[I];
    if (P.PerLaunch)
      OS << formatPrediction(X.Predictor->M, *P.PerLaunch) << " per launch ("
         << (P.WithEmulator ? "counts + emulator" : "counts") << ")\n";
    else
      OS << "no prediction: " << P.Why << "\n";
  }
}

/// The JSON member of predicted times.
static json::Value renderPredictedJson(const Sections &X) {
  json::Array Rows;
  const auto &Rs = X.PredictedRows->Rows;
  for (size_t I = 0; I < Rs.size(); ++I) {
    const LaunchGroup &L = *Rs[I].Launch;
    json::Object O{{"kernel", Rs[I].function().Demangled},
                   {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
                   {"block", json::Array{L.Block[0], L.Block[1], L.Block[2]}}};
    const RowPrediction &P = X.Predictions[I];
    if (P.PerLaunch) {
      O["predicted_per_launch"] = *P.PerLaunch;
      O["held_out"] = heldOutFor(X.Predictor->M, P.WithEmulator);
    } else {
      O["no_prediction"] = P.Why;
    }
    Rows.push_back(std::move(O));
  }
  return json::Object{{"model", modelLabelJson(*X.Predictor)},
                      {"rows", std::move(Rows)}};
}

static void renderReportHtml(const ProfileSet &Set,
                             const std::vector<FunctionSummary> &S,
                             const Sections &X, raw_ostream &OS);

/// Writes the report in --format with the sections X holds.
static void renderReport(const ProfileSet &Set,
                         const std::vector<FunctionSummary> &S,
                         const Sections &X, const std::string &Root,
                         raw_ostream &OS) {
  if (ReportFormat == OutputFormat::Text) {
    renderText(Set, S, ReportTop, OS, PlainHistogram);
    renderLeftOutText(Set.Left, bool(X.Memory), OS);
    if (X.Sass)
      renderSassSummaryText(*X.Sass, OS);
    if (X.Stalls)
      renderStallText(*X.Stalls, ReportTop, OS);
    if (X.Memory)
      renderMemoryText(*X.Memory, OS);
    if (X.Modeled)
      renderModeledText(*X.Modeled, OS);
    if (X.Predictor)
      renderPredictedText(X, OS);
    if (X.Advice) {
      OS << "\n";
      advise::renderAdviceText(*X.Advice, OS);
    }
    if (X.Cluster)
      renderClusterText(*X.Cluster, OS);
  } else if (ReportFormat == OutputFormat::Json) {
    json::Value Report = renderJson(Set, S);
    Report.getAsObject()->try_emplace("left_out", leftOutJson(Set.Left));
    if (X.Sass)
      Report.getAsObject()->try_emplace("sass_metrics",
                                        renderSassSummaryJson(*X.Sass));
    if (X.Stalls)
      Report.getAsObject()->try_emplace("stall_view",
                                        renderStallJson(*X.Stalls));
    if (X.Memory)
      Report.getAsObject()->try_emplace("memory_view",
                                        renderMemoryJson(*X.Memory));
    if (X.Modeled)
      Report.getAsObject()->try_emplace("modeled_time",
                                        renderModeledJson(*X.Modeled));
    if (X.Predictor)
      Report.getAsObject()->try_emplace("predicted", renderPredictedJson(X));
    if (X.Advice)
      Report.getAsObject()->try_emplace("advice",
                                        advise::renderAdviceJson(*X.Advice));
    if (X.Cluster)
      Report.getAsObject()->try_emplace("ranks", renderClusterJson(*X.Cluster));
    OS << formatv("{0:2}", Report) << "\n";
  } else if (ReportFormat == OutputFormat::Csv && CsvRows == "ranks") {
    if (X.Cluster)
      renderClusterCsv(*X.Cluster, OS);
  } else if (ReportFormat == OutputFormat::Csv && CsvRows == "kernels")
    renderCsvKernels(S, OS);
  else if (ReportFormat == OutputFormat::Csv && CsvRows == "blocks")
    renderCsvBlocks(S, OS);
  else if (ReportFormat == OutputFormat::Csv)
    renderCsv(S, OS);
  else if (ReportFormat == OutputFormat::Sarif)
    renderSarifLog(Set, S, Root, X.Cluster, OS);
  else
    renderReportHtml(Set, S, X, OS);
}

/// The HTML page: the per-line figures in the source view, the sections
/// after it.
static void renderReportHtml(const ProfileSet &Set,
                             const std::vector<FunctionSummary> &S,
                             const Sections &X, raw_ostream &OS) {
  SourceExtras Extras = buildSourceExtras(
      X.Ptx, X.Memory ? &*X.Memory : nullptr, X.Stalls ? &*X.Stalls : nullptr);
  if (!X.Stalls && !X.Sass && !X.Memory && !X.Modeled && !X.Advice &&
      !X.Cluster && Set.Left.empty())
    renderHtml(Set, S, OS, &Extras);
  else {
    std::string Page;
    raw_string_ostream PS(Page);
    renderHtml(Set, S, PS, &Extras);
    std::string Sections = leftOutHtml(Set.Left);
    if (X.Sass)
      Sections += renderSassSummaryHtml(*X.Sass);
    if (X.Stalls)
      Sections += renderStallHtml(*X.Stalls);
    if (X.Memory)
      Sections += renderMemoryHtml(*X.Memory);
    if (X.Modeled)
      Sections += renderModeledHtml(*X.Modeled);
    if (X.Advice)
      Sections += advise::renderAdviceHtml(*X.Advice);
    if (X.Cluster)
      Sections += renderClusterHtml(*X.Cluster);
    size_t End = Page.rfind("</body>");
    Page.insert(End == std::string::npos ? Page.size() : End, Sections);
    OS << Page;
  }
}

/// --predict-gpu/--predict-model: the model's predictions for the
/// profile's kernel rows.
static llvm::Error addPredictions(RunDirectory &Run, const ProfileSet &Set,
                                  Sections &X) {
  if (ReportPredictGpu.empty() && PredictModelFile.empty())
    return llvm::Error::success();
  if (ReportFormat != OutputFormat::Text && ReportFormat != OutputFormat::Json)
    return createStringError("--predict-gpu and --predict-model apply to "
                             "--format text and json");
  Expected<std::unique_ptr<ChosenModel>> C =
      chooseModel(ReportPredictGpu, PredictModelFile);
  if (!C)
    return C.takeError();
  Expected<std::unique_ptr<FeatureRowSet>> RS =
      featureRows(Run, Set, "warpscope report");
  if (!RS)
    return RS.takeError();
  std::string Warning;
  Expected<std::vector<RowPrediction>> P =
      predictRows((*C)->M, (*RS)->Rows, &Warning);
  if (!P)
    return P.takeError();
  if (!Warning.empty())
    WithColor::warning(errs(), "warpscope report")
        << ReportDir << ": " << Warning << "\n";
  X.Predictor = std::move(*C);
  X.PredictedRows = std::move(*RS);
  X.Predictions = std::move(*P);
  return llvm::Error::success();
}

int warpscope::runReport() {
  auto Error = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope report") << Msg << "\n";
    return 2;
  };
  // 0 <= x <= 1 (written so that NaN fails too).
  if (!(SarifThreshold >= 0 && SarifThreshold <= 1))
    return Error("--sarif-min-rate " +
                 formatv("{0}", SarifThreshold.getValue()).str() +
                 " is not a fraction between 0 and 1");
  if (SarifThreshold.getNumOccurrences() && ReportFormat != OutputFormat::Sarif)
    return Error("--sarif-min-rate applies to --format sarif only");
  if (std::string Bad = misusedCsvOrSarifOption(); !Bad.empty())
    return Error(Bad);
  if (std::string Bad = applyPathEquivalences(ReportPathEquivalences);
      !Bad.empty())
    return Error(Bad);
  std::string Root;
  if (!SourceRoot.empty()) {
    Expected<std::string> R = sarifSourceRoot(SourceRoot);
    if (!R)
      return Error(toString(R.takeError()));
    Root = *R;
  }
  if (ReportTop.getNumOccurrences() && ReportFormat != OutputFormat::Text)
    return Error("--top applies to --format text only; the other formats "
                 "list every branch");
  // Every file of the directory is read once, through Run: the advice
  // section and the predictions below share what the views read.
  RunDirectory Run(ReportDir);
  if (ReportRankList.getNumOccurrences())
    if (llvm::Error E = chooseRanks(ReportRankList, {&Run}))
      return Error(toString(std::move(E)));
  std::optional<ProfileSet> HardwareOnly;
  if (hardwareOnly(Run))
    HardwareOnly = hardwareOnlySet(Run);
  Expected<const ProfileSet &> Set =
      HardwareOnly ? Expected<const ProfileSet &>(*HardwareOnly)
                   : Run.profiles();
  if (!Set)
    return Error(toString(Set.takeError()));
  Expected<std::vector<FunctionSummary>> S =
      summarize(*Set, ReportKernelFilter);
  if (!S)
    return Error(toString(S.takeError()));
  // PC samples, when the run collected them, add the stall view.
  Expected<std::optional<StallView>> Stalls =
      loadStallView(Run, *Set, ReportKernelFilter);
  if (!Stalls)
    return Error(toString(Stalls.takeError()));
  // SASS metrics, when the run collected them, add the hardware's numbers
  // beside ours.
  Expected<const std::optional<SassMetricsSet> &> Sass = Run.sassMetrics();
  if (!Sass)
    return Error(toString(Sass.takeError()));
  // The emulator's ground truth, when the run was emulated: the memory
  // view, the modeled time (with the timing model) and, in HTML, the PTX
  // beside the source come from it.
  Expected<const Truth &> GroundTruth = Run.truth();
  if (!GroundTruth)
    return Error(toString(GroundTruth.takeError()));
  std::optional<MemoryView> Memory;
  if (GroundTruth->Files)
    Memory = buildMemoryView(*GroundTruth, ReportKernelFilter);
  std::optional<ModeledTimeView> Modeled =
      buildModeledTime(*GroundTruth, ReportKernelFilter);
  // PC samples, SASS metrics and the ground truth may name kernels the
  // profile does not.
  if (S->empty() && !ReportKernelFilter.empty() && !*Stalls && !*Sass &&
      (!Memory || Memory->Functions.empty())) {
    Expected<std::vector<FunctionSummary>> All = summarize(*Set, "");
    if (All && !All->empty())
      return Error("--kernel '" + ReportKernelFilter +
                   "' matches none of the " + Twine(All->size()) +
                   " functions that ran (such as " +
                   All->front().Function->Demangled + ")");
    if (!All)
      consumeError(All.takeError());
  }
  // PC samples with the listing that numbers them add the advisor's
  // section (docs/advisor.md); `warpscope advise` says more.
  std::optional<advise::AdviceReport> Advice;
  if (*Stalls || Run.has(files::PcSamples)) {
    Expected<std::unique_ptr<advise::LoadedInputs>> L =
        advise::loadAdviseInputs(Run);
    if (!L)
      WithColor::warning(errs(), "warpscope report")
          << "no advice: " << toString(L.takeError()) << "\n";
    else if ((*L)->In.has(advise::InputKind::Samples))
      Advice =
          advise::runAdvisor(**L, advise::allOptimizers(), ReportKernelFilter,
                             ReportFormat == OutputFormat::Json ? 0 : 5);
  }
  std::optional<SassMetricsSummary> SassSummary;
  if (*Sass)
    SassSummary = joinSassMetrics(*S, **Sass, ReportKernelFilter);
  std::error_code EC;
  raw_fd_ostream OS(ReportOutFile, EC, sys::fs::OF_Text);
  if (EC)
    return Error("cannot write '" + ReportOutFile + "': " + EC.message());
  Sections X{std::move(*Stalls),
             std::move(SassSummary),
             std::move(Memory),
             std::move(Modeled),
             std::move(Advice),
             nullptr,
             nullptr,
             {},
             nullptr,
             clusterView(*Set, ReportKernelFilter)};
  if (ReportFormat == OutputFormat::Csv && CsvRows == "ranks" && !X.Cluster)
    return Error("--csv-rows ranks: '" + ReportDir +
                 "' holds the profile of fewer than two MPI ranks");
  if (llvm::Error E = addPredictions(Run, *Set, X))
    return Error(toString(std::move(E)));
  if (ReportFormat == OutputFormat::Html &&
      X.Memory) // emulated: PTX beside the source
    X.Ptx = &*GroundTruth;
  renderReport(*Set, *S, X, Root, OS);
  return 0;
}

//===- SassMetrics.cpp - sassmetrics-*.json, summed per function ----------===//

#include "SassMetrics.h"
#include "JsonFiles.h"
#include "warpscope/ABI/Files.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;

StringRef warpscope::sassCounterSuffix(SassCounter C) {
  switch (C) {
  case SassCounter::InstExecuted:
    return "sass_inst_executed";
  case SassCounter::ThreadInstExecuted:
    return "sass_thread_inst_executed";
  case SassCounter::BranchTargets:
    return "sass_branch_targets";
  case SassCounter::BranchTargetsUniform:
    return "sass_branch_targets_threads_uniform";
  case SassCounter::BranchTargetsDivergent:
    return "sass_branch_targets_threads_divergent";
  }
  llvm_unreachable("unknown SASS counter");
}

static Error sassMetricsError(const Twine &File, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           File + ": " + What +
                               "; rerun `warpscope run --sass-metrics`");
}

/// The collected metric that gives C: the one named <unit>__<suffix>,
/// smsp__ first when the chip offers it at several units (summing two
/// units would count every execution twice).
static std::optional<std::string>
pickMetric(const std::vector<std::string> &Collected, SassCounter C) {
  std::string Suffix = ("__" + sassCounterSuffix(C)).str();
  std::optional<std::string> Pick;
  for (const std::string &Name : Collected) {
    if (!StringRef(Name).ends_with(Suffix))
      continue;
    if (Name == "smsp" + Suffix)
      return Name;
    if (!Pick || Name < *Pick)
      Pick = Name;
  }
  return Pick;
}

static Error loadOne(const std::string &Path, SassMetricsSet &Set) {
  Expected<json::Object> Read =
      readSchemaObject(Path, schema::SassMetrics, [&](const Twine &What) {
        return sassMetricsError(Path, What);
      });
  if (!Read)
    return Read.takeError();
  const json::Object *Top = &*Read;
  const json::Array *CollectedV = Top->getArray("collected_metrics");
  std::optional<uint64_t> Dropped =
      Top->get("dropped_records") ? Top->get("dropped_records")->getAsUINT64()
                                  : std::nullopt;
  const json::Array *Pcs = Top->getArray("pcs");
  if (!CollectedV || !Dropped || !Pcs)
    return sassMetricsError(Path,
                            "lacks collected_metrics, dropped_records or pcs");
  // Plain copies of checked optionals (GCC 12 misreads optionals as unset).
  const uint64_t DroppedRecords = *Dropped;
  std::vector<std::string> Collected;
  for (const json::Value &N : *CollectedV) {
    std::optional<StringRef> S = N.getAsString();
    if (!S)
      return sassMetricsError(Path, "collected_metrics[] holds a non-string");
    Collected.push_back(S->str());
  }
  std::set<std::string> CollectedSet(Collected.begin(), Collected.end());
  if (const json::Value *Chip = Top->get("chip")) {
    std::optional<StringRef> S = Chip->getAsString();
    if (!S)
      return sassMetricsError(Path, "'chip' is not a string");
    if (!S->empty() &&
        std::find(Set.Chips.begin(), Set.Chips.end(), *S) == Set.Chips.end())
      Set.Chips.push_back(S->str());
  }
  StringRef Name = sys::path::filename(Path);
  if (const json::Value *Errors = Top->get("errors")) {
    const json::Array *A = Errors->getAsArray();
    if (!A)
      return sassMetricsError(Path, "'errors' is not an array");
    for (const json::Value &E : *A) {
      std::optional<StringRef> S = E.getAsString();
      if (!S)
        return sassMetricsError(Path, "errors[] holds a non-string");
      Set.Warnings.push_back((Name + ": " + *S).str());
    }
  }
  Set.DroppedRecords += DroppedRecords;
  if (DroppedRecords)
    Set.Warnings.push_back(
        (Name + ": " + Twine(DroppedRecords) +
         " SASS record(s) were dropped when collection stopped; the "
         "hardware counts are lower bounds")
            .str());

  std::array<std::optional<std::string>, NumSassCounters> Metric;
  for (unsigned C = 0; C < NumSassCounters; ++C)
    Metric[C] = pickMetric(Collected, SassCounter(C));
  // GH100 offers no *__sass_branch_targets, only its two parts. Every
  // branch target is uniform or divergent (Nsight Compute's three counters
  // agreed so on all 274 kernel launches of the benchmark suite on an
  // H100), so where the total is missing the parts' sum stands in.
  const unsigned Targets = unsigned(SassCounter::BranchTargets),
                 Uniform = unsigned(SassCounter::BranchTargetsUniform),
                 Divergent = unsigned(SassCounter::BranchTargetsDivergent);
  bool SumParts = !Metric[Targets] && Metric[Uniform] && Metric[Divergent];
  if (SumParts)
    Metric[Targets] = *Metric[Uniform] + " + " + *Metric[Divergent];

  std::set<std::tuple<std::string, std::string, uint64_t>> Seen;
  for (const json::Value &PV : *Pcs) {
    const json::Object *P = PV.getAsObject();
    std::optional<StringRef> Crc = P ? P->getString("cubin_crc") : std::nullopt;
    std::optional<StringRef> Fn = P ? P->getString("function") : std::nullopt;
    const json::Value *OffV = P ? P->get("pc_offset") : nullptr;
    std::optional<uint64_t> Off = OffV ? OffV->getAsUINT64() : std::nullopt;
    const json::Object *Values = P ? P->getObject("metrics") : nullptr;
    if (!Crc || !Fn || Fn->empty() || !Off || !Values)
      return sassMetricsError(
          Path, "a pcs[] entry lacks cubin_crc, function, pc_offset "
                "or metrics");
    const uint64_t Offset = *Off;
    std::string Where = ("pc " + Twine(Offset) + " of " + *Fn).str();
    if (!Seen.insert({Crc->str(), Fn->str(), Offset}).second)
      return sassMetricsError(Path,
                              Where + " appears twice; the file is damaged");
    for (const auto &[MName, MValue] : *Values) {
      if (!CollectedSet.count(MName.str()))
        return sassMetricsError(
            Path, Where + " has metric '" + MName.str() +
                      "', which collected_metrics does not list; the "
                      "file is damaged");
      if (!MValue.getAsUINT64())
        return sassMetricsError(Path, "metric '" + MName.str() + "' at " +
                                          Where + " is not a count");
    }
    std::array<uint64_t, NumSassCounters> At{};
    for (unsigned C = 0; C < NumSassCounters; ++C)
      if (Metric[C])
        if (const json::Value *X = Values->get(*Metric[C]))
          At[C] = *X->getAsUINT64();
    if (SumParts) {
      if (At[Uniform] > UINT64_MAX - At[Divergent])
        return sassMetricsError(Path,
                                Where + " has more branch targets than a count "
                                        "holds; the file is damaged");
      At[Targets] = At[Uniform] + At[Divergent];
    }

    // What the definitions imply at every instruction: a warp has at most
    // 32 active threads, uniform and divergent targets are branch targets.
    auto Has = [&](SassCounter C) { return bool(Metric[unsigned(C)]); };
    auto Val = [&](SassCounter C) { return At[unsigned(C)]; };
    using SC = SassCounter;
    if (Has(SC::InstExecuted) && Has(SC::ThreadInstExecuted) &&
        Val(SC::InstExecuted) <= UINT64_MAX / 32 &&
        Val(SC::ThreadInstExecuted) > 32 * Val(SC::InstExecuted))
      return sassMetricsError(
          Path, Where + " has more thread-level than 32 x warp-level "
                        "instructions; the file is damaged");
    for (SC Part : {SC::BranchTargetsUniform, SC::BranchTargetsDivergent})
      if (Has(SC::BranchTargets) && Has(Part) &&
          Val(Part) > Val(SC::BranchTargets))
        return sassMetricsError(
            Path, Where + " has more " + sassCounterSuffix(Part) +
                      " than branch targets; the file is damaged");

    SassFunction &F = Set.Functions[Fn->str()];
    F.Function = Fn->str();
    ++F.Pcs;
    for (unsigned C = 0; C < NumSassCounters; ++C) {
      SassCounterSum &Sum = F.Counters[C];
      if (!Metric[C]) {
        if (Sum.Missing.empty())
          Sum.Missing = (Name + " did not collect *__" +
                         sassCounterSuffix(SassCounter(C)) +
                         " (not in its collected_metrics)")
                            .str();
        continue;
      }
      if (Sum.Metric.empty())
        Sum.Metric = *Metric[C];
      Sum.Derived |= SumParts && C == Targets;
      if (Sum.Value + At[C] < Sum.Value)
        return sassMetricsError(Path, "the sum of " + *Metric[C] + " over " +
                                          *Fn +
                                          " overflows; the file is damaged");
      Sum.Value += At[C];
    }
  }
  return Error::success();
}

Expected<std::optional<SassMetricsSet>>
warpscope::readSassMetrics(const std::vector<std::string> &Files) {
  SassMetricsSet Set;
  Set.Files = Files;
  if (Set.Files.empty())
    return std::nullopt;
  for (const std::string &F : Set.Files)
    if (Error E = loadOne(F, Set))
      return E;
  return std::optional<SassMetricsSet>(std::move(Set));
}

SassRatio warpscope::hardwareBranchEfficiency(const SassFunction &F) {
  const SassCounterSum &Targets = F[SassCounter::BranchTargets];
  const SassCounterSum &Uniform = F[SassCounter::BranchTargetsUniform];
  if (!Targets.available())
    return {std::nullopt, Targets.Missing};
  if (!Uniform.available())
    return {std::nullopt, Uniform.Missing};
  if (!Targets.Value)
    return {1.0, ""};
  return {double(Uniform.Value) / double(Targets.Value), ""};
}

//===- PcSampling.cpp - pcsamples-*.json, mapped to source lines ----------===//

#include "PcSampling.h"
#include "CubinLines.h"
#include "JsonFiles.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>

using namespace llvm;
using namespace warpscope;

static Error pcSamplingError(const Twine &File, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           File + ": " + What +
                               "; rerun `warpscope run --pc-sampling`");
}

static Error loadOne(const std::string &Path, PcSampleSet &Set) {
  static const StringRef Schemas[] = {PcSamplingSchemaV3, PcSamplingSchemaV2,
                                      PcSamplingSchemaV1};
  Expected<json::Object> Read =
      readSchemaObject(Path, Schemas, [&](const Twine &What) {
        return pcSamplingError(Path, What);
      });
  if (!Read)
    return Read.takeError();
  const json::Object *Top = &*Read;
  // /1 counted not-issued reasons into a pc's samples as well.
  bool V1 = *Top->getString("schema") == Schemas[2];
  // /3: modeled samples may be of PTX; every file of a set must agree.
  bool V3 = *Top->getString("schema") == Schemas[0];
  std::string Source =
      V3 ? Top->getString("source").value_or("").str() : "cupti";
  std::string Gran =
      V3 ? Top->getString("granularity").value_or("").str() : "sass";
  if ((Source != "cupti" && Source != "model") ||
      (Gran != "sass" && Gran != "ptx"))
    return pcSamplingError(Path,
                           "source must be cupti or model and granularity sass "
                           "or ptx");
  if (!Set.Pcs.empty() && (Source != Set.Source || Gran != Set.Granularity))
    return pcSamplingError(Path, "mixes " + Source + "/" + Gran +
                                     " samples with " + Set.Source + "/" +
                                     Set.Granularity + " ones");
  Set.Source = Source;
  Set.Granularity = Gran;
  if (Source == PcSourceModel) {
    Set.ModelConfig = Top->getString("model_config").value_or("").str();
    // Optional: older files and programs without probes have none.
    std::string Probes = Top->getString("model_probes").value_or("").str();
    if (!Probes.empty() && Probes != "free" && Probes != "modeled" &&
        Probes != "mixed")
      return pcSamplingError(Path,
                             "model_probes must be free, modeled or mixed");
    if (!Probes.empty())
      Set.ModelProbes = Set.ModelProbes.empty() || Set.ModelProbes == Probes
                            ? Probes
                            : "mixed";
    std::string Method = Top->getString("method").value_or("sampled").str();
    if (Method != "sampled" && Method != "exact")
      return pcSamplingError(Path, "method must be sampled or exact");
    if (!Set.Pcs.empty() && Method != Set.Method)
      return pcSamplingError(Path, "mixes " + Method + " counts with " +
                                       Set.Method + " ones");
    Set.Method = Method;
  }
  bool Ptx = Gran == "ptx";
  auto Total = Top->getInteger("total_samples");
  auto Dropped = Top->getInteger("dropped_samples");
  // Written by every collector, but not needed: absent counts as 0.
  auto NonUser = Top->get("non_user_samples")
                     ? Top->getInteger("non_user_samples")
                     : std::optional<int64_t>(0);
  const json::Array *Pcs = Top->getArray("pcs");
  if (!Total || !Dropped || !NonUser || !Pcs || *Total < 0 || *Dropped < 0 ||
      *NonUser < 0)
    return pcSamplingError(Path,
                           "lacks total_samples, dropped_samples or pcs, or "
                           "non_user_samples is not a count");
  Set.TotalSamples += uint64_t(*Total);
  Set.DroppedSamples += uint64_t(*Dropped);
  Set.NonUserSamples += uint64_t(*NonUser);
  bool Offered = false;
  if (const json::Array *Reasons = Top->getArray("stall_reasons"))
    for (const json::Value &R : *Reasons)
      if (const json::Object *O = R.getAsObject())
        Offered |= isNotIssuedStall(O->getString("name").value_or(""));
  for (const json::Value &PV : *Pcs) {
    const json::Object *P = PV.getAsObject();
    std::optional<StringRef> Crc = !P    ? std::nullopt
                                   : Ptx ? P->getString("file")
                                         : P->getString("cubin_crc");
    std::optional<StringRef> Fn = P ? P->getString("function") : std::nullopt;
    std::optional<int64_t> Off =
        !P ? std::nullopt : P->getInteger(Ptx ? "ptx_index" : "pc_offset");
    std::optional<int64_t> N = P ? P->getInteger("samples") : std::nullopt;
    const json::Object *Stalls = P ? P->getObject("stalls") : nullptr;
    if (!Crc || !Fn || !Off || !N || !Stalls || *Off < 0 || *N < 0)
      return pcSamplingError(Path,
                             Ptx ? "a pcs[] entry lacks function, ptx_index, "
                                   "file, line, samples or stalls"
                                 : "a pcs[] entry lacks cubin_crc, function, "
                                   "pc_offset, samples or stalls");
    SampledPc S;
    S.Function = Fn->str();
    S.PcOffset = uint64_t(*Off);
    if (Ptx) {
      S.PtxIndex = S.PcOffset;
      S.File = Crc->str();
      S.Line = unsigned(P->getInteger("line").value_or(0));
    } else {
      S.CubinCrc = Crc->str();
    }
    S.Samples = uint64_t(*N);
    uint64_t Base = 0, NotIssued = 0;
    for (const auto &[Name, Count] : *Stalls) {
      std::optional<int64_t> C = Count.getAsInteger();
      if (!C || *C < 0)
        return pcSamplingError(Path, "stall count '" + Name.str() +
                                         "' is not a count");
      S.Stalls.push_back({Name.str(), uint64_t(*C)});
      (isNotIssuedStall(StringRef(Name)) ? NotIssued : Base) += uint64_t(*C);
      Offered |= isNotIssuedStall(StringRef(Name));
    }
    if (S.Samples != (V1 ? Base + NotIssued : Base))
      return pcSamplingError(Path,
                             "pc " + Twine(S.PcOffset) + " of " + S.Function +
                                 " has stall counts that do not add up to its "
                                 "samples; the file is damaged");
    // Not-issued samples are a subset of the samples.
    if (NotIssued > Base)
      return pcSamplingError(
          Path, "pc " + Twine(S.PcOffset) + " of " + S.Function +
                    " has more not-issued than stalled samples; the "
                    "file is damaged");
    S.Samples = Base;
    if (const json::Object *Held = P->getObject("stall_cycles"))
      for (const auto &[Name, Cycles] : *Held) {
        std::optional<double> C = Cycles.getAsNumber();
        if (!C || *C < 0)
          return pcSamplingError(Path, "stall cycles '" + Name.str() +
                                           "' is not a number of cycles");
        S.StallCycles.push_back({Name.str(), *C});
      }
    Set.Pcs.push_back(std::move(S));
  }
  // A file without records says nothing either way.
  if (!Pcs->empty() && !Offered)
    Set.NotIssuedKnown = false;
  return Error::success();
}

Expected<std::optional<PcSampleSet>>
warpscope::readPcSamples(const std::string &Dir,
                         const std::vector<std::string> &Files) {
  PcSampleSet Set;
  Set.Files = Files;
  if (Set.Files.empty())
    return std::nullopt;
  for (const std::string &F : Set.Files)
    if (Error E = loadOne(F, Set))
      return E;

  // Map pcs through each cubin's line table, read once per CRC.
  std::map<std::string, std::optional<cubin::LineTable>> Tables;
  for (SampledPc &S : Set.Pcs) {
    if (S.PtxIndex) // modeled PTX samples carry their lines
      continue;
    auto [It, New] = Tables.try_emplace(S.CubinCrc);
    if (New) {
      SmallString<256> Path(Dir);
      sys::path::append(Path, "cubin-" + S.CubinCrc + ".cubin");
      cubin::LineTable T;
      std::string Why;
      if (cubin::readLineTableFile(std::string(Path), T, Why))
        It->second = std::move(T);
      else
        Set.Warnings.push_back(Why + "; its samples are shown without "
                                     "source lines");
    }
    if (!It->second)
      continue;
    if (const cubin::LineRow *R = It->second->lookup(S.Function, S.PcOffset)) {
      S.File = R->File;
      S.Line = R->Line;
    }
  }
  return std::optional<PcSampleSet>(std::move(Set));
}

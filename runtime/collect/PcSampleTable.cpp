//===- PcSampleTable.cpp - PC sampling records, merged over drains --------===//

#include "PcSampleTable.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/ABI/PcSampling.h"
#include <cstdio>

using namespace warpscope::collect;

std::string warpscope::collect::hex64(uint64_t V) {
  char Buf[17];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(V));
  return Buf;
}

std::string warpscope::collect::cubinFileName(uint64_t Crc) {
  return files::Cubin.named(hex64(Crc));
}

void PcSampleTable::setStallReasons(const std::vector<uint32_t> &Indices,
                                    const std::vector<std::string> &Names) {
  for (size_t I = 0; I < Indices.size() && I < Names.size(); ++I)
    Reasons[Indices[I]] = Names[I];
}

std::string PcSampleTable::reasonName(uint32_t Index) const {
  auto It = Reasons.find(Index);
  return It != Reasons.end() ? It->second : "stall-" + std::to_string(Index);
}

uint64_t PcSampleTable::samples(const PcCounts &C) const {
  uint64_t N = 0;
  for (const auto &[Index, Count] : C.ByReason)
    if (!isNotIssuedStall(reasonName(Index)))
      N += Count;
  return N;
}

void PcSampleTable::add(const CUpti_PCSamplingData &Data) {
  ++Drains;
  TotalSamples += Data.totalSamples;
  DroppedSamples += Data.droppedSamples;
  NonUserSamples += Data.nonUsrKernelsTotalSamples;
  HardwareBufferFull |= Data.hardwareBufferFull != 0;
  if (!Data.pPcData)
    return;
  for (size_t I = 0; I < Data.totalNumPcs; ++I) {
    const CUpti_PCSamplingPCData &P = Data.pPcData[I];
    PcCounts &C =
        Pcs[{P.cubinCrc, P.functionName ? P.functionName : "", P.pcOffset}];
    C.FunctionIndex = P.functionIndex;
    for (size_t R = 0; P.stallReason && R < P.stallReasonCount; ++R) {
      const CUpti_PCSamplingStallReason &S = P.stallReason[R];
      if (!S.samples)
        continue;
      C.ByReason[S.pcSamplingStallReasonIndex] += S.samples;
    }
  }
}

nlohmann::json PcSampleTable::toJson(long Pid, const std::string &Program,
                                     std::optional<unsigned> Period) const {
  using nlohmann::json;
  json Doc = {{"schema", PcSamplingSchema},
              {"source", PcSourceCupti},
              {"granularity", PcGranularitySass},
              {"pid", Pid},
              {"program", Program},
              {"collection_mode", "continuous"},
              {"sampling_period", Period ? json(*Period) : json(nullptr)},
              {"total_samples", TotalSamples},
              {"dropped_samples", DroppedSamples},
              {"non_user_samples", NonUserSamples},
              {"drains", Drains},
              {"hardware_buffer_full", HardwareBufferFull}};
  json Reasons = json::array();
  for (const auto &[Index, Name] : this->Reasons)
    Reasons.push_back({{"index", Index}, {"name", Name}});
  Doc["stall_reasons"] = Reasons;
  json CubinList = json::array();
  for (const auto &[Crc, File] : Cubins)
    CubinList.push_back({{"crc", hex64(Crc)}, {"file", File}});
  Doc["cubins"] = CubinList;
  json PcList = json::array();
  for (const auto &[Key, C] : Pcs) {
    json Stalls = json::object();
    for (const auto &[Index, N] : C.ByReason)
      Stalls[reasonName(Index)] = N;
    PcList.push_back({{"cubin_crc", hex64(Key.CubinCrc)},
                      {"function", Key.Function},
                      {"function_index", C.FunctionIndex},
                      {"pc_offset", Key.PcOffset},
                      {"samples", samples(C)},
                      {"stalls", Stalls}});
  }
  Doc["pcs"] = PcList;
  Doc["errors"] = Errors;
  return Doc;
}

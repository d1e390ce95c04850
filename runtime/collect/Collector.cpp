//===- Collector.cpp - libwarpscope-collect.so: CUPTI injection -----------===//
//
// Loaded by the CUDA driver through CUDA_INJECTION64_PATH, so it needs no
// change to the program and no relink. InitializeInjection subscribes to
// resource callbacks; each context gets PC sampling (continuous mode) or
// SASS metrics; each loaded module's cubin is saved by CRC. Data is drained
// at synchronizations, module unloads, context teardown and exit, then
// written as pcsamples-<pid>.json / sassmetrics-<pid>.json.
//
// Every CUPTI failure prints one line and leaves the program running
// unprofiled: the collector must never take the host program down.
//
//===----------------------------------------------------------------------===//

#include "CollectSettings.h"
#include "CubinStore.h"
#include "PcSampleTable.h"
#include "SassMetricsTable.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Support/AtomicFile.h"
#include <cstdio>
#include <cstdlib>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>

using namespace warpscope::collect;
namespace files = warpscope::files;
namespace support = warpscope::support;

namespace {

/// Parsed-data buffer CUPTI writes into: PC records, each with room for
/// every stall reason.
struct PcBuffer {
  std::vector<CUpti_PCSamplingPCData> Pcs;
  std::vector<CUpti_PCSamplingStallReason> Reasons;
  CUpti_PCSamplingData Data{};

  void init(size_t NumPcs, size_t NumReasons) {
    Pcs.assign(NumPcs, CUpti_PCSamplingPCData{});
    Reasons.assign(NumPcs * NumReasons, CUpti_PCSamplingStallReason{});
    for (size_t I = 0; I < NumPcs; ++I) {
      Pcs[I].size = sizeof(CUpti_PCSamplingPCData);
      Pcs[I].stallReason = Reasons.data() + I * NumReasons;
    }
    Data = CUpti_PCSamplingData{};
    Data.size = sizeof(CUpti_PCSamplingData);
    Data.collectNumPcs = NumPcs;
    Data.pPcData = Pcs.data();
  }
  bool holdsData() const {
    return Data.totalNumPcs || Data.totalSamples || Data.droppedSamples;
  }
  void clear() {
    Data.totalNumPcs = 0;
    Data.totalSamples = Data.droppedSamples = 0;
    Data.nonUsrKernelsTotalSamples = 0;
    Data.hardwareBufferFull = 0;
  }
};

struct ContextState {
  bool Active = false;
  uint32_t Device = 0;
  PcBuffer Drain; ///< what GetData fills
  PcBuffer Final; ///< configured buffer: CUPTI flushes into it on Disable
};

constexpr size_t BufferPcs = 4096;

std::recursive_mutex Lock;
CollectSettings Settings;
std::unique_ptr<CubinStore> Store;
PcSampleTable Pc;
SassMetricsTable Sass;
std::string Chip;
std::map<CUcontext, std::unique_ptr<ContextState>> Contexts;
std::set<uint32_t> ConfiguredDevices;
bool Broken = false; ///< a setup call failed: stop touching CUPTI
bool Warned = false; ///< buffer-full note printed

std::string resultName(CUptiResult R) {
  const char *S = nullptr;
  if (cuptiGetResultString(R, &S) != CUPTI_SUCCESS || !S)
    return "CUPTI error " + std::to_string(int(R));
  return S;
}

std::string hintFor(CUptiResult R, const char *Default) {
  switch (R) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    return "profiling needs root or the driver option "
           "NVreg_RestrictProfilingToAdminUsers=0";
  case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    return "another CUPTI tool (nsys, ncu, a profiler) is attached; run "
           "without it";
  case CUPTI_ERROR_NOT_SUPPORTED:
  case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    return "this GPU or driver does not support it (PC sampling needs sm_70+; "
           "SASS metrics need sm_70+ and a CUDA 12.4+ driver)";
  default:
    return Default;
  }
}

/// One line on stderr and in the output file; the program carries on.
bool check(CUptiResult R, const char *Call, const char *Hint) {
  if (R == CUPTI_SUCCESS)
    return true;
  std::string Line = std::string("warpscope-collect: ") + Call +
                     " failed: " + resultName(R) + "; " + hintFor(R, Hint) +
                     "; the program continues unprofiled";
  std::fprintf(stderr, "%s\n", Line.c_str());
  if (Settings.Mode == CollectMode::PcSampling)
    Pc.noteError(Line);
  else
    Sass.noteError(Line);
  return false;
}

std::string programPath() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  return N > 0 ? std::string(Buf, size_t(N)) : "";
}

void writeOutput() {
  std::string Name, Text;
  long Pid = long(getpid());
  if (Settings.Mode == CollectMode::PcSampling) {
    Name = files::PcSamples.perProcess(Pid);
    Text = Pc.toJson(Pid, programPath(), Settings.SamplingPeriod).dump(1);
  } else {
    Name = files::SassMetrics.perProcess(Pid);
    Text = Sass.toJson(Pid, programPath(), Chip).dump(1);
  }
  std::string Error =
      support::writeFileInDirectory(Settings.OutputDirectory, Name, Text);
  if (!Error.empty())
    std::fprintf(stderr, "warpscope-collect: %s\n", Error.c_str());
}

// --- PC sampling ------------------------------------------------------------

void takeFinalBuffer(ContextState &C) {
  if (C.Final.holdsData())
    Pc.add(C.Final.Data);
  C.Final.clear();
}

void drainPcSampling(CUcontext Ctx, ContextState &C) {
  // GetData hands back at most collectNumPcs records per call.
  for (unsigned Round = 0; Round < 100000; ++Round) {
    C.Drain.clear();
    CUpti_PCSamplingGetDataParams P{};
    P.size = CUpti_PCSamplingGetDataParamsSize;
    P.ctx = Ctx;
    P.pcSamplingData = &C.Drain.Data;
    CUptiResult R = cuptiPCSamplingGetData(&P);
    if (R == CUPTI_ERROR_OUT_OF_MEMORY) {
      Pc.HardwareBufferFull = true;
      if (!Warned)
        std::fprintf(stderr, "warpscope-collect: the PC sampling hardware "
                             "buffer filled and samples were lost; use a "
                             "larger --sampling-period\n");
      Warned = true;
      return;
    }
    if (!check(R, "cuptiPCSamplingGetData",
               "samples after this point are lost"))
      return;
    Pc.add(C.Drain.Data);
    if (!C.Drain.Data.remainingNumPcs)
      return;
  }
}

void disablePcSampling(CUcontext Ctx) {
  CUpti_PCSamplingDisableParams DP{};
  DP.size = CUpti_PCSamplingDisableParamsSize;
  DP.ctx = Ctx;
  cuptiPCSamplingDisable(&DP);
}

void startPcSampling(CUcontext Ctx, ContextState &C) {
  // CUPTI answers the stall-reason queries only once sampling is enabled on
  // the context (CUPTI_ERROR_INVALID_OPERATION before; seen on an H100).
  CUpti_PCSamplingEnableParams EP{};
  EP.size = CUpti_PCSamplingEnableParamsSize;
  EP.ctx = Ctx;
  if (!check(cuptiPCSamplingEnable(&EP), "cuptiPCSamplingEnable",
             "PC sampling needs an sm_70+ GPU and profiling permission"))
    return;
  size_t NumReasons = 0;
  CUpti_PCSamplingGetNumStallReasonsParams NP{};
  NP.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  NP.ctx = Ctx;
  NP.numStallReasons = &NumReasons;
  if (!check(cuptiPCSamplingGetNumStallReasons(&NP),
             "cuptiPCSamplingGetNumStallReasons",
             "PC sampling needs an sm_70+ GPU and a matching driver")) {
    disablePcSampling(Ctx);
    return;
  }
  std::vector<uint32_t> Indices(NumReasons);
  std::vector<std::vector<char>> Storage(
      NumReasons, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
  std::vector<char *> Names(NumReasons);
  for (size_t I = 0; I < NumReasons; ++I)
    Names[I] = Storage[I].data();
  CUpti_PCSamplingGetStallReasonsParams SP{};
  SP.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  SP.ctx = Ctx;
  SP.numStallReasons = NumReasons;
  SP.stallReasonIndex = Indices.data();
  SP.stallReasons = Names.data();
  if (!check(cuptiPCSamplingGetStallReasons(&SP),
             "cuptiPCSamplingGetStallReasons",
             "PC sampling needs an sm_70+ GPU and a matching driver")) {
    disablePcSampling(Ctx);
    return;
  }
  std::vector<std::string> NameList(Names.begin(), Names.end());
  Pc.setStallReasons(Indices, NameList);

  C.Active = true;
  C.Drain.init(BufferPcs, NumReasons);
  C.Final.init(BufferPcs, NumReasons);

  std::vector<CUpti_PCSamplingConfigurationInfo> Info;
  auto add = [&](CUpti_PCSamplingConfigurationAttributeType T) {
    Info.emplace_back();
    Info.back().attributeType = T;
    return &Info.back().attributeData;
  };
  add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE)
      ->collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  auto *Stall = add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON);
  Stall->stallReasonData.stallReasonCount = NumReasons;
  Stall->stallReasonData.pStallReasonIndex = Indices.data();
  add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER)
      ->samplingDataBufferData.samplingDataBuffer = &C.Final.Data;
  add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL)
      ->enableStartStopControlData.enableStartStopControl = 0;
  if (Settings.SamplingPeriod)
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD)
        ->samplingPeriodData.samplingPeriod = *Settings.SamplingPeriod;
  CUpti_PCSamplingConfigurationInfoParams CP{};
  CP.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  CP.ctx = Ctx;
  CP.numAttributes = Info.size();
  CP.pPCSamplingConfigurationInfo = Info.data();
  if (!check(cuptiPCSamplingSetConfigurationAttribute(&CP),
             "cuptiPCSamplingSetConfigurationAttribute",
             "check --sampling-period (5..31)")) {
    disablePcSampling(Ctx);
    C.Active = false;
  }
}

void stopPcSampling(CUcontext Ctx, ContextState &C) {
  drainPcSampling(Ctx, C);
  CUpti_PCSamplingDisableParams DP{};
  DP.size = CUpti_PCSamplingDisableParamsSize;
  DP.ctx = Ctx;
  check(cuptiPCSamplingDisable(&DP), "cuptiPCSamplingDisable",
        "the last samples may be missing");
  takeFinalBuffer(C);
  C.Active = false;
}

// --- SASS metrics -----------------------------------------------------------

void flushSassMetrics(CUcontext Ctx) {
  CUpti_SassMetricsGetDataProperties_Params PP{};
  PP.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
  PP.ctx = Ctx;
  if (!check(cuptiSassMetricsGetDataProperties(&PP),
             "cuptiSassMetricsGetDataProperties", "metrics are lost"))
    return;
  if (!PP.numOfPatchedInstructionRecords || !PP.numOfInstances)
    return;
  std::vector<CUpti_SassMetrics_Data> Records(
      PP.numOfPatchedInstructionRecords);
  std::vector<CUpti_SassMetrics_InstanceValue> Values(
      PP.numOfPatchedInstructionRecords * PP.numOfInstances);
  for (size_t I = 0; I < Records.size(); ++I) {
    Records[I].structSize = sizeof(CUpti_SassMetrics_Data);
    Records[I].pInstanceValues = Values.data() + I * PP.numOfInstances;
  }
  CUpti_SassMetricsFlushData_Params FP{};
  FP.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
  FP.ctx = Ctx;
  FP.numOfPatchedInstructionRecords = Records.size();
  FP.numOfInstances = PP.numOfInstances;
  FP.pMetricsData = Records.data();
  if (check(cuptiSassMetricsFlushData(&FP), "cuptiSassMetricsFlushData",
            "metrics are lost"))
    Sass.add(Records.data(), Records.size(), PP.numOfInstances);
}

bool configureSassMetrics(uint32_t Device) {
  if (ConfiguredDevices.count(Device))
    return true;
  CUpti_Profiler_Initialize_Params IP{};
  IP.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  if (!check(cuptiProfilerInitialize(&IP), "cuptiProfilerInitialize",
             "SASS metrics need the CUPTI profiler"))
    return false;
  CUpti_Device_GetChipName_Params CN{};
  CN.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  CN.deviceIndex = Device;
  if (!check(cuptiDeviceGetChipName(&CN), "cuptiDeviceGetChipName",
             "SASS metrics need a supported GPU"))
    return false;
  Chip = CN.pChipName ? CN.pChipName : "";
  CUpti_SassMetrics_GetNumOfMetrics_Params NP{};
  NP.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
  NP.pChipName = CN.pChipName;
  if (!check(cuptiSassMetricsGetNumOfMetrics(&NP),
             "cuptiSassMetricsGetNumOfMetrics",
             "SASS metrics need a supported GPU"))
    return false;
  std::vector<CUpti_SassMetrics_MetricDetails> All(NP.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params MP{};
  MP.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
  MP.pChipName = CN.pChipName;
  MP.numOfMetrics = All.size();
  MP.pMetricsList = All.data();
  if (!check(cuptiSassMetricsGetMetrics(&MP), "cuptiSassMetricsGetMetrics",
             "SASS metrics need a supported GPU"))
    return false;
  std::vector<std::string> Names;
  std::vector<CUpti_SassMetrics_Config> Configs;
  for (const CUpti_SassMetrics_MetricDetails &M : All) {
    std::string Name = M.pMetricName ? M.pMetricName : "";
    Names.push_back(Name);
    if (!isWantedSassMetric(Name))
      continue;
    Sass.noteMetric(M.metricId, Name);
    Configs.push_back({M.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  }
  Sass.setAvailable(Names);
  if (Configs.empty()) {
    std::fprintf(stderr,
                 "warpscope-collect: chip %s offers none of the "
                 "SASS execution or branch metrics; nothing to "
                 "collect\n",
                 Chip.c_str());
    return false;
  }
  CUpti_SassMetricsSetConfig_Params SP{};
  SP.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
  SP.numOfMetricConfig = Configs.size();
  SP.pConfigs = Configs.data();
  SP.deviceIndex = Device;
  if (!check(cuptiSassMetricsSetConfig(&SP), "cuptiSassMetricsSetConfig",
             "SASS metrics need a supported GPU"))
    return false;
  ConfiguredDevices.insert(Device);
  return true;
}

void startSassMetrics(CUcontext Ctx, ContextState &C) {
  if (!check(cuptiGetDeviceId(Ctx, &C.Device), "cuptiGetDeviceId",
             "cannot tell which GPU the context is on") ||
      !configureSassMetrics(C.Device))
    return;
  CUpti_SassMetricsEnable_Params EP{};
  EP.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
  EP.ctx = Ctx;
  EP.enableLazyPatching = 1; // patch only functions that run
  C.Active = check(cuptiSassMetricsEnable(&EP), "cuptiSassMetricsEnable",
                   "SASS metrics need profiling permission");
}

void stopSassMetrics(CUcontext Ctx, ContextState &C) {
  flushSassMetrics(Ctx);
  CUpti_SassMetricsDisable_Params DP{};
  DP.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
  DP.ctx = Ctx;
  if (check(cuptiSassMetricsDisable(&DP), "cuptiSassMetricsDisable",
            "the last metrics may be missing"))
    Sass.DroppedRecords += DP.numOfDroppedRecords;
  C.Active = false;
}

// --- Callbacks --------------------------------------------------------------

void saveCubin(const CUpti_ModuleResourceData *M) {
  if (!M || !M->pCubin || !M->cubinSize)
    return;
  CUpti_GetCubinCrcParams CP{};
  CP.size = CUpti_GetCubinCrcParamsSize;
  CP.cubinSize = M->cubinSize;
  CP.cubin = M->pCubin;
  if (!check(cuptiGetCubinCrc(&CP), "cuptiGetCubinCrc",
             "this module's samples cannot be mapped to source"))
    return;
  std::string Error;
  if (!Store->save(CP.cubinCrc, M->pCubin, M->cubinSize, Error))
    std::fprintf(stderr, "warpscope-collect: %s\n", Error.c_str());
  else
    Pc.noteCubin(CP.cubinCrc);
}

void drain(CUcontext Ctx, ContextState &C) {
  if (!C.Active)
    return;
  if (Settings.Mode == CollectMode::PcSampling)
    drainPcSampling(Ctx, C);
  else
    flushSassMetrics(Ctx);
}

void stop(CUcontext Ctx, ContextState &C) {
  if (!C.Active)
    return;
  if (Settings.Mode == CollectMode::PcSampling)
    stopPcSampling(Ctx, C);
  else
    stopSassMetrics(Ctx, C);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Id, const void *Data) {
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  if (Broken || !Data)
    return;
  if (Domain == CUPTI_CB_DOMAIN_SYNCHRONIZE) {
    // Kernels before a synchronization are done: drain so buffers do not
    // fill in long runs.
    CUcontext Ctx = static_cast<const CUpti_SynchronizeData *>(Data)->context;
    auto It = Contexts.find(Ctx);
    if (It != Contexts.end())
      drain(Ctx, *It->second);
    return;
  }
  if (Domain != CUPTI_CB_DOMAIN_RESOURCE)
    return;
  const auto *R = static_cast<const CUpti_ResourceData *>(Data);
  CUcontext Ctx = R->context;
  switch (Id) {
  case CUPTI_CBID_RESOURCE_CONTEXT_CREATED: {
    auto &C = Contexts[Ctx];
    C = std::make_unique<ContextState>();
    if (Settings.Mode == CollectMode::PcSampling)
      startPcSampling(Ctx, *C);
    else
      startSassMetrics(Ctx, *C);
    break;
  }
  case CUPTI_CBID_RESOURCE_MODULE_LOADED: {
    saveCubin(
        static_cast<const CUpti_ModuleResourceData *>(R->resourceDescriptor));
    // After an unload/load, CUPTI flushes older records into the
    // configured buffer.
    auto It = Contexts.find(Ctx);
    if (It != Contexts.end() && Settings.Mode == CollectMode::PcSampling)
      takeFinalBuffer(*It->second);
    break;
  }
  case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING: {
    saveCubin(
        static_cast<const CUpti_ModuleResourceData *>(R->resourceDescriptor));
    auto It = Contexts.find(Ctx);
    if (It != Contexts.end())
      drain(Ctx, *It->second);
    break;
  }
  case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: {
    auto It = Contexts.find(Ctx);
    if (It != Contexts.end()) {
      stop(Ctx, *It->second);
      Contexts.erase(It);
    }
    writeOutput();
    break;
  }
  default:
    break;
  }
}

void atExit() {
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  if (!Broken)
    for (auto &[Ctx, C] : Contexts)
      stop(Ctx, *C);
  Contexts.clear();
  writeOutput();
}

} // namespace

/// Called by the CUDA driver during cuInit when CUDA_INJECTION64_PATH names
/// this library. Returns 1 even on failure: the program must run anyway.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  std::lock_guard<std::recursive_mutex> Guard(Lock);
  static bool Done = false;
  if (Done)
    return 1;
  Done = true;
  Settings = readCollectSettings(
      [](const char *Name) -> const char * { return std::getenv(Name); });
  if (!Settings.Warning.empty())
    std::fprintf(stderr, "warpscope-collect: %s\n", Settings.Warning.c_str());
  Store = std::make_unique<CubinStore>(Settings.OutputDirectory);
  CUpti_SubscriberHandle Subscriber;
  if (!check(cuptiSubscribe(&Subscriber, onCallback, nullptr), "cuptiSubscribe",
             "cannot watch contexts and modules")) {
    Broken = true;
    return 1;
  }
  if (!check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE),
             "cuptiEnableDomain(RESOURCE)",
             "cannot watch contexts and modules")) {
    Broken = true;
    return 1;
  }
  check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_SYNCHRONIZE),
        "cuptiEnableDomain(SYNCHRONIZE)",
        "data is drained only at module unload and exit");
  std::atexit(atExit);
  return 1;
}

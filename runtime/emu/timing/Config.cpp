//===- Config.cpp - Architecture configurations as data -----------------===//
//
// A configuration is a JSON object: "name", "description" and one member
// per figure (Fields below), each a number or {"value": number, "source":
// "where it comes from"}. The built-in ones (configs/*.json) are compiled in
// (ConfigsData.h) so the emulator needs no data files.
//
//===----------------------------------------------------------------------===//
#include "ConfigsData.h"
#include "warpscope/Emu/TimingConfig.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace warpscope::emu::timing {

extern const char TimingSourceHash[]; // SourceHash.cpp (SourceHash.cmake)

namespace {

struct BuiltinList {
  const BuiltinConfig *begin() const { return BuiltinConfigs; }
  const BuiltinConfig *end() const {
    return BuiltinConfigs + NumBuiltinConfigs;
  }
} Builtins;

struct Field {
  const char *Key;
  double Config::*Member;
  double PipeTiming::*PipeMember;
  Pipe P;
  /// May be left out of a file (applyDefaults() fills it in); the built-in
  /// configurations give every figure.
  bool Optional = false;
};

#define F(K, M) {K, &Config::M, nullptr, Pipe::Count}
#define O(K, M) {K, &Config::M, nullptr, Pipe::Count, true}
#define P(K, Pp, M) {K, nullptr, &PipeTiming::M, Pipe::Pp}
const Field Fields[] = {
    F("sm_count", Sms),
    F("sub_partitions", SubPartitions),
    F("clock_mhz", BoostClockMhz),
    O("base_clock_mhz", BaseClockMhz),
    O("launch_overhead_ns", LaunchOverheadNs),
    O("dram_sustained_gbytes_per_s", DramSustainedGBps),
    O("atomic_same_address_ns", AtomicSameAddressNs),
    O("shared_atomic_cycles", SharedAtomicCycles),
    O("unrolled_loads", UnrolledLoads),
    O("block_loads", BlockLoads),
    O("l2_fetch_bytes", L2FetchBytes),
    O("divergence_switch_cycles", DivergenceSwitchCycles),
    F("max_warps_per_sm", MaxWarpsPerSm),
    F("max_blocks_per_sm", MaxBlocksPerSm),
    F("registers_per_sm", RegistersPerSm),
    F("shared_bytes_per_sm", SharedPerSm),
    F("shared_bytes_per_block", SharedPerBlock),
    F("l1_shared_bytes_per_sm", L1Bytes),
    F("l2_bytes", L2Bytes),
    F("l1_bytes_per_cycle", L1BytesPerCycle),
    F("l2_bytes_per_cycle", L2BytesPerCycle),
    F("dram_gbytes_per_s", DramGBps),
    F("shared_latency", SharedLatency),
    F("l1_latency", L1Latency),
    F("l2_latency", L2Latency),
    F("dram_latency", DramLatency),
    F("atomic_latency", AtomicLatency),
    F("barrier_latency", BarrierLatency),
    F("fence_latency", FenceLatency),
    F("lsu_queue_cycles", LsuQueueCycles),
    F("mio_queue_cycles", MioQueueCycles),
    F("warp_start_cycles", WarpStartCycles),
    O("icache_l0_bytes", IcacheL0Bytes),
    O("icache_l1_bytes", IcacheL1Bytes),
    O("icache_line_bytes", IcacheLineBytes),
    O("icache_l1_latency", IcacheL1Latency),
    O("icache_prefetch_lines", IcachePrefetchLines),
    P("fp32_latency", Fp32, Latency),
    P("fp32_lanes", Fp32, Lanes),
    P("fp64_latency", Fp64, Latency),
    P("fp64_lanes", Fp64, Lanes),
    P("int_latency", Int, Latency),
    P("int_lanes", Int, Lanes),
    P("sfu_latency", Sfu, Latency),
    P("sfu_lanes", Sfu, Lanes),
    P("conv_latency", Conv, Latency),
    P("conv_lanes", Conv, Lanes),
    P("tensor_latency", Tensor, Latency),
    P("tensor_lanes", Tensor, Lanes),
    P("branch_latency", Branch, Latency),
    P("branch_lanes", Branch, Lanes),
    P("mem_lanes", Mem, Lanes),
};
#undef F
#undef O
#undef P

// Figures that divide or count: must be at least 1 (lanes may be a
// fraction: T4's FP64).
bool mustBePositive(const Field &Fd) {
  return Fd.PipeMember == &PipeTiming::Lanes || Fd.Member == &Config::Sms ||
         Fd.Member == &Config::SubPartitions ||
         Fd.Member == &Config::BoostClockMhz ||
         Fd.Member == &Config::BaseClockMhz ||
         Fd.Member == &Config::DramSustainedGBps ||
         Fd.Member == &Config::SharedAtomicCycles ||
         Fd.Member == &Config::UnrolledLoads ||
         Fd.Member == &Config::IcacheLineBytes ||
         Fd.Member == &Config::BlockLoads ||
         Fd.Member == &Config::MaxWarpsPerSm ||
         Fd.Member == &Config::MaxBlocksPerSm ||
         Fd.Member == &Config::L1BytesPerCycle ||
         Fd.Member == &Config::L2BytesPerCycle ||
         Fd.Member == &Config::DramGBps;
}

} // namespace

std::string fingerprint(const Config &C) {
  // FNV-1a (64 bits) over the sources' hash and every figure, in Fields'
  // order, printed exactly, and the chosen clock.
  std::ostringstream Text;
  Text << TimingSourceHash;
  Text.precision(17);
  for (const Field &Fd : Fields)
    Text << ' ' << Fd.Key << '='
         << (Fd.Member ? C.*Fd.Member : C.Pipes[(int)Fd.P].*Fd.PipeMember);
  // The clock cycles convert at (--model-clock) changes the cycles too:
  // the DRAM's bytes per cycle and the fixed costs in ns follow it.
  Text << " chosen_clock_mhz=" << C.ClockMhz;
  uint64_t H = 14695981039346656037ull;
  for (unsigned char Ch : Text.str()) {
    H ^= Ch;
    H *= 1099511628211ull;
  }
  char Hex[17];
  std::snprintf(Hex, sizeof Hex, "%016llx", (unsigned long long)H);
  return C.Name + ":" + Hex;
}

std::vector<std::string> builtinConfigs() {
  std::vector<std::string> Names;
  for (const BuiltinConfig &B : Builtins)
    Names.push_back(B.Name);
  return Names;
}

bool parseConfig(const std::string &Text, const std::string &What, Config &Out,
                 std::string &Error) {
  using nlohmann::json;
  json Doc = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (!Doc.is_object()) {
    Error = What + " is not a JSON object";
    return false;
  }
  Config C;
  C.Name = Doc.value("name", std::string());
  if (C.Name.empty()) {
    Error = What + " has no \"name\"";
    return false;
  }
  // Optional figures a file leaves out: the same clock for base and boost,
  // the peak DRAM bandwidth sustained, no fixed cost, no serialization, a
  // shared atomic pass like a load's wavefront, loads in the PTX's order.
  C.BaseClockMhz = C.LaunchOverheadNs = C.AtomicSameAddressNs = NAN;
  C.DramSustainedGBps = C.SharedAtomicCycles = C.UnrolledLoads = NAN;
  // No instruction cache unless the file describes one (every fetch hits).
  C.IcacheL0Bytes = C.IcacheL1Bytes = C.IcacheL1Latency = 0;
  C.IcachePrefetchLines = 0;
  C.IcacheLineBytes = 128;
  C.BlockLoads = NAN;
  C.L2FetchBytes = 32;          // the sector alone
  C.DivergenceSwitchCycles = 0; // a path switch costs nothing
  for (const Field &Fd : Fields) {
    auto It = Doc.find(Fd.Key);
    if (It == Doc.end() && Fd.Optional)
      continue;
    if (It == Doc.end()) {
      Error = What + " lacks \"" + std::string(Fd.Key) + "\"";
      return false;
    }
    const json &V =
        It->is_object() && It->contains("value") ? (*It)["value"] : *It;
    double D = V.is_number() ? V.get<double>() : NAN;
    if (Fd.Member == &Config::L2FetchBytes && D != 32 && D != 64 && D != 128) {
      Error = What + ": \"l2_fetch_bytes\" is not 32, 64 or 128";
      return false;
    }
    if (!std::isfinite(D) || D < 0 || (mustBePositive(Fd) && D <= 0) ||
        (Fd.Member == &Config::SubPartitions && D > 8)) {
      Error = What + ": \"" + std::string(Fd.Key) + "\" is not a " +
              (mustBePositive(Fd) ? "positive" : "non-negative") + " number";
      return false;
    }
    if (Fd.Member)
      C.*Fd.Member = D;
    else
      C.Pipes[(int)Fd.P].*Fd.PipeMember = D;
  }
  C.Sms = std::floor(C.Sms);
  C.SubPartitions = std::floor(C.SubPartitions);
  if (std::isnan(C.BaseClockMhz))
    C.BaseClockMhz = C.BoostClockMhz;
  if (std::isnan(C.DramSustainedGBps))
    C.DramSustainedGBps = C.DramGBps;
  if (std::isnan(C.LaunchOverheadNs))
    C.LaunchOverheadNs = 0;
  if (std::isnan(C.AtomicSameAddressNs))
    C.AtomicSameAddressNs = 0;
  if (std::isnan(C.SharedAtomicCycles))
    C.SharedAtomicCycles = 1;
  if (std::isnan(C.UnrolledLoads))
    C.UnrolledLoads = 1;
  C.UnrolledLoads = std::floor(C.UnrolledLoads);
  C.IcachePrefetchLines = std::floor(C.IcachePrefetchLines);
  if (std::isnan(C.BlockLoads))
    C.BlockLoads = 1;
  C.BlockLoads = std::floor(C.BlockLoads);
  C.ClockMhz = C.BoostClockMhz;
  C.ClockName = "boost";
  Out = C;
  return true;
}

bool selectClock(Config &C, const std::string &Which, std::string &Error) {
  if (Which.empty() || Which == "boost") {
    C.ClockMhz = C.BoostClockMhz;
    C.ClockName = "boost";
    return true;
  }
  if (Which == "base") {
    C.ClockMhz = C.BaseClockMhz;
    C.ClockName = "base";
    return true;
  }
  char *End = nullptr;
  double Mhz = std::strtod(Which.c_str(), &End);
  if (End == Which.c_str() || *End || !std::isfinite(Mhz) || Mhz < 1 ||
      Mhz > 100000) {
    Error = "model clock '" + Which +
            "' is not boost, base or a clock in MHz (1 to 100000)";
    return false;
  }
  C.ClockMhz = Mhz;
  C.ClockName = "set";
  return true;
}

bool loadConfig(const std::string &NameOrFile, Config &Out,
                std::string &Error) {
  for (const BuiltinConfig &B : Builtins)
    if (NameOrFile == B.Name)
      return parseConfig(
          B.Text, std::string("built-in configuration ") + B.Name, Out, Error);
  std::string Known;
  for (const BuiltinConfig &B : Builtins)
    Known += (Known.empty() ? "" : ", ") + std::string(B.Name);
  if (NameOrFile.find('/') == std::string::npos &&
      NameOrFile.find(".json") == std::string::npos) {
    Error = "unknown model configuration '" + NameOrFile + "'; use one of " +
            Known + " or a JSON file (docs/timing-model.md)";
    return false;
  }
  std::ifstream In(NameOrFile);
  if (!In) {
    Error = "cannot read model configuration file '" + NameOrFile +
            "'; use one of " + Known + " or a readable JSON file";
    return false;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  if (!parseConfig(SS.str(), "model configuration file '" + NameOrFile + "'",
                   Out, Error)) {
    Error += " (see docs/timing-model.md for the format)";
    return false;
  }
  return true;
}

} // namespace warpscope::emu::timing

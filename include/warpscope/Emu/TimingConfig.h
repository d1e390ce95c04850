//===- TimingConfig.h - Timing model configurations -------------*- C++ -*-===//
//
// What the SM timing model (TimingModel.h) knows of a GPU: SM count, clock,
// schedulers, occupancy limits, caches, bandwidths and latencies. Built-in
// configurations are data (configs/<name>.json, each figure with its public
// source); `--model-config FILE` reads the same format (docs/timing-model.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_CONFIG_H
#define WARPSCOPE_EMU_TIMING_CONFIG_H

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::emu::timing {

/// Execution pipes an instruction class issues to.
enum class Pipe : uint8_t {
  Fp32,
  Fp64,
  Int,
  Sfu,    ///< MUFU: rcp, sqrt, ex2, lg2, sin, cos, tanh
  Conv,   ///< conversions (F2F, F2I, I2F)
  Tensor, ///< mma / wmma
  Branch, ///< control flow (no pipe of its own: fixed latency)
  Mem,    ///< LSU / MIO (latency from the memory model)
  Count
};

struct PipeTiming {
  double Latency = 4; ///< cycles from issue to a dependent's issue
  double Lanes = 32;  ///< lanes per sub-partition per cycle (32: 1 warp/clk)
};

struct Config {
  std::string Name;
  /// ClockMhz is the SM clock cycles convert at: BoostClockMhz (the clock a
  /// user's run sees, "clock_mhz") unless selectClock() chose another, e.g.
  /// BaseClockMhz, the clock Nsight Compute locks the SMs to by default
  /// (--clock-control base), to compare with its measurements.
  double Sms = 132, SubPartitions = 4, ClockMhz = 1980;
  double BoostClockMhz = 1980, BaseClockMhz = 1980;
  std::string ClockName = "boost"; ///< "boost", "base" or "set" (a number)
  /// Per launch, in time: from the launch to its first CTAs running plus
  /// from the last CTA's end to the completion being visible (0: none).
  double LaunchOverheadNs = 0;
  /// The DRAM bandwidth a streaming kernel sustains (bandwidth per cycle
  /// follows the chosen clock: the DRAM does not run at the SM clock).
  double DramSustainedGBps = 3350;
  /// Updates to one global address are done one after another at its L2
  /// slice, each taking this long (0: no serialization modeled).
  double AtomicSameAddressNs = 0;
  /// Cycles one pass of a shared-memory atomic holds the shared pipe (a
  /// read-modify-write of the banks).
  double SharedAtomicCycles = 1;
  /// Executions of an unrolled loop's global load (StaticInst::Unrolled) a
  /// warp has in flight before the first use stalls: ptxas's unroll factor
  /// (1: the PTX order, each load's use waits before the next load issues).
  double UnrolledLoads = 1;
  /// Global loads of one basic block (StaticInst::Hoists) a warp has in
  /// flight before the first one's use stalls: ptxas's list scheduler
  /// issues a block's loads whose addresses are ready ahead of the uses
  /// (1: the PTX order).
  double BlockLoads = 1;
  /// Bytes the L2 fetches from DRAM for a load's missing sector: the
  /// aligned 32 (the sector alone), 64 (its pair) or 128 (the whole line)
  /// bytes around it (CU_LIMIT_MAX_L2_FETCH_GRANULARITY's range).
  double L2FetchBytes = 32;
  /// Cycles a divergent warp takes to resume another of its paths, beyond
  /// a branch: where the lanes of one path reach their reconvergence point
  /// (SASS BSYNC) and the warp goes on with lanes waiting at another PC
  /// (0: a path switch costs nothing; docs/timing-model.md "Divergence,
  /// calls and indirect branches").
  double DivergenceSwitchCycles = 0;
  double MaxWarpsPerSm = 64, MaxBlocksPerSm = 32, RegistersPerSm = 65536;
  double SharedPerSm = 233472, SharedPerBlock = 232448;
  double L1Bytes = 262144, L2Bytes = 52428800;
  double L1BytesPerCycle = 128, L2BytesPerCycle = 5500, DramGBps = 3350;
  double SharedLatency = 29, L1Latency = 33, L2Latency = 260, DramLatency = 480;
  double AtomicLatency = 400, BarrierLatency = 20, FenceLatency = 200;
  /// Outstanding bytes per SM in the LSU (global/local) and MIO (shared)
  /// queues before issue throttles (lg_throttle / mio_throttle).
  double LsuQueueCycles = 64, MioQueueCycles = 32;
  /// Cycles a new warp waits for its first instructions (no_instructions).
  double WarpStartCycles = 12;
  /// Instruction fetch (InstFetch.cpp): each sub-partition's L0
  /// instruction cache, the SM's L1 instruction cache (a miss there goes to
  /// L2: L2Latency), their line, the L1's hit latency and the lines a
  /// sub-partition's stream buffer keeps ahead. IcacheL0Bytes 0: no
  /// instruction cache modeled (every fetch hits).
  double IcacheL0Bytes = 0, IcacheL1Bytes = 0, IcacheLineBytes = 128;
  double IcacheL1Latency = 0, IcachePrefetchLines = 0;
  PipeTiming Pipes[(int)Pipe::Count];
  double dramBytesPerCycle() const {
    return DramSustainedGBps * 1e3 / ClockMhz;
  }
  /// A time in ns as cycles of the chosen clock.
  double cycles(double Ns) const { return Ns * ClockMhz / 1e3; }
  /// A load from the constant bank (ld.const, a jump table's LDC): the
  /// model has no constant cache; it costs an L1 hit.
  double constLatency() const { return L1Latency; }
};

/// How many of a launch's SMs the model simulates at most: by default, and
/// the most WARPSCOPE_EMU_MODEL_SMS (`warpscope run --model-sms`) accepts,
/// more than any GPU has (`--model-sms all`: every SM the launch uses).
constexpr unsigned DefaultModelSms = 8, MaxModelSms = 1024;

/// Chooses the clock cycles convert at: "boost" (the default), "base" or a
/// number of MHz. False with a one-line Error on anything else.
bool selectClock(Config &C, const std::string &Which, std::string &Error);

/// The built-in configurations' names ("h100-sxm" first: the default).
std::vector<std::string> builtinConfigs();
/// A built-in name or a JSON file in the configs' format. On failure returns
/// false and sets Error to one line naming the name or file and what to do.
bool loadConfig(const std::string &NameOrFile, Config &Out, std::string &Error);
/// The timing model's version for C: "<name>:" and 16 hex digits, a hash of
/// the model's sources (code and built-in configurations, at build time)
/// and of C's figures. Modeled figures with the same fingerprint come from
/// the same model; `warpscope predict` compares a profile's with its
/// model's (docs/prediction.md).
std::string fingerprint(const Config &C);
/// Parses a configuration document (What names it in errors).
bool parseConfig(const std::string &Text, const std::string &What, Config &Out,
                 std::string &Error);

} // namespace warpscope::emu::timing

#endif

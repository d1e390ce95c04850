//===- InstFetch.h - One SM's instruction caches -----------------*- C++
//-*-===//
//
// Private to the timing library: the instruction fetch of one simulated SM
// (InstFetch.cpp). See docs/timing-model.md, "Instruction fetch".
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_INSTFETCH_H
#define WARPSCOPE_EMU_TIMING_INSTFETCH_H

#include "warpscope/Emu/TimingConfig.h"

#include <cstdint>
#include <vector>

namespace warpscope::emu::timing {

/// Each sub-partition's L0 instruction cache with its stream buffer, and
/// the SM's L1 instruction cache behind them; a miss in the L1 goes to L2.
/// Tags and the cycle each line's fill is done: the model needs when a
/// warp's next instruction is there, not the instruction.
class InstFetch {
public:
  void init(const Config &C);
  /// Whether the configuration has an instruction cache (else every fetch
  /// hits and nothing here is called).
  bool on() const { return !L0.empty(); }
  /// The code line that byte offset Code is on.
  uint64_t lineOf(uint32_t Code) const { return Code / LineBytes; }
  /// The cycle line Line is in sub-partition S's L0 for a warp that needs
  /// it at T (T or earlier: a hit).
  uint64_t fetch(unsigned S, uint64_t Line, uint64_t T);
  /// Puts the kernel's entry line and the stream buffer's lines after it in
  /// every cache: the launch's fixed cost (Config::LaunchOverheadNs, fitted
  /// on measured kernels) includes fetching them.
  void warm(uint64_t Line);
  bool warmed() const { return Warmed; }

private:
  struct Entry {
    uint64_t Tag = 0; ///< line + 1; 0: empty
    uint64_t Stamp = 0, Ready = 0;
    bool Streamed = false; ///< prefetched, not used yet
  };
  struct Cache {
    std::vector<Entry> E;
    uint64_t Sets = 1, Now = 0;
    unsigned Ways = 1;
    void init(uint64_t Lines, unsigned Ways);
    Entry *find(uint64_t Line);
    /// The least recently used entry of Line's set, now holding Line.
    Entry &insert(uint64_t Line, uint64_t Ready);
  };
  /// The cycle Line, needed at T, reaches an L0 from the L1 (or L2).
  uint64_t fromL1(uint64_t Line, uint64_t T);
  /// Sends Line to S's L0 ahead of use (the stream buffer), issued at T.
  void prefetch(unsigned S, uint64_t Line, uint64_t T);

  std::vector<Cache> L0;
  Cache L1;
  uint64_t LineBytes = 128, Ahead = 0;
  double L1Latency = 0, L2Latency = 0;
  bool Warmed = false;
};

} // namespace warpscope::emu::timing

#endif

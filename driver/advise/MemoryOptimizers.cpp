//===- MemoryOptimizers.cpp - Uncoalesced access and bank conflicts -------===//
//
// Two optimizers over the emulator's exact memory counts (GroundTruth.h):
// global/local sectors per request above the ideal for the bytes touched
// (uncoalesced_access), and shared-memory wavefronts per request above the
// ideal (bank_conflicts). Estimators: docs/advisor-estimators.md.
//
//===----------------------------------------------------------------------===//

#include "../GroundTruth.h"
#include "../SourceText.h"
#include "ExactCommon.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace warpscope::advise {
namespace {

/// A line is flagged when it needs at least this many times its ideal.
constexpr double MinExcessRatio = 1.25;

/// Bytes one lane accesses: the opcode's type width times its vector
/// length (4 when the opcode names no width).
unsigned accessBytes(StringRef Opcode) {
  SmallVector<StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  unsigned Width = 4, Vector = 1;
  for (StringRef P : Parts) {
    if (P == "v2" || P == "v4" || P == "v8")
      Vector = unsigned(P[1] - '0');
    else if (P.size() >= 2 &&
             (P[0] == 'b' || P[0] == 'u' || P[0] == 's' || P[0] == 'f')) {
      unsigned Bits = 0;
      if (!P.drop_front().getAsInteger(10, Bits) && Bits >= 8 && Bits <= 128)
        Width = Bits / 8;
    }
  }
  return Width * Vector;
}

/// The three throughputs an SM's memory work competes for, in cycles of
/// one SM: 4 warp instructions issue per cycle (4 schedulers), L1 moves 4
/// sectors (128 B) per cycle, shared memory one wavefront per cycle. Time
/// is the largest (the pipes overlap).
struct PipeCost {
  double Instructions = 0, Sectors = 0, Wavefronts = 0;
  double cycles() const {
    return std::max({Instructions / 4, Sectors / 4, Wavefronts});
  }
};

PipeCost kernelCost(const TruthFunction &F) {
  PipeCost C;
  for (const TruthInstruction &I : F.Insts) {
    if (I.Instrumentation)
      continue;
    C.Instructions += double(I.Warp);
    C.Sectors += double(I.Mem.GlobalSectors + I.Mem.LocalSectors);
    C.Wavefronts += double(I.Mem.SharedWavefronts);
  }
  return C;
}

/// One flagged access: a source line's instructions of one kind (load,
/// store or atomic: memoryAccessKind), their counts summed; a line's loads
/// and stores are judged apart, as the memory view shows them.
struct LineExcess {
  std::string File;
  unsigned Line = 0;
  std::string Access;
  uint64_t Requests = 0, Units = 0, Ideal = 0, Lanes = 0;
  uint64_t LineUnits = 0; ///< units of every access of the line
  unsigned Bytes = 4;     ///< per lane, of the line's widest access
  StrideCounts Stride;    ///< between neighbouring lanes, from the emulator
  double excess() const { return double(Units) - double(Ideal); }
  double ratio() const { return Ideal ? double(Units) / double(Ideal) : 0; }
};

/// What differs between the two optimizers.
struct MemoryKind {
  const char *Id, *Name, *Title, *Help, *Unit;
  /// (requests, units, ideal units) of an instruction.
  void (*Counts)(const TruthMemory &, uint64_t &, uint64_t &, uint64_t &);
  /// Applies a saving of Units to a kernel's cost.
  void (*Save)(PipeCost &, double Units);
  /// Cycles Units take from a kernel's modeled time on Sms SMs.
  double (*Cycles)(double Units, double Sms);
  std::string (*Pattern)(const LineExcess &);
  std::vector<std::string> (*Hints)(const LineExcess &);
  /// Whether the units are ones a warp's exit waits for (global and local
  /// stores' sectors: the `drain` samples).
  bool Drains = false;
};

/// The share of the kernel's drain samples the flagged lines' excess
/// store units take: a finished warp waits until its stores' units have
/// left, so the drain divides over the stores by their units, and the
/// excess ones go with the change.
double drainExcessShare(const TruthFunction &F, const MemoryKind &K,
                        const std::vector<LineExcess> &Lines) {
  std::set<std::tuple<std::string, unsigned, std::string>> Flagged;
  for (const LineExcess &L : Lines)
    Flagged.insert({L.File, L.Line, L.Access});
  double Units = 0, Excess = 0;
  for (const TruthInstruction &I : F.Insts) {
    if (I.Instrumentation || !I.Memory || memoryAccessKind(I.Opcode) != "store")
      continue;
    uint64_t Req = 0, U = 0, Ideal = 0;
    K.Counts(I.Mem, Req, U, Ideal);
    Units += double(U);
    if (Flagged.count({I.File, I.Line, "store"}) && U > Ideal)
      Excess += double(U - Ideal);
  }
  return Units > 0 ? Excess / Units : 0;
}

std::vector<LineExcess> flaggedLines(const TruthFunction &F,
                                     const MemoryKind &K) {
  std::map<std::tuple<std::string, unsigned, std::string>, LineExcess> ByAccess;
  std::map<std::pair<std::string, unsigned>, uint64_t> LineUnits;
  for (const TruthInstruction &I : F.Insts) {
    if (I.Instrumentation || !I.Memory)
      continue;
    uint64_t Req = 0, Units = 0, Ideal = 0;
    K.Counts(I.Mem, Req, Units, Ideal);
    if (!Req)
      continue;
    std::string Access = memoryAccessKind(I.Opcode).str();
    LineExcess &L = ByAccess[{I.File, I.Line, Access}];
    LineUnits[{I.File, I.Line}] += Units;
    L.File = I.File;
    L.Line = I.Line;
    L.Access = Access;
    L.Requests += Req;
    L.Units += Units;
    L.Ideal += Ideal;
    L.Lanes += I.Thread;
    L.Bytes = std::max(L.Bytes, accessBytes(I.Opcode));
    L.Stride += I.Stride;
  }
  std::vector<LineExcess> Out;
  for (auto &[Where, L] : ByAccess)
    if (L.Ideal && L.ratio() >= MinExcessRatio) {
      L.LineUnits = LineUnits[{L.File, L.Line}];
      Out.push_back(L);
    }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const LineExcess &A, const LineExcess &B) {
                     return A.excess() > B.excess();
                   });
  return Out;
}

class MemoryOptimizer : public Optimizer {
public:
  explicit MemoryOptimizer(const MemoryKind &K) : K(K) {}
  StringRef id() const override { return K.Id; }
  StringRef name() const override { return K.Name; }
  StringRef help() const override { return K.Help; }
  std::vector<InputKind> needs() const override {
    return {InputKind::MemoryCounts};
  }
  void run(const Inputs &In, std::vector<Advice> &Out) const override {
    if (!In.GroundTruth)
      return;
    for (const auto &[Name, F] : In.GroundTruth->Functions)
      if (F.Kernel)
        runKernel(In, Name, F, Out);
  }

private:
  const MemoryKind &K;

  void runKernel(const Inputs &In, const std::string &Name,
                 const TruthFunction &F, std::vector<Advice> &Out) const {
    std::vector<LineExcess> Lines = flaggedLines(F, K);
    if (Lines.empty())
      return;
    Advice A;
    A.Optimizer = K.Id;
    A.Title = K.Title;
    A.Kernel = Name;
    LineSamples S = lineSamples(In, Name);
    auto Modeled = In.ModeledTime.find(Name);
    if (S.Total > 0) {
      // Each flagged line's samples shrink by the share of the line's
      // units that its flagged accesses have in excess (samples are per
      // line, so a line with two flagged accesses is counted once); the
      // drain samples (at the exit, not on the line) by the share of the
      // stores' units that are excess.
      std::map<std::pair<std::string, unsigned>, double> LineShare;
      for (const LineExcess &L : Lines)
        LineShare[{L.File, L.Line}] += L.excess() / double(L.LineUnits);
      double Saved = 0;
      for (const auto &[Where, Share] : LineShare)
        Saved += (S.at(Where.first, Where.second) -
                  (K.Drains ? S.drainAt(Where.first, Where.second) : 0)) *
                 Share;
      if (K.Drains)
        Saved += S.Drain * drainExcessShare(F, K, Lines);
      // Both forms are upper bounds: the samples' assumes every sampled
      // wait shrinks with the units, but a request's unloaded latency
      // stays; the modeled time's that the excess units' transfer time at
      // the memory system's throughput is all exposed. Take the tighter.
      bool Bounded = false;
      if (Modeled != In.ModeledTime.end() && Modeled->second.Cycles > 0 &&
          Modeled->second.SmsUsed > 0) {
        double Excess = 0;
        for (const LineExcess &L : Lines)
          Excess += L.excess();
        double Bound = S.Total * K.Cycles(Excess, Modeled->second.SmsUsed) /
                       Modeled->second.Cycles;
        Bounded = Bound < Saved;
        Saved = std::min(Saved, Bound);
      }
      A.EstimatedSpeedup = speedupFromSaving(S.Total, Saved);
      A.Estimator = formatv("PC samples on the flagged lines x the share of "
                            "their {0} above the ideal{1}",
                            K.Unit,
                            K.Drains ? ", and the drain samples x the "
                                       "stores' excess share"
                                     : "");
      if (Bounded)
        A.Estimator += formatv(", bounded by the modeled cycles the excess "
                               "{0} take at the memory system's throughput",
                               K.Unit)
                           .str();
    } else if (Modeled != In.ModeledTime.end() && Modeled->second.Cycles > 0 &&
               Modeled->second.SmsUsed > 0) {
      double Excess = 0;
      for (const LineExcess &L : Lines)
        Excess += L.excess();
      A.EstimatedSpeedup = speedupFromSaving(
          Modeled->second.Cycles, K.Cycles(Excess, Modeled->second.SmsUsed));
      A.Estimator = formatv("modeled time less the cycles the excess {0} "
                            "take at the memory system's throughput",
                            K.Unit);
    } else {
      PipeCost Before = kernelCost(F), After = Before;
      double Excess = 0;
      for (const LineExcess &L : Lines)
        Excess += L.excess();
      K.Save(After, Excess);
      A.EstimatedSpeedup = Before.cycles() / std::max(After.cycles(), 1e-9);
      A.Estimator = formatv("exact counts (no samples): SM throughput bound "
                            "max(instructions/4, sectors/4, wavefronts) "
                            "with the excess {0} removed",
                            K.Unit);
    }
    if (A.EstimatedSpeedup < MinExactSpeedup)
      return;
    std::vector<std::string> Hints = K.Hints(Lines.front());
    A.Hints = Hints;
    for (size_t I = 0; I < Lines.size() && I < MaxExactHotspots; ++I) {
      const LineExcess &L = Lines[I];
      Hotspot H;
      H.Function = Name;
      H.File = L.File;
      H.Line = L.Line;
      H.Source = sourceLine(In, L.File, L.Line);
      H.Samples = S.Total > 0 ? S.at(L.File, L.Line) : L.excess();
      if (S.Total <= 0)
        H.Unit = std::string("excess ") + K.Unit;
      H.Evidence = L.Access + ": " + K.Pattern(L);
      A.Hotspots.push_back(std::move(H));
    }
    Out.push_back(std::move(A));
  }
};

std::string coalescingPattern(const LineExcess &L) {
  const double PerReq = double(L.Units) / double(L.Requests);
  const double IdealPerReq = double(L.Ideal) / double(L.Requests);
  const double LanesPerReq = double(L.Lanes) / double(L.Requests);
  std::string S = formatv("{0:F2} sectors/request, ideal {1:F2} ({2}-byte "
                          "accesses, {3:F1} lanes/request): {4:F1}x the ideal",
                          PerReq, IdealPerReq, L.Bytes, LanesPerReq, L.ratio());
  // The lanes' own addresses say the stride (files from before they were
  // recorded have no lane pairs: then only what the counts imply).
  if (L.Stride.LanePairs)
    return S + "; " + describeStride(L.Stride);
  if (LanesPerReq > 0 && PerReq >= LanesPerReq * 0.95)
    return S + "; every lane its own sector: a stride of 32 B or more "
               "between neighbouring lanes, or scattered addresses";
  return S + formatv("; as a stride of about {0} B between neighbouring lanes",
                     unsigned(L.ratio() * L.Bytes + 0.5))
                 .str();
}

std::vector<std::string> coalescingHints(const LineExcess &L) {
  std::vector<std::string> H = {
      formatv("Make neighbouring threads touch neighbouring addresses at "
              "{0}: index the fastest-varying array dimension with "
              "threadIdx.x",
              sourceLineLabel(L.File, L.Line))};
  H.push_back("For an array of structures read field by field, store a "
              "structure of arrays instead");
  H.push_back("For a transpose or column walk, stage a tile through shared "
              "memory and read it back along the other dimension");
  return H;
}

std::string bankPattern(const LineExcess &L) {
  const double PerReq = double(L.Units) / double(L.Requests);
  const double IdealPerReq = double(L.Ideal) / double(L.Requests);
  std::string S = formatv("{0:F2} wavefronts/request, ideal {1:F2} ({2}-byte "
                          "accesses): {3:F1}-way bank conflict",
                          PerReq, IdealPerReq, L.Bytes, L.ratio());
  return L.Stride.LanePairs ? S + "; " + describeStride(L.Stride) : S;
}

std::vector<std::string> bankHints(const LineExcess &L) {
  return {formatv("Pad the shared array at {0} by one {1}-byte element "
                  "per row (e.g. __shared__ float tile[32][32 + 1]) so that "
                  "the lanes of a column fall in different banks",
                  sourceLineLabel(L.File, L.Line), std::min(L.Bytes, 4u)),
          "Or swizzle the index (column XOR row) where padding would waste "
          "too much shared memory"};
}

const MemoryKind Uncoalesced = {
    "uncoalesced_access", "Uncoalesced global memory access",
    "Coalesce global memory accesses",
    "A warp's global (or local) memory request touches more 32-byte sectors "
    "than the bytes it reads need, so the memory system moves data nobody "
    "uses. The emulator counts the sectors of every request exactly; the "
    "advice names the lines with the most sectors above the ideal and the "
    "stride between their neighbouring lanes' addresses.",
    "sectors",
    [](const TruthMemory &M, uint64_t &Req, uint64_t &Units, uint64_t &Ideal) {
      Req = M.GlobalRequests + M.LocalRequests;
      Units = M.GlobalSectors + M.LocalSectors;
      Ideal = M.GlobalIdealSectors + M.LocalIdealSectors;
    },
    [](PipeCost &C, double Units) { C.Sectors -= Units; },
    // Per SM, L1 moves 4 sectors a cycle; all SMs share L2's ~2800 B a
    // cycle (about 5.5 TB/s at 1.98 GHz: Luo et al., "Benchmarking and
    // Dissecting the Nvidia Hopper GPU Architecture", IPDPS 2024).
    [](double Units, double Sms) {
      return std::max(Units / Sms / 4, Units * 32 / 2800);
    },
    coalescingPattern, coalescingHints, /*Drains=*/true};

const MemoryKind BankConflicts = {
    "bank_conflicts", "Shared-memory bank conflicts",
    "Remove shared-memory bank conflicts",
    "Lanes of a warp that access different 4-byte words in the same one of "
    "shared memory's 32 banks are served in separate wavefronts, one after "
    "another. The emulator counts the wavefronts of every shared access "
    "exactly; the advice names the lines above the ideal and the padding "
    "that spreads their lanes over the banks.",
    "wavefronts",
    [](const TruthMemory &M, uint64_t &Req, uint64_t &Units, uint64_t &Ideal) {
      Req = M.SharedRequests;
      Units = M.SharedWavefronts;
      Ideal = M.SharedIdealWavefronts;
    },
    [](PipeCost &C, double Units) { C.Wavefronts -= Units; },
    // One wavefront per SM a cycle (32 banks x 4 B).
    [](double Units, double Sms) { return Units / Sms; }, bankPattern,
    bankHints};

} // namespace

std::unique_ptr<Optimizer> makeUncoalescedOptimizer() {
  return std::make_unique<MemoryOptimizer>(Uncoalesced);
}

std::unique_ptr<Optimizer> makeBankConflictOptimizer() {
  return std::make_unique<MemoryOptimizer>(BankConflicts);
}

} // namespace warpscope::advise

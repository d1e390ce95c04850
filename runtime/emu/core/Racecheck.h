//===- Racecheck.h - shared-memory hazard shadow ----------------*- C++ -*-===//
//
// WARPSCOPE_EMU_RACECHECK: finds read-after-write, write-after-read and
// write-after-write hazards between different warps of a CTA on the same
// shared-memory bytes with no barrier in between (docs/emulator.md).
//
// Every 4-byte shared word has a shadow stamp for its last writer and last
// reader: epoch << 11 | byte mask << 7 | flags | warp. The epoch is a
// counter bumped at each CTA start and each barrier release, so a stamp
// below the current epoch is simply stale: nothing is cleared between
// blocks, barriers or launches. Accesses of the same epoch by different
// warps are unordered on a GPU, hence a hazard when their bytes overlap.
// Where the shadow cannot tell (sub-word accesses of several warps), it
// forgets the older access: it may miss a hazard, never invent one.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_RACECHECK_H
#define WARPSCOPE_EMU_CORE_RACECHECK_H

#include "Ptx.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpscope::emu::core {

enum HazardKind : uint8_t { HazRAW, HazWAR, HazWAW };
const char *hazardName(HazardKind K);

enum RaceAccess : uint8_t { RaceRead, RaceWrite, RaceAtomic };

/// A conflict found by an access: the earlier access of the pair.
struct RaceHit {
  HazardKind Kind;
  const Inst *Prev;
  uint32_t PrevWarp;
};

/// One distinct hazard (kernel, kind, both instructions), where it was
/// first seen and how many word accesses hit it.
struct HazardRecord {
  const Function *Kernel;
  HazardKind Kind;
  const Inst *First, *Second;
  uint32_t FirstWarp, SecondWarp, Offset;
  uint32_t Block[3];
  uint64_t Count;
};

class RaceShadow {
public:
  static constexpr uint32_t WarpBits = 31, Multi = 1u << 5, AtomicBit = 1u << 6,
                            MaskShift = 7, EpochShift = 11;

  /// Makes room for a CTA's shared memory (kept across launches).
  void prepare(uint32_t SharedBytes) {
    size_t N = (SharedBytes + 3) / 4;
    if (Stamps.size() < N) {
      Stamps.resize(N);
      Who.resize(N);
    }
  }
  /// A new CTA or a released barrier: earlier accesses are ordered before
  /// later ones. On wrap-around the stamps are cleared (every 2M epochs).
  void nextEpoch() {
    if (++Epoch >= (1u << (32 - EpochShift))) {
      std::fill(Stamps.begin(), Stamps.end(), Stamp{});
      Epoch = 1;
    }
    EB = Epoch << EpochShift;
  }

  /// Records the accesses of the lanes EM of warp Warp with instruction I:
  /// lane L touches Size bytes at shared offset A[L] + Add (lanes outside
  /// [0, Limit) are skipped: not shared, or an error the access reports).
  /// Calls Hit(Lane, Offset, const RaceHit &) for each conflict.
  template <class OnHit>
  [[gnu::always_inline]] void lanes(uint32_t EM, const uint64_t *A,
                                    uint64_t Add, uint32_t Limit, unsigned Size,
                                    uint32_t Warp, const Inst *I,
                                    RaceAccess Kind, OnHit &&Hit) {
    // Locals, so that the stores below do not reload the vectors' data.
    Stamp *St = Stamps.data();
    Insts *Wh = Who.data();
    const uint32_t EB = this->EB, Full = 15u << MaskShift;
    const uint32_t Cur = EB | Full | Warp;
    const bool Rd = Kind == RaceRead;
    for (uint32_t Rest = EM; Rest; Rest &= Rest - 1) {
      int L = __builtin_ctz(Rest);
      uint64_t Off = A[L] + Add;
      if (Off >= Limit || Off + Size > Limit)
        continue;
      uint32_t Wi = (uint32_t)Off >> 2;
      auto H = [&](const RaceHit &R) { Hit(L, (uint32_t)Off, R); };
      if (Size == 4 && !(Off & 3)) { // the most common: one whole word
        if (!fastWord(St[Wi], Wh[Wi], Cur, Warp, I, Kind)) {
          if (Rd)
            read(Wi, Full, Warp, I, H);
          else
            write(Wi, Full, Warp, I, Kind == RaceAtomic, H);
        }
        continue;
      }
      if (!((Off | Size) & 3)) {
        // Whole words (scalar or vector): fast paths, else the general case.
        for (uint32_t E = Wi + Size / 4; Wi < E; ++Wi) {
          if (fastWord(St[Wi], Wh[Wi], Cur, Warp, I, Kind))
            continue;
          if (Rd)
            read(Wi, Full, Warp, I, H);
          else
            write(Wi, Full, Warp, I, Kind == RaceAtomic, H);
        }
        continue;
      }
      uint32_t End = (uint32_t)Off + Size;
      for (; Wi << 2 < End; ++Wi) {
        uint32_t Lo = std::max((uint32_t)Off, Wi << 2),
                 Hi = std::min(End, (Wi << 2) + 4);
        uint32_t M = ((1u << (Hi - Lo)) - 1) << (Lo - (Wi << 2)) << MaskShift;
        if (Rd)
          read(Wi, M, Warp, I, H);
        else
          write(Wi, M, Warp, I, Kind == RaceAtomic, H);
      }
    }
  }

private:
  struct Stamp {
    uint32_t W = 0, R = 0;
  };
  struct Insts {
    const Inst *W = nullptr, *R = nullptr, *R2 = nullptr;
    uint32_t R2Warp = 0;
  };

  // A whole word accessed with no other warp's access this epoch to check
  // (Cur: this warp's full-word stamp). False: take the general case.
  [[gnu::always_inline]] bool fastWord(Stamp &S, Insts &Wh, uint32_t Cur,
                                       uint32_t Warp, const Inst *I,
                                       RaceAccess Kind) {
    const uint32_t Full = 15u << MaskShift;
    if (Kind == RaceRead) {
      if (S.W >= EB && (S.W & WarpBits) != Warp)
        return false;
      if (S.R < EB || S.R == Cur) {
        if (S.R != Cur) {
          S.R = Cur;
          Wh.R = I;
        }
        return true;
      }
      // A word all warps read (a broadcast): two readers already known.
      return (S.R & (Multi | Full)) == (Multi | Full);
    }
    if (S.R >= EB && S.R != Cur)
      return false;
    if (S.W < EB) {
      S.W = Cur | (Kind == RaceAtomic ? AtomicBit : 0);
      Wh.W = I;
      return true;
    }
    return S.W == Cur; // the same warp wrote it plainly this epoch
  }

  // The general cases: any bytes of word Wi (mask M, shifted), other warps.
  template <class OnHit>
  void read(uint32_t Wi, uint32_t M, uint32_t Warp, const Inst *I, OnHit &Hit) {
    Stamp &S = Stamps[Wi];
    uint32_t W = S.W, R = S.R;
    if (W >= EB && (W & WarpBits) != Warp && (W & M))
      Hit(RaceHit{HazRAW, Who[Wi].W, W & WarpBits});
    if (R >= EB && (R & WarpBits) == Warp && !(R & Multi)) {
      S.R = R | M; // the same warp reads more bytes
      return;
    }
    if (R >= EB && (R & Multi))
      return; // two warps already read these bytes: keep them
    Insts &H = Who[Wi];
    if (R >= EB && (R & M)) {
      // A second warp reads bytes the first read: remember both, for the
      // bytes both read.
      H.R2 = H.R;
      H.R2Warp = R & WarpBits;
      S.R = EB | Multi | (R & M) | Warp;
    } else {
      // First read this epoch, or other bytes than the last reader's (whose
      // read is forgotten).
      S.R = EB | M | Warp;
    }
    H.R = I;
  }

  template <class OnHit>
  void write(uint32_t Wi, uint32_t M, uint32_t Warp, const Inst *I, bool Atomic,
             OnHit &Hit) {
    Stamp &S = Stamps[Wi];
    uint32_t W = S.W, R = S.R;
    bool SameWarpW = W >= EB && (W & WarpBits) == Warp;
    if (W >= EB && !SameWarpW && (W & M) && !(Atomic && (W & AtomicBit)))
      Hit(RaceHit{HazWAW, Who[Wi].W, W & WarpBits});
    if (R >= EB && (R & M)) {
      if ((R & WarpBits) != Warp)
        Hit(RaceHit{HazWAR, Who[Wi].R, R & WarpBits});
      else if (R & Multi)
        Hit(RaceHit{HazWAR, Who[Wi].R2, Who[Wi].R2Warp});
    }
    if (SameWarpW) {
      // The same warp writes again: more bytes; atomic only if all were.
      if (!Atomic && (W & AtomicBit)) {
        W &= ~AtomicBit;
        Who[Wi].W = I;
      }
      S.W = W | M;
      return;
    }
    S.W = EB | M | Warp | (Atomic ? AtomicBit : 0);
    Who[Wi].W = I;
  }

  std::vector<Stamp> Stamps;
  std::vector<Insts> Who;
  uint32_t Epoch = 0, EB = 0;
};

} // namespace warpscope::emu::core

#endif

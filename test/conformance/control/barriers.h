// Thread termination and barriers: exit and ret (in the kernel and in a
// callee) with the survivors meeting at bar.sync and bar.red.popc (exited
// threads do not hold a barrier: "barrier{.cta} instruction causes
// executing thread to wait for all non-exited threads", PTX ISA 9.7.13.1),
// named barriers with thread counts, barrier.sync reached by one warp from
// two places, bar.red.popc over predicate patterns, and bar.warp.sync with
// full, partial and divergent member masks. Each exchange reads values that
// another warp (or path) writes just before the barrier, so a barrier that
// does not wait reads stale values.
#pragma once
#include "harness.h"

namespace ctl {

extern "C" __device__ __noinline__ __attribute__((used)) unsigned
ctl_exit_some(unsigned Sel) {
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p exit;\n\t}" ::"r"(Sel)
      : "memory");
  return Sel + 1;
}

// Mode 0: @p exit, 1: @p ret (in a kernel, the thread ends), 2: @p exit in
// a callee.
template <int Mode>
__global__ void kExitBar(const uint32_t *Pat, uint32_t *Out, uint32_t *Cnt) {
  __shared__ uint32_t Sm[256];
  unsigned T = threadIdx.x, N = blockDim.x, L = T & 31;
  uint32_t Bit = (Pat[blockIdx.x * 32 + (T >> 5)] >> L) & 1;
  Sm[T] = 0x10000 + T;
  asm volatile("bar.sync 0;" ::: "memory");
  if (Mode == 0)
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p exit;\n\t}" ::"r"(
            Bit)
        : "memory");
  else if (Mode == 1)
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p ret;\n\t}" ::"r"(Bit)
        : "memory");
  else {
    uint32_t R;
    asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 rv;\n\t"
                 "st.param.b32 [a0], %1;\n\t"
                 "call (rv), ctl_exit_some, (a0);\n\t"
                 "ld.param.b32 %0, [rv];\n\t}"
                 : "=r"(R)
                 : "r"(Bit)
                 : "memory");
    Bit = R - 1;
  }
  Sm[T] = 0x20000 + T + Bit; // survivors only (Bit is 0 here)
  asm volatile("bar.sync 0;" ::: "memory");
  uint32_t V = Sm[(T + 32) % N], C;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %1, 0;\n\t"
               "bar.red.popc.u32 %0, 0, p;\n\t}"
               : "=r"(C)
               : "r"(T % 3)
               : "memory");
  Out[blockIdx.x * N + T] = V;
  Cnt[blockIdx.x * N + T] = C;
}

// Four groups of two warps, each on its own barrier (1..4) with a count of
// 64: the lower warp reads what the upper one wrote, round after round.
__global__ void kNamed(uint32_t *Out, int Rounds) {
  __shared__ uint32_t Sm[256];
  unsigned T = threadIdx.x, G = T >> 6;
  uint32_t Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    Sm[T] = R * 0x1000 + T * 7 + 1;
    if (G == 0)
      asm volatile("bar.sync 1, 64;" ::: "memory");
    else
      asm volatile("bar.sync %0, 64;" ::"r"(G + 1) : "memory");
    Acc = Acc * 31 + Sm[T ^ 32];
    if (G == 0)
      asm volatile("bar.sync 1, 64;" ::: "memory");
    else
      asm volatile("bar.sync %0, 64;" ::"r"(G + 1) : "memory");
  }
  asm volatile("bar.sync 0;" ::: "memory");
  Out[T] = Acc ^ Sm[(T + 64) % 256];
}

// bar.red.popc over the block (d, a, {!}c) and, with 256 threads, over
// groups of 64 threads on barriers 1..4 (d, a, b, c).
__global__ void kPopc(const uint32_t *Pat, uint32_t *Out) {
  unsigned T = threadIdx.x, L = T & 31, N = blockDim.x;
  uint32_t Bit = (Pat[blockIdx.x * 32 + (T >> 5)] >> L) & 1, C0, C1, C2 = 0;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "bar.red.popc.u32 %0, 0, p;\n\t}"
               : "=r"(C0)
               : "r"(Bit)
               : "memory");
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "bar.red.popc.u32 %0, 0, !p;\n\t}"
               : "=r"(C1)
               : "r"(Bit)
               : "memory");
  if (N == 256) {
    unsigned G = T >> 6;
    if (G == 0)
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
                   "bar.red.popc.u32 %0, 1, 64, p;\n\t}"
                   : "=r"(C2)
                   : "r"(Bit)
                   : "memory");
    else
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
                   "bar.red.popc.u32 %0, %2, 64, p;\n\t}"
                   : "=r"(C2)
                   : "r"(Bit), "r"(G + 1)
                   : "memory");
  }
  unsigned I = blockIdx.x * N + T;
  Out[3 * I] = C0;
  Out[3 * I + 1] = C1;
  Out[3 * I + 2] = C2;
}

// barrier.sync (not .aligned): warp 0 reaches it from two places (its lanes
// split by the pattern) while warp 1 writes what warp 0 then reads; then the
// same with barrier 1 and a count of 64, the roles swapped.
__global__ void kBarrierDiv(const uint32_t *Pat, uint32_t *Out) {
  __shared__ uint32_t Sm[64];
  unsigned T = threadIdx.x, L = T & 31;
  uint32_t Bit = (Pat[blockIdx.x] >> L) & 1;
  Sm[T] = 0;
  asm volatile("barrier.sync 0;" ::: "memory");
  if (T >= 32) {
    Sm[T] = T * 13 + 5 + blockIdx.x;
    asm volatile("barrier.sync 0;" ::: "memory");
  } else {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
                 "@p bra DA%=;\n\tbarrier.sync 0;\n\tbra DJ%=;\n"
                 "DA%=:\n\tbarrier.sync 0;\n"
                 "DJ%=:\n\t}" ::"r"(Bit)
                 : "memory");
  }
  uint32_t First = Sm[T ^ 32];
  asm volatile("barrier.sync 0;" ::: "memory");
  if (T < 32) {
    Sm[T] = T * 3 + 7 + blockIdx.x;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
                 "@!p bra DB%=;\n\tbarrier.sync 1, 64;\n\tbra DK%=;\n"
                 "DB%=:\n\tbarrier.sync 1, 64;\n"
                 "DK%=:\n\t}" ::"r"(Bit)
                 : "memory");
  } else {
    asm volatile("barrier.sync 1, 64;" ::: "memory");
  }
  Out[2 * (blockIdx.x * 64 + T)] = First;
  Out[2 * (blockIdx.x * 64 + T) + 1] = Sm[T ^ 32];
}

// bar.warp.sync: (a) the whole warp, converged, immediate mask -1; (b) the
// lanes of the pattern, register mask, each reading the next member lane;
// (c) the lanes of the pattern and the others on two paths, each syncing
// with the whole warp at its own bar.warp.sync (register mask on one path,
// immediate on the other) and reading the mirror lane, usually on the
// other path. Stores and loads are inside the asm so that the compiler
// cannot move them across the branches.
__global__ void kWarpSync(const uint32_t *Pat, const uint32_t *Next,
                          uint32_t *Out) {
  __shared__ uint32_t SmA[1024], SmB[1024], SmC[1024];
  unsigned T = threadIdx.x, L = T & 31, W = T >> 5, Base = T & ~31u;
  uint32_t M = Pat[W], Bit = (M >> L) & 1;
  auto Sh = [](uint32_t *P) { return (unsigned)__cvta_generic_to_shared(P); };
  uint32_t A, B = 0, C;
  asm volatile("st.shared.u32 [%1], %3;\n\t"
               "bar.warp.sync -1;\n\t"
               "ld.shared.u32 %0, [%2];"
               : "=r"(A)
               : "r"(Sh(&SmA[T])), "r"(Sh(&SmA[Base + (L ^ 1)])), "r"(T * 3 + 1)
               : "memory");
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "@!p bra WS%=;\n\t"
               "st.shared.u32 [%2], %4;\n\t"
               "bar.warp.sync %5;\n\t"
               "ld.shared.u32 %0, [%3];\n"
               "WS%=:\n\t}"
               : "+r"(B)
               : "r"(Bit), "r"(Sh(&SmB[T])), "r"(Sh(&SmB[Base + Next[T]])),
                 "r"(T * 5 + 2), "r"(M)
               : "memory");
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "@p bra WA%=;\n\t"
               "st.shared.u32 [%2], %4;\n\t"
               "bar.warp.sync -1;\n\t"
               "ld.shared.u32 %0, [%3];\n\t"
               "bra WJ%=;\n"
               "WA%=:\n\t"
               "st.shared.u32 [%2], %5;\n\t"
               "bar.warp.sync %6;\n\t"
               "ld.shared.u32 %0, [%3];\n\t"
               "xor.b32 %0, %0, 0x80000000;\n"
               "WJ%=:\n\t}"
               : "=&r"(C)
               : "r"(Bit), "r"(Sh(&SmC[T])), "r"(Sh(&SmC[Base + 31 - L])),
                 "r"(T * 11 + 4), "r"(T * 7 + 3), "r"(0xffffffffu)
               : "memory");
  Out[3 * T] = A;
  Out[3 * T + 1] = B;
  Out[3 * T + 2] = C;
}

// Named barriers with a count after some lanes exited: warps 0 and 1 meet
// at barrier 1, warps 2 and 3 at barrier 2 (count 64 each), after the lanes
// of a pattern in warps 0 and 3 exited. A warp's arrival is marked once its
// non-exited threads arrived (PTX ISA 9.7.13.1: the barrier "marks warps'
// arrival"), so each pair completes; the lower warp reads what the upper
// one stored.
__global__ void kExitNamed(const uint32_t *Pat, uint32_t *Out) {
  __shared__ uint32_t Sm[128];
  unsigned T = threadIdx.x, W = T >> 5, L = T & 31;
  uint32_t Bit = (W == 0 || W == 3) ? (Pat[blockIdx.x] >> L) & 1 : 0;
  Sm[T] = 0;
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p exit;\n\t}" ::"r"(Bit)
      : "memory");
  Sm[T] = T * 9 + 4 + blockIdx.x;
  if (W < 2)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  Out[blockIdx.x * 128 + T] = Sm[T ^ 32];
}

template <int Mode> inline void testExitBar(const char *Name) {
  if (!canRun(Name))
    return;
  const unsigned NB = 8, N = 160; // 5 warps
  std::vector<uint32_t> Pat = lanePatterns(NB * 32);
  for (unsigned W = 0; W < 5; ++W)
    Pat[7 * 32 + W] = ~0u; // block 7: every thread ends
  Pat[6 * 32 + 2] = ~0u;   // block 6: warp 2 ends, warp 3 stays whole
  Pat[6 * 32 + 3] = 0;
  Buf<uint32_t> DP(Pat), Out(NB * N), Cnt(NB * N);
  kExitBar<Mode><<<NB, N>>>(DP.D, Out.D, Cnt.D);
  if (!launched(Name))
    return;
  auto O = Out.get(), C = Cnt.get();
  for (unsigned B = 0; B < NB; ++B) {
    auto Ends = [&](unsigned T) {
      return (Pat[B * 32 + T / 32] >> T % 32) & 1;
    };
    uint32_t Want = 0;
    for (unsigned T = 0; T < N; ++T)
      Want += !Ends(T) && T % 3 == 0;
    for (unsigned T = 0; T < N; ++T) {
      unsigned I = B * N + T, S = (T + 32) % N;
      bool End = Ends(T);
      expect(Name, "read", I, O[I],
             End       ? kSentinel
             : Ends(S) ? 0x10000 + S
                       : 0x20000 + S);
      expect(Name, "popc", I, C[I], End ? kSentinel : Want);
    }
  }
}

inline void testExitNamed() {
  const char *Name = "exit.named";
  if (!canRun(Name))
    return;
  const unsigned NB = 12;
  std::vector<uint32_t> Pat = lanePatterns(NB + 2);
  Pat.erase(Pat.begin(), Pat.begin() + 2); // no "all lanes exit" pattern
  Pat[0] = 0;
  Buf<uint32_t> DP(Pat), Out(NB * 128);
  kExitNamed<<<NB, 128>>>(DP.D, Out.D);
  if (!launched(Name))
    return;
  auto O = Out.get();
  for (unsigned B = 0; B < NB; ++B)
    for (unsigned T = 0; T < 128; ++T) {
      unsigned S = T ^ 32, I = B * 128 + T;
      auto Ends = [&](unsigned U) {
        return (U / 32 == 0 || U / 32 == 3) && ((Pat[B] >> U % 32) & 1);
      };
      expect(Name, "read", I, O[I],
             Ends(T)   ? kSentinel
             : Ends(S) ? 0
                       : S * 9 + 4 + B);
    }
}

inline void testNamed() {
  const char *Name = "bar.sync.named";
  if (!canRun(Name))
    return;
  const int Rounds = 5;
  Buf<uint32_t> Out(256);
  kNamed<<<1, 256>>>(Out.D, Rounds);
  if (!launched(Name))
    return;
  auto O = Out.get();
  for (unsigned T = 0; T < 256; ++T) {
    uint32_t Acc = 0;
    for (int R = 0; R < Rounds; ++R)
      Acc = Acc * 31 + (R * 0x1000 + (T ^ 32) * 7 + 1);
    uint32_t Other = (Rounds - 1) * 0x1000 + ((T + 64) % 256) * 7 + 1;
    expect(Name, "acc", T, O[T], Acc ^ Other);
  }
}

inline void testPopc() {
  const char *Name = "bar.red.popc";
  if (!canRun(Name))
    return;
  const unsigned NB = 4;
  for (unsigned N : {32u, 96u, 80u, 256u, 1024u}) {
    std::vector<uint32_t> Pat = lanePatterns(NB * 32 + N);
    Pat.erase(Pat.begin(), Pat.begin() + N); // other patterns per size
    Pat[0] = 0;
    Pat[32] = ~0u;
    Buf<uint32_t> DP(Pat), Out(3 * NB * N);
    kPopc<<<NB, N>>>(DP.D, Out.D);
    if (!launched(Name))
      return;
    auto O = Out.get();
    for (unsigned B = 0; B < NB; ++B) {
      auto Bit = [&](unsigned T) {
        return (Pat[B * 32 + T / 32] >> T % 32) & 1;
      };
      uint32_t All = 0, Grp[4] = {0, 0, 0, 0};
      for (unsigned T = 0; T < N; ++T) {
        All += Bit(T);
        Grp[(T / 64) % 4] += Bit(T);
      }
      for (unsigned T = 0; T < N; ++T) {
        unsigned I = B * N + T;
        expect(Name, "popc", I, O[3 * I], All);
        expect(Name, "popc.not", I, O[3 * I + 1], N - All);
        expect(Name, "popc.group", I, O[3 * I + 2], N == 256 ? Grp[T / 64] : 0);
      }
    }
  }
}

inline void testBarrierDiv() {
  const char *Name = "barrier.sync";
  if (!canRun(Name))
    return;
  const unsigned NB = 12;
  std::vector<uint32_t> Pat = lanePatterns(NB);
  Buf<uint32_t> DP(Pat), Out(2 * NB * 64);
  kBarrierDiv<<<NB, 64>>>(DP.D, Out.D);
  if (!launched(Name))
    return;
  auto O = Out.get();
  for (unsigned B = 0; B < NB; ++B)
    for (unsigned T = 0; T < 64; ++T) {
      unsigned I = B * 64 + T, S = T ^ 32;
      expect(Name, "first", I, O[2 * I], T < 32 ? S * 13 + 5 + B : 0);
      expect(Name, "second", I, O[2 * I + 1],
             T < 32 ? S * 13 + 5 + B : S * 3 + 7 + B);
    }
}

inline void testWarpSync() {
  const char *Name = "bar.warp.sync";
  if (!canRun(Name))
    return;
  const unsigned N = 1024;
  std::vector<uint32_t> Pat = lanePatterns(32), Next(N, 0);
  for (unsigned T = 0; T < N; ++T) { // next member lane of the pattern
    uint32_t M = Pat[T / 32], L = T % 32;
    if (!((M >> L) & 1))
      continue;
    uint32_t Above = M & ~((2ull << L) - 1);
    Next[T] = Above ? __builtin_ctz(Above) : __builtin_ctz(M);
  }
  Buf<uint32_t> DP(Pat), DN(Next), Out(3 * N);
  kWarpSync<<<1, N>>>(DP.D, DN.D, Out.D);
  if (!launched(Name))
    return;
  auto O = Out.get();
  for (unsigned T = 0; T < N; ++T) {
    uint32_t M = Pat[T / 32], L = T % 32, Base = T & ~31u;
    bool Bit = (M >> L) & 1;
    uint32_t Mir = Base + 31 - L;
    bool MirBit = (M >> (31 - L)) & 1;
    expect(Name, "full", T, O[3 * T], (Base + (L ^ 1)) * 3 + 1);
    expect(Name, "partial", T, O[3 * T + 1],
           Bit ? (Base + Next[T]) * 5 + 2 : 0);
    expect(Name, "divergent", T, O[3 * T + 2],
           (MirBit ? Mir * 7 + 3 : Mir * 11 + 4) ^ (Bit ? 0x80000000u : 0));
  }
}

} // namespace ctl

// Contention cases of the atomics suite: all lanes of kCtas CTAs of
// kBlock threads (4 warps each) apply one atomic to K addresses (thread t on
// address t % K: K = 1 all on one, K = 32 a warp's lanes on distinct
// addresses that every warp shares, K = 97 mixing lanes across warps), in
// global memory, or per CTA in shared memory. The final values do not depend
// on the order; the returned old values are checked for exactness: there
// must be an order of the threads in which each one's old value is what the
// ones before it left (for add, a permutation of prefix sums), see
// linearizable(). Included by atomics.cu.
#pragma once
#include <map>

namespace contention {

static constexpr int kCtas = 32;
static constexpr unsigned kThreads = kCtas * kBlock;
// Each thread applies its atomic kReps times (operation u = t * kReps + r
// takes operand value(u)), so that CTAs on different host threads overlap.
static constexpr unsigned kReps = 16;
static constexpr unsigned kOps = kThreads * kReps;

enum Kind {
  AddU32,
  AddU64,
  AddF32,
  AddF64,
  IncU32,
  DecU32,
  MinS32,
  MaxU32,
  MaxS64,
  AndB32,
  OrB32,
  XorB32,
  ExchB32,
  CasLoopU32,
  NumKinds
};
static const char *const kNames[] = {
    "atomicAdd u32",  "atomicAdd u64",
    "atomicAdd f32",  "atomicAdd f64",
    "atomicInc u32",  "atomicDec u32",
    "atomicMin s32",  "atomicMax u32",
    "atomicMax s64",  "atomicAnd b32",
    "atomicOr b32",   "atomicXor b32",
    "atomicExch b32", "atomicCAS-loop increment u32"};

__host__ __device__ inline uint32_t hash(uint32_t T) {
  return T * 2654435761u ^ (T >> 3);
}

// Thread t's operand (bits). Float adds take exactly representable values
// whose sums stay exact, so the final value is order-independent.
__host__ __device__ inline u64 value(int K, uint32_t T) {
  switch (K) {
  case AddU32:
    return T % 7 + 1;
  case AddU64:
    return ((u64)(T % 5 + 1) << 32) + T % 3 + 1;
  case AddF32: {
    float F = (float)(T % 5 + 1) * 0.25f;
    uint32_t B;
    memcpy(&B, &F, 4);
    return B;
  }
  case AddF64: {
    double D = T + 0.5;
    u64 B;
    memcpy(&B, &D, 8);
    return B;
  }
  case IncU32:
  case DecU32:
    return 0xffffffffu; // the bound: no wrap-around here
  case MinS32:
    return T == 517 ? 0x80000000u : (uint32_t)((int)(hash(T) % 2001) - 1000);
  case MaxU32:
    return hash(T);
  case MaxS64:
    return ((u64)hash(T) << 32 | hash(T + 1)) ^ (T & 1 ? 0 : 1ull << 63);
  case AndB32:
    return ~(1u << (T % 32)) & ~(1u << (hash(T) % 32));
  case OrB32:
    return 1u << (T % 32) | 1u << (hash(T) % 32);
  case XorB32:
    return hash(T);
  case ExchB32:
    return T + 1; // distinct
  case CasLoopU32:
    return 1;
  }
  return 0;
}

__host__ __device__ inline u64 initOf(int K) {
  switch (K) {
  case AddU32:
    return 1000;
  case AddU64:
    return 0xffffffffull;
  case AddF32: {
    float F = 0.5f;
    uint32_t B;
    memcpy(&B, &F, 4);
    return B;
  }
  case AddF64:
    return 0x3fe0000000000000ull; // 0.5
  case IncU32:
    return 7;
  case DecU32:
    return 100000;
  case MinS32:
    return 0x7fffffff;
  case MaxU32:
    return 0;
  case MaxS64:
    return 1ull << 63;
  case AndB32:
    return 0xffffffff;
  case OrB32:
    return 0;
  case XorB32:
    return 0x13579bdf;
  case ExchB32:
    return 0x77777777;
  case CasLoopU32:
    return 100;
  }
  return 0;
}

__device__ u64 apply(int K, u64 *P, u64 V) {
  unsigned *P32 = (unsigned *)P;
  switch (K) {
  case AddU32:
    return atomicAdd(P32, (unsigned)V);
  case AddU64:
    return atomicAdd((unsigned long long *)P, V);
  case AddF32: {
    float F = atomicAdd((float *)P, __uint_as_float((unsigned)V));
    return __float_as_uint(F);
  }
  case AddF64: {
    double D = atomicAdd((double *)P, __longlong_as_double((long long)V));
    return (u64)__double_as_longlong(D);
  }
  case IncU32:
    return atomicInc(P32, (unsigned)V);
  case DecU32:
    return atomicDec(P32, (unsigned)V);
  case MinS32:
    return (unsigned)atomicMin((int *)P, (int)V);
  case MaxU32:
    return atomicMax(P32, (unsigned)V);
  case MaxS64:
    return (u64)atomicMax((long long *)P, (long long)V);
  case AndB32:
    return atomicAnd(P32, (unsigned)V);
  case OrB32:
    return atomicOr(P32, (unsigned)V);
  case XorB32:
    return atomicXor(P32, (unsigned)V);
  case ExchB32:
    return atomicExch(P32, (unsigned)V);
  case CasLoopU32: {
    unsigned Old = *(volatile unsigned *)P32;
    for (;;) {
      unsigned Seen = atomicCAS(P32, Old, Old + 1);
      if (Seen == Old)
        return Old;
      Old = Seen;
    }
  }
  }
  return 0;
}

// G: the K slots (global), or kCtas * K slots that each CTA loads into its
// shared memory, contends on and writes back (Sh).
__global__ void kContend(int Kind, u64 *G, u64 *O, unsigned K, int Sh) {
  __shared__ u64 S[128];
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  if (Sh) {
    if (threadIdx.x < K)
      S[threadIdx.x] = G[blockIdx.x * K + threadIdx.x];
    __syncthreads();
  }
  u64 *P = Sh ? &S[threadIdx.x % K] : &G[T % K];
  for (unsigned R = 0; R < kReps; ++R)
    O[T * kReps + R] = apply(Kind, P, value(Kind, T * kReps + R));
  if (Sh) {
    __syncthreads();
    if (threadIdx.x < K)
      G[blockIdx.x * K + threadIdx.x] = S[threadIdx.x];
  }
}

// The reference operation (atomics_ref.h) and the order in which the old
// values of a monotone operation move (Asc, compared as Cmp).
struct Model {
  Op O;
  Ty T;
  bool Asc;
};
static Model modelOf(int K) {
  switch (K) {
  case AddU32:
    return {Op::Add, Ty::U32, true};
  case AddU64:
    return {Op::Add, Ty::U64, true};
  case AddF32:
    return {Op::Add, Ty::F32, true};
  case AddF64:
    return {Op::Add, Ty::F64, true};
  case IncU32:
    return {Op::Inc, Ty::U32, true};
  case DecU32:
    return {Op::Dec, Ty::U32, false};
  case MinS32:
    return {Op::Min, Ty::S32, false};
  case MaxU32:
    return {Op::Max, Ty::U32, true};
  case MaxS64:
    return {Op::Max, Ty::S64, true};
  case AndB32:
    return {Op::And, Ty::B32, false};
  case OrB32:
    return {Op::Or, Ty::B32, true};
  case XorB32:
    return {Op::Xor, Ty::B32, true};
  case ExchB32:
    return {Op::Exch, Ty::B32, true};
  default: // the CAS loop adds 1
    return {Op::Add, Ty::U32, true};
  }
}

// a before b in the type's order.
static bool less(Ty T, u64 A, u64 B) {
  switch (T) {
  case Ty::S32:
    return (int32_t)A < (int32_t)B;
  case Ty::S64:
    return (int64_t)A < (int64_t)B;
  case Ty::F32:
    return ref::f32(A) < ref::f32(B);
  case Ty::F64:
    return ref::f64(A) < ref::f64(B);
  default:
    return A < B;
  }
}

struct Entry {
  u64 Old, V;
};

// True if some order of the entries gives each its old value and leaves
// Final, for an operation whose values only move one way (add of positive
// values, inc/dec below the bound, min, max, and, or): sorted along that
// way, the entries that saw the same old value m are consecutive, and only
// the last of them may change m, to the next group's old value.
static bool linearizable(const Model &Md, u64 Init, std::vector<Entry> E,
                         u64 Final) {
  std::sort(E.begin(), E.end(), [&](const Entry &A, const Entry &B) {
    return Md.Asc ? less(Md.T, A.Old, B.Old) : less(Md.T, B.Old, A.Old);
  });
  u64 Cur = Init;
  for (size_t I = 0; I < E.size();) {
    u64 M = E[I].Old;
    if (M != Cur)
      return false;
    size_t J = I;
    int Changers = 0;
    while (J < E.size() && E[J].Old == M) {
      u64 N = ref::stored(Md.O, Md.T, false, M, E[J].V, 0);
      if (N != M) {
        ++Changers;
        Cur = N;
      }
      ++J;
    }
    if (Changers > 1 || (Changers == 0 && J < E.size()))
      return false;
    I = J;
  }
  return Cur == Final;
}

// exch of distinct values: the old values are the initial value and every
// operand but the last one's, which is the final value.
static bool exchChain(u64 Init, const std::vector<Entry> &E, u64 Final) {
  std::vector<u64> A = {Final}, B = {Init};
  for (const Entry &X : E) {
    A.push_back(X.Old);
    B.push_back(X.V);
  }
  std::sort(A.begin(), A.end());
  std::sort(B.begin(), B.end());
  return A == B;
}

// Any operation: each operation is an edge from its old value to the value
// it stores; an order of the operations that gives each its old value is a
// trail from Init to Final using every edge once (an Euler trail). One
// exists iff, on the vertices with edges, out-degree minus in-degree is 1 at
// Init and -1 at Final (0 everywhere when Init == Final) and 0 elsewhere,
// and all edges are connected to Init. Used for xor, which is not monotone.
static bool eulerTrail(const Model &Md, u64 Init, const std::vector<Entry> &E,
                       u64 Final) {
  if (E.empty())
    return Init == Final;
  std::map<u64, long> Balance; // out - in
  std::map<u64, u64> Parent;   // union-find over the undirected edges
  auto Find = [&](u64 X) {
    Parent.emplace(X, X);
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  for (const Entry &X : E) {
    u64 To = ref::stored(Md.O, Md.T, false, X.Old, X.V, 0);
    ++Balance[X.Old];
    --Balance[To];
    Parent[Find(X.Old)] = Find(To);
  }
  for (const auto &[V, B] : Balance) {
    long Want = Init == Final ? 0 : V == Init ? 1 : V == Final ? -1 : 0;
    if (B != Want || Find(V) != Find(Init))
      return false;
  }
  return true;
}

// Checks one address: its threads' (old, operand) and its final value.
static void checkSlot(int Kind, const char *Where, unsigned K, unsigned Slot,
                      const std::vector<Entry> &E, u64 Final, FILE *Dump,
                      unsigned &Failed) {
  Model Md = modelOf(Kind);
  const u64 M = ref::mask(Md.T), Init = initOf(Kind) & M;
  u64 Want = Init;
  for (const Entry &X : E)
    Want = ref::stored(Md.O, Md.T, false, Want, X.V, 0);
  // exch's final value is the last exchange's: scheduling decides it (the
  // check is that some order explains it); the dump's marker says so.
  if (Dump)
    std::fprintf(Dump, "contention %s\t%s K=%u slot %u\t%llx\t%llx%s\n",
                 kNames[Kind], Where, K, Slot, (unsigned long long)Init,
                 (unsigned long long)Final, Kind == ExchB32 ? "\torder" : "");
  if (Kind != ExchB32 && Final != Want)
    fail(Failed,
         "FAIL contention %s [%s, %u addresses] slot %u: %zu "
         "ops from %llx: final %llx want %llx\n",
         kNames[Kind], Where, K, Slot, E.size(), (unsigned long long)Init,
         (unsigned long long)Final, (unsigned long long)Want);
  bool Ok = Kind == ExchB32  ? exchChain(Init, E, Final)
            : Kind == XorB32 ? eulerTrail(Md, Init, E, Final)
                             : linearizable(Md, Init, E, Final);
  if (!Ok)
    fail(Failed,
         "FAIL contention %s [%s, %u addresses] slot %u: the %zu "
         "returned old values fit no order of the threads (final "
         "%llx)\n",
         kNames[Kind], Where, K, Slot, E.size(), (unsigned long long)Final);
}

// One launch of Kind on K addresses; returns the number of checked threads.
static size_t runOne(int Kind, unsigned K, bool Sh, FILE *Dump,
                     unsigned &Failed) {
  const char *Where = Sh ? "shared" : "global";
  Model Md = modelOf(Kind);
  const u64 M = ref::mask(Md.T), High = ref::wide(Md.T) ? 0 : kSentinel;
  size_t NSlots = Sh ? (size_t)kCtas * K : K;
  std::vector<u64> Slots(NSlots, High | (initOf(Kind) & M)), Olds(kOps, kUnset);
  u64 *G = nullptr, *O = nullptr;
  cudaError_t Err = cudaMalloc(&G, NSlots * sizeof(u64));
  if (Err == cudaSuccess)
    Err = cudaMalloc(&O, kOps * sizeof(u64));
  if (Err == cudaSuccess)
    Err = cudaMemcpy(G, Slots.data(), NSlots * sizeof(u64),
                     cudaMemcpyHostToDevice);
  if (Err == cudaSuccess) {
    kContend<<<kCtas, kBlock>>>(Kind, G, O, K, Sh);
    Err = cudaDeviceSynchronize();
  }
  if (Err == cudaSuccess)
    Err = cudaMemcpy(Slots.data(), G, NSlots * sizeof(u64),
                     cudaMemcpyDeviceToHost);
  if (Err == cudaSuccess)
    Err =
        cudaMemcpy(Olds.data(), O, kOps * sizeof(u64), cudaMemcpyDeviceToHost);
  cudaFree(G);
  cudaFree(O);
  if (Err != cudaSuccess) {
    fail(Failed, "FAIL contention %s [%s, %u addresses]: launch error: %s\n",
         kNames[Kind], Where, K, cudaGetErrorString(Err));
    gStuck = true;
    return 0;
  }
  std::vector<std::vector<Entry>> Per(NSlots);
  for (uint32_t U = 0; U < kOps; ++U) {
    uint32_t T = U / kReps;
    size_t S = Sh ? (T / kBlock) * K + T % kBlock % K : T % K;
    Per[S].push_back({Olds[U] & M, value(Kind, U) & M});
  }
  for (size_t S = 0; S < NSlots; ++S) {
    if ((Slots[S] & ~M) != High)
      fail(Failed,
           "FAIL contention %s [%s] slot %zu: upper half %llx "
           "changed\n",
           kNames[Kind], Where, S, (unsigned long long)(Slots[S] >> 32));
    checkSlot(Kind, Where, K, (unsigned)S, Per[S], Slots[S] & M, Dump, Failed);
  }
  return kOps;
}

static size_t runAll(FILE *Dump, unsigned &Failed, unsigned &Kernels) {
  size_t Cases = 0;
  for (int Kind = 0; Kind < NumKinds; ++Kind) {
    if (gStuck)
      break;
    for (unsigned K : {1u, 32u, 97u})
      Cases += runOne(Kind, K, false, Dump, Failed);
    for (unsigned K : {1u, 32u})
      Cases += runOne(Kind, K, true, Dump, Failed);
    ++Kernels;
  }
  return Cases;
}

} // namespace contention

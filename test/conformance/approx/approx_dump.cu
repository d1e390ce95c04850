//===- approx_dump.cu - The GPU's results of PTX's .approx instructions ---===//
//
// Runs every `.approx` form clang 22 emits (test/conformance/instr/
// clang-forms.txt) on the GPU over two kinds of input set and writes the
// raw result bits, for the emulator's bit-exactness (issue 39 item 5):
//   sweep   every input bit pattern in [first, first + count): whole
//           binades, which fix the function's shape (an f64 form sweeps the
//           high word with a zero low word: the units read the high word);
//   random  `count` inputs from splitmix64(seed + i), all bit patterns
//           equally likely (NaN, infinities and subnormals included).
//
//   approx_dump OUTDIR [SETS]
//
// writes OUTDIR/<form>.<set>.bin (little-endian result words, one per
// input, in input order) and OUTDIR/manifest.txt, one line per file:
//   <file> <form> <sweep|random> <first-or-seed (hex)> <count> <bytes/result>
// With SETS, a manifest in that format, it runs exactly those sets instead
// (a slice of a sweep, or a prefix of a random set, gives the same results
// as in the full set): test/conformance/approx/ runs the sets of the GPU
// fixture so on the emulator. benchmarks/gpu/approx_pack.py packs the
// results. Built with clang like the benchmarks, so the PTX is the form
// named (inline asm), not what a compiler chose.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "approx_dump: %s: CUDA error %d\n", #call, (int)e_);     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__host__ __device__ inline uint64_t splitmix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ULL;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

// One unary f32 form: a device function over the bits.
#define F32_FORM(NAME, PTX)                                                    \
  __device__ inline uint32_t NAME(uint32_t Bits) {                             \
    float X = __uint_as_float(Bits), Y;                                        \
    asm volatile(PTX " %0, %1;" : "=f"(Y) : "f"(X));                           \
    return __float_as_uint(Y);                                                 \
  }
F32_FORM(ex2_f32, "ex2.approx.f32")
F32_FORM(ex2_ftz_f32, "ex2.approx.ftz.f32")
F32_FORM(lg2_f32, "lg2.approx.f32")
F32_FORM(lg2_ftz_f32, "lg2.approx.ftz.f32")
F32_FORM(rcp_ftz_f32, "rcp.approx.ftz.f32")
F32_FORM(rsqrt_f32, "rsqrt.approx.f32")
F32_FORM(rsqrt_ftz_f32, "rsqrt.approx.ftz.f32")
F32_FORM(sqrt_f32, "sqrt.approx.f32")
F32_FORM(sqrt_ftz_f32, "sqrt.approx.ftz.f32")
F32_FORM(sin_f32, "sin.approx.f32")
F32_FORM(cos_f32, "cos.approx.f32")
F32_FORM(tanh_f32, "tanh.approx.f32")

#define F64_FORM(NAME, PTX)                                                    \
  __device__ inline uint64_t NAME(uint64_t Bits) {                             \
    double X = __longlong_as_double((long long)Bits), Y;                       \
    asm volatile(PTX " %0, %1;" : "=d"(Y) : "d"(X));                           \
    return (uint64_t)__double_as_longlong(Y);                                  \
  }
F64_FORM(rcp_ftz_f64, "rcp.approx.ftz.f64")
F64_FORM(rsqrt_f64, "rsqrt.approx.f64")
F64_FORM(rsqrt_ftz_f64, "rsqrt.approx.ftz.f64")

// Binary f32 forms: random pairs only (x from seed, y from seed + 2^40).
#define DIV_FORM(NAME, PTX)                                                    \
  __device__ inline uint32_t NAME(uint32_t A, uint32_t B) {                    \
    float X = __uint_as_float(A), Y = __uint_as_float(B), Z;                   \
    asm volatile(PTX " %0, %1, %2;" : "=f"(Z) : "f"(X), "f"(Y));               \
    return __float_as_uint(Z);                                                 \
  }
DIV_FORM(div_f32, "div.approx.f32")
DIV_FORM(div_ftz_f32, "div.approx.ftz.f32")

enum Form {
  EX2,
  EX2_FTZ,
  LG2,
  LG2_FTZ,
  RCP_FTZ,
  RSQRT,
  RSQRT_FTZ,
  SQRT,
  SQRT_FTZ,
  SIN,
  COS,
  TANH,
  RCP_FTZ_F64,
  RSQRT_F64,
  RSQRT_FTZ_F64,
  DIV,
  DIV_FTZ,
  NUM_FORMS
};
static const char *const FormNames[NUM_FORMS] = {
    "ex2.approx.f32",       "ex2.approx.ftz.f32", "lg2.approx.f32",
    "lg2.approx.ftz.f32",   "rcp.approx.ftz.f32", "rsqrt.approx.f32",
    "rsqrt.approx.ftz.f32", "sqrt.approx.f32",    "sqrt.approx.ftz.f32",
    "sin.approx.f32",       "cos.approx.f32",     "tanh.approx.f32",
    "rcp.approx.ftz.f64",   "rsqrt.approx.f64",   "rsqrt.approx.ftz.f64",
    "div.approx.f32",       "div.approx.ftz.f32"};

__device__ uint32_t unary32(int F, uint32_t B) {
  switch (F) {
  case EX2:
    return ex2_f32(B);
  case EX2_FTZ:
    return ex2_ftz_f32(B);
  case LG2:
    return lg2_f32(B);
  case LG2_FTZ:
    return lg2_ftz_f32(B);
  case RCP_FTZ:
    return rcp_ftz_f32(B);
  case RSQRT:
    return rsqrt_f32(B);
  case RSQRT_FTZ:
    return rsqrt_ftz_f32(B);
  case SQRT:
    return sqrt_f32(B);
  case SQRT_FTZ:
    return sqrt_ftz_f32(B);
  case SIN:
    return sin_f32(B);
  case COS:
    return cos_f32(B);
  default:
    return tanh_f32(B);
  }
}

__device__ uint64_t unary64(int F, uint64_t B) {
  switch (F) {
  case RCP_FTZ_F64:
    return rcp_ftz_f64(B);
  case RSQRT_F64:
    return rsqrt_f64(B);
  default:
    return rsqrt_ftz_f64(B);
  }
}

/// Input I of a set: First + I for a sweep (f64: in the high word), else
/// splitmix64(First + I). Pairs take their second operand at + 2^40.
__device__ inline uint64_t input(bool Sweep, bool Wide, uint64_t First,
                                 uint64_t I) {
  if (Sweep)
    return Wide ? (First + I) << 32 : First + I;
  return splitmix64(First + I);
}

__global__ void run32(int F, bool Sweep, uint64_t First, uint64_t N,
                      uint32_t *Out) {
  for (uint64_t I = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; I < N;
       I += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t A = (uint32_t)input(Sweep, false, First, I);
    if (F == DIV || F == DIV_FTZ) {
      uint32_t B = (uint32_t)splitmix64(First + (1ULL << 40) + I);
      Out[I] = F == DIV ? div_f32(A, B) : div_ftz_f32(A, B);
    } else {
      Out[I] = unary32(F, A);
    }
  }
}

__global__ void run64(int F, bool Sweep, uint64_t First, uint64_t N,
                      uint64_t *Out) {
  for (uint64_t I = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; I < N;
       I += (uint64_t)gridDim.x * blockDim.x)
    Out[I] = unary64(F, input(Sweep, true, First, I));
}

struct Set {
  int F;
  bool Sweep;
  uint64_t First; ///< first bit pattern (f64: of the high word), or seed
  uint64_t Count;
  std::string File;
};

static bool isWide(int F) {
  return F == RCP_FTZ_F64 || F == RSQRT_F64 || F == RSQRT_FTZ_F64;
}

/// The sets a manifest names (approx_dump's own format), or false.
static bool readSets(const char *Path, std::vector<Set> &Sets) {
  FILE *Fp = fopen(Path, "r");
  if (!Fp)
    return false;
  char File[256], Form[64], Kind[16];
  unsigned long long First, Count;
  int Width, N;
  bool Ok = true;
  while ((N = fscanf(Fp, "%255s %63s %15s %llx %llu %d", File, Form, Kind,
                     &First, &Count, &Width)) == 6) {
    int F = 0;
    while (F < NUM_FORMS && strcmp(FormNames[F], Form) != 0)
      ++F;
    bool Sweep = strcmp(Kind, "sweep") == 0;
    if (F == NUM_FORMS || (!Sweep && strcmp(Kind, "random") != 0) ||
        Width != (isWide(F) ? 8 : 4)) {
      fprintf(stderr, "approx_dump: %s: bad set '%s %s %s'\n", Path, File, Form,
              Kind);
      Ok = false;
      break;
    }
    Sets.push_back({F, Sweep, First, Count, File});
  }
  fclose(Fp);
  return Ok && N == EOF;
}

/// The sets a GPU session records.
static std::vector<Set> defaultSets() {
  const uint64_t Binade = 1ULL << 23, Random = 1ULL << 16;
  std::vector<Set> Sets;
  auto Add = [&](int F, bool Sweep, uint64_t First, uint64_t Count,
                 const char *Tag) {
    Sets.push_back({F, Sweep, First, Count,
                    std::string(FormNames[F]) + "." + Tag + ".bin"});
  };
  // Whole binades where the result's shape is set: [1,2) for the periodic
  // or mantissa-only functions, [1,4) where the exponent's parity matters
  // (square roots); ex2 also over [-2,-1) (frac(x) of negative x), sin and
  // cos over [2,4) (up to 4 > pi).
  const uint64_t One = 0x3f800000, Two = 0x40000000, MinusOne = 0xbf800000;
  for (int F : {EX2_FTZ, LG2_FTZ, RCP_FTZ, SIN, COS, TANH})
    Add(F, true, One, Binade, "sweep1");
  Add(EX2_FTZ, true, MinusOne, Binade, "sweepm1");
  for (int F : {RSQRT_FTZ, SQRT_FTZ})
    Add(F, true, One, 2 * Binade, "sweep1");
  for (int F : {SIN, COS})
    Add(F, true, Two, Binade, "sweep2");
  // tanh's segments and fixed-point scaling change with the binade: each
  // one from 2^-8 to 8 ([1,2) is sweep1 above; the emulator models only
  // that one so far, docs/emulator.md).
  for (int K = -8; K <= 2; ++K)
    if (K != 0)
      Add(TANH, true, (uint64_t)(127 + K) << 23, Binade,
          (std::string("binade") + std::to_string(K)).c_str());
  // f64: the high word's 20 mantissa bits over [1,2) (rsqrt: [1,4)).
  Add(RCP_FTZ_F64, true, 0x3ff00000, 1ULL << 20, "sweep1");
  Add(RSQRT_F64, true, 0x3ff00000, 1ULL << 21, "sweep1"); // [1,4)
  for (int F = 0; F < NUM_FORMS; ++F)
    Add(F, false, 0x5eed0000ULL + (uint64_t)F * (1ULL << 44), Random, "random");
  return Sets;
}

int main(int Argc, char **Argv) {
  if (Argc != 2 && Argc != 3) {
    fprintf(stderr, "usage: approx_dump OUTDIR [SETS]\n");
    return 2;
  }
  std::string Dir = Argv[1];
  std::vector<Set> Sets;
  if (Argc == 2)
    Sets = defaultSets();
  else if (!readSets(Argv[2], Sets)) {
    fprintf(stderr, "approx_dump: cannot read the sets in %s\n", Argv[2]);
    return 2;
  }

  std::string Manifest;
  for (const Set &S : Sets) {
    bool Wide = isWide(S.F);
    size_t Bytes = S.Count * (Wide ? 8 : 4);
    void *D = nullptr;
    CHECK(cudaMalloc(&D, Bytes));
    if (Wide)
      run64<<<1024, 256>>>(S.F, S.Sweep, S.First, S.Count, (uint64_t *)D);
    else
      run32<<<1024, 256>>>(S.F, S.Sweep, S.First, S.Count, (uint32_t *)D);
    CHECK(cudaGetLastError());
    std::vector<unsigned char> H(Bytes);
    CHECK(cudaMemcpy(H.data(), D, Bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(D));
    const std::string &Name = S.File;
    FILE *Fp = fopen((Dir + "/" + Name).c_str(), "wb");
    if (!Fp || fwrite(H.data(), 1, Bytes, Fp) != Bytes || fclose(Fp) != 0) {
      fprintf(stderr, "approx_dump: cannot write %s/%s\n", Dir.c_str(),
              Name.c_str());
      return 1;
    }
    char Line[256];
    snprintf(Line, sizeof Line, "%s %s %s %llx %llu %d\n", Name.c_str(),
             FormNames[S.F], S.Sweep ? "sweep" : "random",
             (unsigned long long)S.First, (unsigned long long)S.Count,
             Wide ? 8 : 4);
    Manifest += Line;
  }
  FILE *Fp = fopen((Dir + "/manifest.txt").c_str(), "w");
  if (!Fp || fputs(Manifest.c_str(), Fp) < 0 || fclose(Fp) != 0) {
    fprintf(stderr, "approx_dump: cannot write %s/manifest.txt\n", Dir.c_str());
    return 1;
  }
  printf("approx_dump: %zu sets in %s\nPASS\n", Sets.size(), Dir.c_str());
  return 0;
}

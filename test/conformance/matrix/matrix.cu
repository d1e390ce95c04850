// Warp matrix conformance (issue 16): every nvcuda::wmma combination that
// CUDA's mma.h offers for sm_90 (f16 with f16/f32 accumulators, bf16, tf32
// m16n16k8, f64 m8n8k4, s8/u8 with and without saturation; m16n16k16,
// m32n8k16, m8n32k16; A and B row- and column-major, C loaded and D stored
// both ways, leading dimensions other than the tile's), run by four warps
// on tiles at 32-byte but not 256-byte aligned addresses, against a host
// reference (plain loops in double / int64, values.h); and the mma.sync
// forms (m16n8k16 f16/bf16, m16n8k8 tf32, m8n8k4 f64) and ldmatrix x1/x2/x4
// (.trans) with the ISA's fragment layouts (mma_cases.h).
//
//   matrix [--filter S] [--dump FILE]   exit 0 when every check passes
//   matrix unsupported                  a sub-byte wmma must fail to launch
//
// A line per failing element (capped per case), then a summary line. --dump
// writes every D tile's bytes so that a GPU run can be diffed with this one.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels.h"
#include "values.h"

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,               \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

namespace {

struct Spec {
  std::string name; // geometry.multiplicand.alayout.blayout.dtype.ctype
  int M, N, K;
  Kind in, c, d;
  bool aRow, bRow;
  void (*kernel)(Tiles);
  bool shared = false;
};

struct Ctx {
  const char *filter = "";
  FILE *dump = nullptr;
  long checks = 0, failed = 0;
  int specs = 0;
};

constexpr int kWarps = 4;

// One matrix operand: R x C values, their bytes in a buffer with one tile
// per warp at 32 + w * stride bytes, the rest filled with `fill`.
struct Operand {
  int R, C;
  Kind k;
  bool row;
  unsigned ld;
  unsigned long long stride;
  std::vector<unsigned char> host;
  void *dev = nullptr;
  size_t offset(int r, int c) const {
    return (size_t)(row ? r * ld + c : c * ld + r) * kindSize(k);
  }
  void init(unsigned char fill) {
    size_t span = (size_t)(row ? R : C) * ld * kindSize(k);
    stride = (span + 31) / 32 * 32;
    host.assign(32 + kWarps * stride, fill);
    CK(cudaMalloc(&dev, host.size()));
  }
  unsigned char *at(int w, int r, int c) {
    return &host[32 + w * stride + offset(r, c)];
  }
  uint64_t get(int w, int r, int c) {
    uint64_t b = 0;
    memcpy(&b, at(w, r, c), kindSize(k));
    return b;
  }
  void set(int w, int r, int c, uint64_t b) {
    memcpy(at(w, r, c), &b, kindSize(k));
  }
  const void *tiles() const { return (const char *)dev + 32; }
};

// 16 bytes of leading-dimension granularity (load_matrix_sync's rule).
unsigned ldFor(int R, int C, Kind k, bool row, int pad) {
  return (unsigned)(row ? C : R) + pad * 16 / kindSize(k);
}

void fail(Ctx &x, int &shown, const std::string &what) {
  ++x.failed;
  if (++shown <= 8)
    printf("FAIL %s\n", what.c_str());
}

// Inputs of one warp's tile (A M x K, B K x N, C M x N, row-major).
struct Inputs {
  std::vector<double> A, B, C;
};

Inputs makeInputs(const Spec &s, Mode m, Rng &r, int shift) {
  Inputs in;
  auto gen = [&](std::vector<double> &v, int n, Kind k, Role role) {
    v.resize(n);
    for (double &x : v)
      x = inputValue(r, k, m, role, shift);
  };
  gen(in.A, s.M * s.K, s.in, RA);
  gen(in.B, s.K * s.N, s.in, RB);
  gen(in.C, s.M * s.N, s.c, RC);
  if (m != MSpecial)
    return in;
  // Specials anywhere but A's row 0, B's column 0 and C's (0,0), (0,1);
  // those make D(0,0) = -0 + sum of (-0 * positive) = -0 in IEEE arithmetic
  // (either zero passes but for f64: see checkElem) and D(0,1) = +0.
  for (int i = 0; i < 6; ++i) {
    in.A[s.K * r.range(1, s.M - 1) + r.range(0, s.K - 1)] = specialValue(r);
    in.B[s.N * r.range(0, s.K - 1) + r.range(1, s.N - 1)] = specialValue(r);
    in.C[r.range(2, s.M * s.N - 1)] = specialValue(r);
  }
  for (int k = 0; k < s.K; ++k) {
    in.A[k] = -0.0;
    in.B[k * s.N] = std::fabs(in.B[k * s.N]);
  }
  in.C[0] = -0.0;
  in.C[1] = 0.0;
  return in;
}

std::string num(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string hex(uint64_t b, Kind k) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%0*llx", 2 * kindSize(k), (unsigned long long)b);
  return buf;
}

// Compares D element (mm, nn) of warp w with the reference.
void checkElem(Ctx &x, const Spec &s, Mode m, int w, int mm, int nn,
               uint64_t got, double want, double absSum, int &shown) {
  ++x.checks;
  char where[160];
  snprintf(where, sizeof where, "%s %s warp %d D(%d,%d): got %s",
           s.name.c_str(), modeName(m), w, mm, nn, hex(got, s.d).c_str());
  double g = decode(s.d, got);
  if (m == MGeneral && !kindInt(s.d)) {
    double bound = generalBound(s.K, s.c, s.d, absSum, want);
    if (!(std::fabs(g - want) <= bound))
      fail(x, shown,
           std::string(where) + " = " + num(g) + ", want " + num(want) +
               " within " + num(bound));
    return;
  }
  if (std::isnan(want)) { // the ISA does not fix a NaN's payload
    if (!std::isnan(g))
      fail(x, shown, std::string(where) + ", want a NaN");
    return;
  }
  uint64_t wb = 0;
  if (!encode(s.d, want, wb)) {
    fail(x, shown,
         std::string(where) + ": reference " + num(want) +
             " is not exact in the D type (suite bug)");
    return;
  }
  // f16/bf16/tf32 products: the ISA leaves "the accumulation order,
  // rounding and handling of subnormal inputs" unspecified, so a zero sum
  // has either sign (sm_90 gives +0 for -0 + -0 * x ...); f64 is fma-exact.
  if (got != wb && !(want == 0 && s.in != KF64 && g == 0))
    fail(x, shown,
         std::string(where) + ", want " + hex(wb, s.d) + " (" + num(want) +
             ")");
}

// One mode of one spec: inputs for four warps, launch, check D tiles and
// that nothing around them was written.
void runMode(Ctx &x, const Spec &s, Mode m, int variant, bool satf) {
  static const int cdRow[4][2] = {{1, 1}, {0, 0}, {1, 0}, {0, 1}};
  int cRow = cdRow[variant % 4][0], dRow = cdRow[variant % 4][1];
  int pa = (variant + 1) % 3, pc = (variant + 2) % 3, pd = variant % 3;
  if (s.shared) // the staging arrays hold 16 x 40 elements
    pa = 1;
  Operand A{s.M, s.K, s.in == KTF32 ? KF32 : s.in, s.aRow};
  Operand B{s.K, s.N, A.k, s.bRow};
  Operand C{s.M, s.N, s.c, cRow != 0}, D{s.M, s.N, s.d, dRow != 0};
  A.ld = ldFor(A.R, A.C, A.k, A.row, pa);
  B.ld = ldFor(B.R, B.C, B.k, B.row, (pa + 1) % 3);
  C.ld = ldFor(C.R, C.C, C.k, C.row, pc);
  D.ld = ldFor(D.R, D.C, D.k, D.row, pd);
  // Bytes outside the tiles: NaN / -1 in the inputs (a stray read shows),
  // a sentinel in D (a stray write shows).
  A.init(0xff), B.init(0xff), C.init(0xff), D.init(0xa5);
  Rng r{0x9e3779b97f4a7c15ull ^
        (std::hash<std::string>()(s.name) + m * 131 + satf)};
  std::vector<RefOut> ref;
  int shown = 0;
  static const int shifts[kWarps] = {0, 3, -4, 6};
  const double fill = s.in == KS8 ? -7 : s.in == KU8 ? 200 : 0.75;
  for (int w = 0; w < kWarps; ++w) {
    // Fill: one fill value for all warps, so one grid (shift 0).
    Inputs in =
        makeInputs(s, m == MFill ? MExact : m, r, m == MFill ? 0 : shifts[w]);
    auto put = [&](Operand &o, const std::vector<double> &v, Kind k) {
      for (int i = 0; i < o.R; ++i)
        for (int j = 0; j < o.C; ++j) {
          uint64_t b = 0;
          if (!encode(k, v[(size_t)i * o.C + j], b))
            fail(x, shown,
                 s.name + " " + modeName(m) + ": input " +
                     num(v[(size_t)i * o.C + j]) +
                     " not exact in its type (suite bug)");
          o.set(w, i, j, b);
        }
    };
    put(A, in.A, s.in);
    put(B, in.B, s.in);
    put(C, in.C, s.c);
    if (m == MFill) { // what fill_fragment and x[i] = -x[i] make of them
      for (double &v : in.A)
        v = fill;
      for (double &v : in.C)
        v = -v;
    }
    ref.push_back(
        reference(s.M, s.N, s.K, in.A, in.B, in.C, kindInt(s.in), satf));
  }
  for (Operand *o : {&A, &B, &C, &D})
    CK(cudaMemcpy(o->dev, o->host.data(), o->host.size(),
                  cudaMemcpyHostToDevice));
  Tiles t{
      A.tiles(), B.tiles(), C.tiles(),    (void *)D.tiles(), A.ld,     B.ld,
      C.ld,      D.ld,      A.stride,     B.stride,          C.stride, D.stride,
      cRow,      dRow,      satf ? 1 : 0, m == MFill,        fill};
  void *args[] = {&t};
  dim3 grid = s.shared ? dim3(kWarps) : dim3(2), block = s.shared ? 32 : 64;
  CK(cudaLaunchKernel((const void *)s.kernel, grid, block, args, 0, nullptr));
  CK(cudaDeviceSynchronize());
  std::vector<unsigned char> before = D.host;
  CK(cudaMemcpy(D.host.data(), D.dev, D.host.size(), cudaMemcpyDeviceToHost));
  std::vector<bool> inTile(D.host.size(), false);
  for (int w = 0; w < kWarps; ++w) {
    if (x.dump)
      fprintf(x.dump, "%s %s%s %d", s.name.c_str(), modeName(m),
              satf ? ".satf" : "", w);
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        uint64_t got = D.get(w, i, j);
        size_t at = D.at(w, i, j) - D.host.data();
        for (unsigned b = 0; b < kindSize(D.k); ++b)
          inTile[at + b] = true;
        if (x.dump)
          fprintf(x.dump, " %s", hex(got, D.k).c_str() + 2);
        checkElem(x, s, m, w, i, j, got, ref[w].d[(size_t)i * s.N + j],
                  ref[w].absSum[(size_t)i * s.N + j], shown);
      }
    if (x.dump)
      fputc('\n', x.dump);
  }
  for (size_t i = 0; i < D.host.size(); ++i)
    if (!inTile[i] && D.host[i] != before[i]) {
      fail(x, shown,
           s.name + " " + modeName(m) + ": byte " + std::to_string(i) +
               " outside the D tiles written");
      break;
    }
  if (shown > 8)
    printf("FAIL %s %s: %d more failing checks\n", s.name.c_str(), modeName(m),
           shown - 8);
  for (Operand *o : {&A, &B, &C, &D})
    CK(cudaFree(o->dev));
}

void runSpec(Ctx &x, const Spec &s) {
  if (!strstr(s.name.c_str(), x.filter))
    return;
  ++x.specs;
  if (kindInt(s.in)) {
    runMode(x, s, MExact, 0, false);
    runMode(x, s, MExact, 1, true);
    runMode(x, s, MSaturate, 2, true);
    runMode(x, s, MSaturate, 3, false); // wraps modulo 2^32
    runMode(x, s, MFill, 1, false);
    return;
  }
  if (!s.shared) // the shared-memory kernel has no fill variant
    runMode(x, s, MFill, 3, false);
  runMode(x, s, MExact, 0, false);
  runMode(x, s, MSpecial, 1, false);
  runMode(x, s, MGeneral, 2, false);
  if (s.in == KF16)
    runMode(x, s, MSubnormal, 3, false);
}

} // namespace

// The spec table (specs.h) names each kernel instantiation; mma_cases.h
// runs mma.sync and ldmatrix with the ISA's fragment layouts.
#include "mma_cases.h"
#include "specs.h"

static int expectUnsupported() {
  int *a, *b, *d;
  CK(cudaMalloc(&a, 1024));
  CK(cudaMalloc(&b, 1024));
  CK(cudaMalloc(&d, 1024));
  subByteKernel<<<1, 32>>>(a, b, d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) {
    printf("sub-byte wmma ran (a GPU implements it; the emulator should "
           "have failed the launch)\n");
    return 1;
  }
  printf("launch failed as expected: %s\n", cudaGetErrorString(e));
  return 0;
}

int main(int argc, char **argv) {
  Ctx x;
  const char *dumpPath = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "unsupported") && argc == 2)
      return expectUnsupported();
    if (!strcmp(argv[i], "--filter") && i + 1 < argc)
      x.filter = argv[++i];
    else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
      dumpPath = argv[++i];
    else {
      fprintf(stderr,
              "error: unknown argument '%s'; use --filter S, --dump FILE or "
              "unsupported\n",
              argv[i]);
      return 2;
    }
  }
  if (dumpPath && !(x.dump = fopen(dumpPath, "w"))) {
    fprintf(stderr, "error: cannot write %s\n", dumpPath);
    return 2;
  }
  if (x.dump)
    fputs("warpscope-matrixconf/1\n", x.dump);
  for (const Spec &s : specs())
    runSpec(x, s);
  runMmaSpecs(x);
  for (int X : {1, 2, 4})
    for (bool trans : {false, true})
      runLdmatrix(x, X, trans);
  if (x.dump)
    fclose(x.dump);
  printf("%d forms, %ld checks, %ld failed\n", x.specs, x.checks, x.failed);
  if (x.specs == 0) {
    fprintf(stderr, "error: --filter '%s' matches no case\n", x.filter);
    return 2;
  }
  return x.failed ? 1 : 0;
}

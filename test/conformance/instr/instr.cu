// Instruction conformance suite of the PTX emulator (issue 16, item 2): every
// generated form (instr_forms.h) runs on a set of edge-case inputs and its
// result bits are compared with the host reference in ref.h.
//   instr [--dump FILE] [--exhaustive N] [--filter SUBSTR]
//   instr --check-dump FILE
// Prints one line per failing case and "N forms, M cases, K failed"; exits 0
// only when every case passes. The dump lists (form, inputs, result bits) so
// that a run on a real GPU can be diffed with the emulator's. --check-dump
// runs no kernel: it applies the suite's checks to the results of a dump
// (a GPU's, or a fixture of its lines), so that the host reference can be
// held against a GPU offline.
#include "cases.h"
#include "ref.h"
#include "ref_half.h"
#include "ref_more.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <map>
#include <string>

using u64 = uint64_t;
// Exact: bit for bit. Nan: any NaN matches an expected NaN. Low8: only the
// low byte is specified (8-bit results in a 16-bit register). Approx: the
// reference is the exact value as double bits and `rel`/`abs` the ISA's
// maximum error (.approx instructions are not bit-specified).
// Satz: f32 .sat, where the ISA's "[0.0, 1.0]" leaves the sign of a zero
// result open (-0.0 is in that range); either zero matches an expected zero
// until a GPU run (issue 21) settles it.
// Nan16, Nanbf16: Nan for f16 and bf16 results.
// H16, Hbf: f16/bf16 results, one element ('h') or two packed ('r'), each
// bit for bit except that any NaN matches an expected NaN; ...z: a zero may
// also have either sign (.sat, .relu; see Satz); ...rz: .relu, whose NaN
// result is the canonical NaN, so NaNs compare exactly.
enum class Check {
  Exact,
  Nan,
  Low8,
  Approx,
  Satz,
  Nan16,
  Nanbf16,
  H16,
  Hbf,
  H16z,
  Hbfz,
  H16rz,
  Hbfrz
};
struct Form {
  const char *name;
  void (*kernel)(const u64 *, const u64 *, const u64 *, u64 *, int);
  const char *cls;
  int nsrc;
  char dst;
  u64 (*ref)(u64, u64, u64);
  Check check;
  double rel, abs, ulps = 0.5; // ulps: the rounding of the result to f32
};
#include "instr_forms.h"

static bool isNan(u64 v, char w) {
  if (w == 'r')
    return std::isnan(ref::f(v));
  return std::isnan(ref::d(v));
}

// Exact forms compare bit for bit; for `Nan` forms the ISA does not fix the
// payload of a NaN result of arithmetic, so any NaN matches an expected NaN.
static bool approxOk(const Form &f, u64 got, u64 want) {
  double w = ref::d(want), g = ref::f(got);
  if (want == ref::kUnbounded)
    return true; // input outside the range the ISA bounds the error on
  if (std::isnan(w))
    return std::isnan(g);
  if (std::isinf(w) || w == 0)
    return g == w || std::fabs(g - w) <= f.abs;
  if (std::fabs(w) < 0x1p-126 || std::fabs(w) > 0x1.fffffep127)
    return true; // subnormal or overflowing result: flushing is allowed
  // Plus the rounding to f32 (f.ulps): the bound is on the computation, and
  // the result still has to be rounded (or, lg2, truncated) to f32.
  float wf = (float)w;
  double round =
      (std::nextafter(std::fabs(wf), INFINITY) - std::fabs(wf)) * f.ulps;
  return std::fabs(g - w) <= std::max(f.abs, f.rel * std::fabs(w)) + round;
}

// f16/bf16 elements of a result (see Check::H16).
static bool halvesOk(const Form &f, u64 got, u64 want) {
  Check c = f.check;
  bool bf = c == Check::Hbf || c == Check::Hbfz || c == Check::Hbfrz;
  bool nanAny = c == Check::H16 || c == Check::Hbf || c == Check::H16z ||
                c == Check::Hbfz;
  bool zeroAny = c != Check::H16 && c != Check::Hbf;
  u64 inf = bf ? 0x7f80 : 0x7c00;
  for (int e = 0; e < (f.dst == 'h' ? 1 : 2); ++e) {
    u64 g = got >> (16 * e) & 0xffff, w = want >> (16 * e) & 0xffff;
    if (g == w || (nanAny && (w & 0x7fff) > inf && (g & 0x7fff) > inf) ||
        (zeroAny && (w & 0x7fff) == 0 && (g & 0x7fff) == 0))
      continue;
    return false;
  }
  return true;
}

static bool matches(const Form &f, u64 got, u64 want) {
  if (f.check == Check::Approx)
    return approxOk(f, got, want);
  if (f.check >= Check::H16)
    return halvesOk(f, got, want);
  if (got == want)
    return true;
  if (f.check == Check::Satz && (want & 0x7fffffff) == 0 &&
      (got & 0x7fffffff) == 0)
    return true;
  if (f.check == Check::Nan16 || f.check == Check::Nanbf16) {
    u64 inf = f.check == Check::Nan16 ? 0x7c00 : 0x7f80;
    return (want & 0x7fff) > inf && (got & 0x7fff) > inf;
  }
  if (f.check == Check::Low8)
    return (got & 0xff) == (want & 0xff);
  return f.check == Check::Nan && isNan(want, f.dst) && isNan(got, f.dst);
}

// Set by a launch error: CUDA errors of launches are sticky (the process
// has to be restarted), so no later form can run.
static const char *gStuck = nullptr;

static int runForm(const Form &f, const std::vector<Case> &cs, FILE *dump,
                   unsigned &failed) {
  size_t n = cs.size();
  if (gStuck) {
    std::printf("FAIL %s: not run: the launch error of %s is sticky; rerun "
                "with --filter\n",
                f.name, gStuck);
    failed += (unsigned)n;
    return 1;
  }
  std::vector<u64> h(4 * n);
  for (size_t i = 0; i < n; ++i) {
    h[i] = cs[i].a;
    h[n + i] = cs[i].b;
    h[2 * n + i] = cs[i].c;
  }
  u64 *dev = nullptr;
  if (cudaMalloc(&dev, 4 * n * sizeof(u64)) != cudaSuccess) {
    std::printf("FAIL %s: cudaMalloc failed\n", f.name);
    failed += (unsigned)n;
    return 1;
  }
  cudaMemcpy(dev, h.data(), 3 * n * sizeof(u64), cudaMemcpyHostToDevice);
  cudaMemset(dev + 3 * n, 0xcd, n * sizeof(u64));
  f.kernel<<<(unsigned)((n + 127) / 128), 128>>>(dev, dev + n, dev + 2 * n,
                                                 dev + 3 * n, (int)n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess)
    err = cudaMemcpy(h.data() + 3 * n, dev + 3 * n, n * sizeof(u64),
                     cudaMemcpyDeviceToHost);
  cudaFree(dev);
  if (err != cudaSuccess) {
    std::printf("FAIL %s: launch error: %s\n", f.name, cudaGetErrorString(err));
    failed += (unsigned)n;
    gStuck = f.name;
    return 1;
  }
  u64 m = f.dst == 'r' ? 0xffffffffull : f.dst == 'h' ? 0xffffull : ~0ull;
  for (size_t i = 0; i < n; ++i) {
    u64 want = f.ref(cs[i].a, cs[i].b, cs[i].c);
    u64 got = h[3 * n + i] & m;
    if (f.check != Check::Approx)
      want &= m;
    if (dump)
      std::fprintf(dump, "%s\t%zu\t%llx %llx %llx\t%llx%s\n", f.name, i,
                   (unsigned long long)cs[i].a, (unsigned long long)cs[i].b,
                   (unsigned long long)cs[i].c, (unsigned long long)got,
                   f.check == Check::Nan || f.check == Check::Nan16 ||
                           f.check == Check::Nanbf16 || f.check == Check::H16 ||
                           f.check == Check::Hbf
                       ? "\tnan-any"
                   : f.check == Check::H16z || f.check == Check::Hbfz
                       ? "\tnan-any sat-zero-sign"
                   : f.check == Check::H16rz || f.check == Check::Hbfrz
                       ? "\tsat-zero-sign"
                   : f.check == Check::Approx ? "\tapprox"
                   : f.check == Check::Satz   ? "\tsat-zero-sign"
                                              : "");
    if (!matches(f, got, want)) {
      if (++failed <= 100000)
        std::printf("FAIL %s: in %llx %llx %llx got %llx want %llx\n", f.name,
                    (unsigned long long)cs[i].a, (unsigned long long)cs[i].b,
                    (unsigned long long)cs[i].c, (unsigned long long)got,
                    (unsigned long long)want);
    }
  }
  return 0;
}

// --check-dump: each line `form<TAB>case<TAB>a b c<TAB>result[<TAB>marker]`
// is checked as runForm checks a result; a form this build lacks fails.
static int checkDump(const char *path) {
  FILE *in = std::fopen(path, "r");
  if (!in) {
    std::fprintf(stderr, "instr: cannot read '%s'\n", path);
    return 2;
  }
  std::map<std::string, const Form *> byName;
  for (const Form &f : kForms)
    byName[f.name] = &f;
  char line[512];
  unsigned lines = 0, failed = 0;
  while (std::fgets(line, sizeof line, in)) {
    char name[128];
    unsigned long long a, b, c, got;
    size_t idx;
    if (std::sscanf(line, "%127[^\t]\t%zu\t%llx %llx %llx\t%llx", name, &idx,
                    &a, &b, &c, &got) != 6)
      continue;
    ++lines;
    auto it = byName.find(name);
    if (it == byName.end()) {
      std::printf("FAIL %s: no such form in this build\n", name);
      ++failed;
      continue;
    }
    const Form &f = *it->second;
    u64 m = f.dst == 'r' ? 0xffffffffull : f.dst == 'h' ? 0xffffull : ~0ull;
    u64 want = f.ref(a, b, c);
    if (f.check != Check::Approx)
      want &= m;
    if (!matches(f, got & m, want) && ++failed <= 100000)
      std::printf("FAIL %s: in %llx %llx %llx got %llx want %llx\n", name, a, b,
                  c, got & m, (unsigned long long)want);
  }
  std::fclose(in);
  std::printf("%u results checked, %u failed\n", lines, failed);
  return failed || !lines ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !std::strcmp(argv[1], "--check-dump"))
    return checkDump(argv[2]);
  const char *dumpPath = nullptr, *filter = nullptr;
  unsigned extra = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--dump") && i + 1 < argc)
      dumpPath = argv[++i];
    else if (!std::strcmp(argv[i], "--exhaustive") && i + 1 < argc)
      extra = (unsigned)std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc)
      filter = argv[++i];
    else {
      std::fprintf(stderr,
                   "instr: unknown argument '%s'; use --dump FILE, "
                   "--exhaustive N, --filter SUBSTR or --check-dump FILE\n",
                   argv[i]);
      return 2;
    }
  }
  int count;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("instr: no CUDA device; skipped\n");
    return 77;
  }
  FILE *dump = dumpPath ? std::fopen(dumpPath, "w") : nullptr;
  if (dumpPath && !dump) {
    std::fprintf(stderr, "instr: cannot write '%s'\n", dumpPath);
    return 2;
  }
  std::mt19937_64 rng(16);
  unsigned forms = 0, failed = 0;
  size_t total = 0;
  for (const Form &f : kForms) {
    if (filter && !std::strstr(f.name, filter))
      continue;
    std::vector<Case> cs = cases::make(f.cls, extra, rng);
    runForm(f, cs, dump, failed);
    ++forms;
    total += cs.size();
  }
  if (dump)
    std::fclose(dump);
  std::printf("%u forms, %zu cases, %u failed\n", forms, total, failed);
  return failed ? 1 : 0;
}

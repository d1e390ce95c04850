//===- bench_common.h - shared helpers for the WarpScope benchmarks -------===//
//
// Every benchmark is one self-checking .cu file that includes this header.
// It provides: a fixed-seed LCG (no rand()), a CHECK macro for CUDA API
// calls, size parsing (small | large | N [reps]), a cudaEvent timer for the
// kernel section, float comparison with a tolerance that accepts
// fma-contraction and fast-math differences, and the final PASS/FAIL line.
//
// Only the CUDA runtime calls that the WarpScope PTX emulator implements are
// used here: cudaEventCreate/Record/Synchronize/ElapsedTime/Destroy,
// cudaGetLastError, cudaDeviceSynchronize.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_BENCH_COMMON_H
#define WARPSCOPE_BENCH_COMMON_H

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace bench {

/// Name of the running benchmark, set by Args::parse; used by CHECK.
static const char *g_name = "?";

/// Reports a failed CUDA call and exits 1 with the FAIL line. Prints the
/// numeric error code only (no cudaGetErrorString: not every runtime the
/// benchmarks run on implements it).
static inline void check_failed(int code, const char *what, const char *file,
                                int line) {
  fprintf(stderr, "%s:%d: %s returned CUDA error %d\n", file, line, what,
          code);
  printf("FAIL %s: CUDA error %d from %s\n", g_name, code, what);
  fflush(stdout);
  exit(1);
}

} // namespace bench

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t check_err_ = (call);                                           \
    if (check_err_ != cudaSuccess)                                             \
      bench::check_failed((int)check_err_, #call, __FILE__, __LINE__);         \
  } while (0)

/// After a <<<>>> launch: catches launch-configuration errors.
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

namespace bench {

/// 64-bit LCG (Knuth MMIX constants); returns the high 32 bits.
struct Lcg {
  uint64_t s;
  explicit Lcg(uint64_t seed) : s(seed * 2862933555777941757ULL + 1) {}
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(s >> 32);
  }
  /// Uniform in [0, 1) with 24 bits of precision.
  float uniform() { return (float)(next() >> 8) * (1.0f / 16777216.0f); }
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  /// Uniform integer in [0, n).
  uint32_t below(uint32_t n) { return (uint32_t)(((uint64_t)next() * n) >> 32); }
};

enum class SizeKind { Small, Large, Custom };

/// Command line: prog [small|large|N] [reps]. `small` is the default.
struct Args {
  SizeKind kind = SizeKind::Small;
  long n = 0;    ///< only for Custom
  int reps = 0;  ///< 0: the program's default for the size

  static Args parse(int argc, char **argv, const char *name) {
    g_name = name;
    Args a;
    if (argc > 1) {
      if (!strcmp(argv[1], "small")) {
        a.kind = SizeKind::Small;
      } else if (!strcmp(argv[1], "large")) {
        a.kind = SizeKind::Large;
      } else {
        char *end = nullptr;
        long v = strtol(argv[1], &end, 10);
        if (!end || *end || v <= 0) {
          fprintf(stderr, "usage: %s [small|large|N] [reps]\n", argv[0]);
          printf("FAIL %s: bad size argument '%s'\n", name, argv[1]);
          exit(1);
        }
        a.kind = SizeKind::Custom;
        a.n = v;
      }
    }
    if (argc > 2) {
      int r = atoi(argv[2]);
      if (r <= 0) {
        fprintf(stderr, "usage: %s [small|large|N] [reps]\n", argv[0]);
        printf("FAIL %s: bad reps argument '%s'\n", name, argv[2]);
        exit(1);
      }
      a.reps = r;
    }
    return a;
  }

  /// Picks the problem size: small, large or the user's N.
  long pick(long small, long large) const {
    return kind == SizeKind::Small ? small
           : kind == SizeKind::Large ? large
                                     : n;
  }
  /// Picks the repetition count of the kernel section (1 unless large).
  int pickReps(int large) const {
    if (reps > 0)
      return reps;
    return kind == SizeKind::Large ? large : 1;
  }
  bool isLarge() const { return kind == SizeKind::Large; }
};

/// CLOCK_REALTIME in ns: the clock a power sampler beside the program reads.
static inline long long wall_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/// Times the kernel section with CUDA events on the default stream. With
/// BENCH_WALLCLOCK set, stop() also prints `section_wall_ns START END`, the
/// wall-clock interval of the section, so that GPU power samples taken
/// beside the run (benchmarks/gpu/power_sampler.py) can be joined with it.
struct Timer {
  cudaEvent_t start_ev = nullptr, stop_ev = nullptr;
  long long start_wall = 0;
  Timer() {
    CHECK(cudaEventCreate(&start_ev));
    CHECK(cudaEventCreate(&stop_ev));
  }
  ~Timer() {
    cudaEventDestroy(start_ev);
    cudaEventDestroy(stop_ev);
  }
  void start() {
    start_wall = wall_ns();
    CHECK(cudaEventRecord(start_ev, 0));
  }
  /// Records the stop event, waits for it and returns elapsed ms.
  float stop() {
    CHECK(cudaEventRecord(stop_ev, 0));
    CHECK(cudaEventSynchronize(stop_ev));
    long long stop_wall = wall_ns();
    CHECK(cudaGetLastError());
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start_ev, stop_ev));
    if (getenv("BENCH_WALLCLOCK"))
      printf("section_wall_ns %lld %lld\n", start_wall, stop_wall);
    return ms;
  }
};

static inline void print_time(float ms) {
  printf("time_ms %.3f\n", ms);
  fflush(stdout);
}

/// Float closeness: |got - ref| <= atol + rtol * |ref|. NaN never matches.
static inline bool close(double got, double ref, double rtol, double atol) {
  if (std::isnan(got) || std::isnan(ref))
    return false;
  return std::fabs(got - ref) <= atol + rtol * std::fabs(ref);
}

/// Collects the first mismatch of a comparison for the FAIL line.
struct Checker {
  bool ok = true;
  long mismatches = 0;
  char why[256] = {0};
  // Tolerance use of the float comparisons: worst |got - ref| / tolerance
  // (printed by finish() when BENCH_VERBOSE is set; > 1 means a mismatch).
  long compared = 0;
  double worst_ratio = 0.0;
  char worst_at[96] = {0};

  void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));

  /// Integer (exact) comparison of element i.
  bool eq(long long got, long long ref, const char *what, long i) {
    if (got == ref)
      return true;
    if (ok)
      snprintf(why, sizeof(why), "%s[%ld] = %lld, expected %lld", what, i,
               got, ref);
    ok = false;
    ++mismatches;
    return false;
  }
  /// Float comparison of element i with tolerance.
  bool near(double got, double ref, double rtol, double atol, const char *what,
            long i) {
    ++compared;
    double tol = atol + rtol * std::fabs(ref);
    double ratio = tol > 0 ? std::fabs(got - ref) / tol
                           : (got == ref ? 0.0 : INFINITY);
    if (ratio > worst_ratio || std::isnan(ratio)) {
      worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
      snprintf(worst_at, sizeof(worst_at), "%s[%ld]", what, i);
    }
    if (close(got, ref, rtol, atol))
      return true;
    if (ok)
      snprintf(why, sizeof(why), "%s[%ld] = %.9g, expected %.9g", what, i, got,
               ref);
    ok = false;
    ++mismatches;
    return false;
  }
};

} // namespace bench

#include <cstdarg>
inline void bench::Checker::fail(const char *fmt, ...) {
  if (ok) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
  }
  ok = false;
  ++mismatches;
}

namespace bench {
/// Prints the final line and returns the process exit code.
static inline int finish(const Checker &c) {
  if (getenv("BENCH_VERBOSE") && c.compared)
    fprintf(stderr, "check: %ld float comparisons, worst error/tolerance %.3g at %s\n",
            c.compared, c.worst_ratio, c.worst_at);
  if (c.ok) {
    printf("PASS %s\n", g_name);
  } else if (c.mismatches > 1) {
    printf("FAIL %s: %s (%ld mismatches)\n", g_name, c.why, c.mismatches);
  } else {
    printf("FAIL %s: %s\n", g_name, c.why);
  }
  fflush(stdout);
  return c.ok ? 0 : 1;
}
} // namespace bench

#endif // WARPSCOPE_BENCH_COMMON_H

// CUDA Math API conformance: runs every function of functions.h on
// thousands of inputs (edge cases plus seeded random values), compares with
// a long double host reference and checks NVIDIA's documented maximum ulp
// error. Exit 0 only if every function is within its bound.
//   --inputs N      random inputs per function (default 1024)
//   --filter S      only functions whose name contains S
//   --markdown      print the result table as Markdown
//   --dump FILE     write every raw result (to compare runs bit for bit)
//   --compare FILE  compare this run's raw results with a dump
#include "functions_f64.h"
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

MC_F32(MC_DEFINE)
MC_F32_INTRINSICS(MC_DEFINE)
MC_F64(MC_DEFINE)
MC_F64_INTRINSICS(MC_DEFINE)

static const Entry kEntries[] = {MC_F32(MC_ENTRY) MC_F32_INTRINSICS(
    MC_ENTRY) MC_F64(MC_ENTRY) MC_F64_INTRINSICS(MC_ENTRY)};

template <class T> struct Bits;
template <> struct Bits<float> {
  using U = uint32_t;
};
template <> struct Bits<double> {
  using U = uint64_t;
};

// Integers ordered like the floats they encode (+0 and -0 both map to 0,
// infinity follows the largest finite value), so a difference counts ulps.
template <class T> static int64_t ordered(T v) {
  typename Bits<T>::U u;
  memcpy(&u, &v, sizeof u);
  const typename Bits<T>::U sign = (typename Bits<T>::U)1 << (8 * sizeof u - 1);
  int64_t m = (int64_t)(u & ~sign);
  return (u & sign) ? -m : m;
}

template <class T> static bool special(T v) {
  return std::isnan(v) || std::isinf(v) || v == 0;
}

// Edge cases every function sees: signed zeros, subnormals, normal limits,
// infinities, NaN, integers and half-integers with their neighbours (gamma,
// rounding, sinpi), multiples of pi/2 with neighbours (trig), domain ends.
template <class T> static std::vector<T> edgeValues(const Domain &d) {
  using L = std::numeric_limits<T>;
  std::vector<T> base = {0,        L::denorm_min(), L::min() - L::denorm_min(),
                         L::min(), (T)0.5,          (T)1,
                         (T)2,     L::max(),        L::infinity(),
                         (T)1e-30, (T)1e30,         (T)d.xlo,
                         (T)d.xhi};
  std::vector<T> v;
  for (T b : base)
    for (T s : {b, -b})
      for (T w : {s, std::nextafter(s, L::infinity()),
                  std::nextafter(s, -L::infinity())})
        v.push_back(w);
  for (int k = -30; k <= 30; ++k)
    for (T c : {(T)k, (T)(k + 0.5), (T)(k * (kPiL / 2))})
      for (T w : {c, std::nextafter(c, L::infinity()),
                  std::nextafter(c, -L::infinity())})
        v.push_back(w);
  v.push_back(L::quiet_NaN());
  v.push_back(-L::quiet_NaN());
  return v;
}

template <class T>
static T randomValue(std::mt19937_64 &rng, double lo, double hi) {
  if (rng() & 1) { // any bit pattern: every exponent, NaNs included
    typename Bits<T>::U u = (typename Bits<T>::U)rng();
    T v;
    memcpy(&v, &u, sizeof v);
    return v;
  }
  return (T)(lo +
             (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng));
}

template <class T> struct Inputs {
  std::vector<T> a, b, c;
};

template <class T>
static Inputs<T> makeInputs(const Entry &e, int nRandom, uint64_t seed) {
  Inputs<T> in;
  std::mt19937_64 rng(seed);
  std::vector<T> edge = edgeValues<T>(e.dom);
  if (e.arity == 1) {
    in.a = edge;
  } else { // every pair of a short edge list, then edges against randoms
    const T few[] = {0,
                     -0.0f,
                     1,
                     -1,
                     (T)0.5,
                     (T)2,
                     (T)3,
                     (T)-2.5,
                     std::numeric_limits<T>::infinity(),
                     -std::numeric_limits<T>::infinity(),
                     std::numeric_limits<T>::quiet_NaN(),
                     std::numeric_limits<T>::denorm_min(),
                     std::numeric_limits<T>::max()};
    for (T x : few)
      for (T y : few) {
        in.a.push_back(x);
        in.b.push_back(y);
        in.c.push_back(few[rng() % 13]);
      }
    for (T x : edge) {
      in.a.push_back(x);
      in.b.push_back(randomValue<T>(rng, e.dom.ylo, e.dom.yhi));
      in.c.push_back(randomValue<T>(rng, e.dom.xlo, e.dom.xhi));
    }
  }
  in.b.resize(in.a.size(), 1);
  in.c.resize(in.a.size(), 1);
  for (int i = 0; i < nRandom; ++i) {
    in.a.push_back(randomValue<T>(rng, e.dom.xlo, e.dom.xhi));
    in.b.push_back(randomValue<T>(rng, e.dom.ylo, e.dom.yhi));
    in.c.push_back(randomValue<T>(rng, e.dom.xlo, e.dom.xhi));
  }
  return in;
}

struct Result {
  size_t n = 0, checked = 0, failures = 0;
  double maxUlp = 0, maxAbs = 0, ulpBoundAtMax = 0;
  long double atX = 0, atY = 0, failX = 0, failY = 0, failGot = 0, failRef = 0;
  std::vector<unsigned char> raw;
};

// Is `got` within the bound for inputs x, y? Updates the maxima.
template <class T>
static bool checkOne(const Entry &e, T x, T y, T z, T got, Result &r) {
  const Bound &b = e.bound;
  bool anySpecial =
      special(x) || (e.arity > 1 && special(y)) || (e.arity > 2 && special(z));
  if (!std::isnan(x) && (x < b.chkLo || x > b.chkHi))
    return true;
  if (x > b.exLo && x < b.exHi)
    return true;
  if (e.arity > 1 && !(fabsl(y) >= b.yMagLo && fabsl(y) <= b.yMagHi))
    return true;
  ++r.checked;
  long double ref = e.ref(x, y, z);
  T want = (T)ref;
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) == std::isnan(got) || b.info;
  if (anySpecial && (std::isinf(want) || want == 0)) // exact, sign included
    return memcmp(&want, &got, sizeof(T)) == 0 || b.info;
  bool absRegion = (x >= b.absLo && x <= b.absHi) ||
                   (b.absOut < INFINITY && fabsl(x) >= b.absOut);
  if (absRegion) {
    double err = (double)fabsl((long double)got - ref);
    if (err > r.maxAbs)
      r.maxAbs = err;
    return err <= b.absErr || b.info;
  }
  double ulps = (double)llabs(ordered(got) - ordered(want));
  double bound =
      b.slope ? b.ulp + std::floor(std::fabs(b.slope * (double)x)) : b.ulp;
  if (ulps > r.maxUlp) {
    r.maxUlp = ulps;
    r.ulpBoundAtMax = bound;
    r.atX = x;
    r.atY = y;
  }
  return ulps <= bound || b.info;
}

template <class T>
static Result runEntry(const Entry &e, int nRandom, uint64_t seed) {
  Inputs<T> in = makeInputs<T>(e, nRandom, seed);
  int n = (int)in.a.size();
  size_t bytes = n * sizeof(T);
  void *d[4];
  for (void *&p : d)
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
      fprintf(stderr, "error: cudaMalloc of %zu bytes failed\n", bytes);
      exit(2);
    }
  cudaMemcpy(d[0], in.a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d[1], in.b.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d[2], in.c.data(), bytes, cudaMemcpyHostToDevice);
  e.launch(d[0], d[1], d[2], d[3], n);
  std::vector<T> out(n);
  cudaError_t err = cudaMemcpy(out.data(), d[3], bytes, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess || cudaGetLastError() != cudaSuccess) {
    fprintf(stderr, "error: kernel for %s failed: %s\n", e.name,
            cudaGetErrorString(err));
    exit(2);
  }
  for (void *p : d)
    cudaFree(p);
  Result r;
  r.n = n;
  for (int i = 0; i < n; ++i)
    if (!checkOne<T>(e, in.a[i], in.b[i], in.c[i], out[i], r) &&
        r.failures++ == 0) {
      r.failX = in.a[i];
      r.failY = in.b[i];
      r.failGot = out[i];
      r.failRef = e.ref(in.a[i], in.b[i], in.c[i]);
    }
  r.raw.resize(bytes);
  memcpy(r.raw.data(), out.data(), bytes);
  return r;
}

static std::string boundText(const Bound &b) {
  if (b.info)
    return "none documented";
  char s[160];
  int k = snprintf(s, sizeof s, "%g", b.ulp);
  if (b.slope)
    k += snprintf(s + k, sizeof s - k, " + floor(|%g x|)", b.slope);
  if (b.absOut < INFINITY)
    k += snprintf(s + k, sizeof s - k, " (|x|<%g); abs %g", b.absOut, b.absErr);
  if (b.absLo <= b.absHi)
    k += snprintf(s + k, sizeof s - k, "; abs %.3g in [%.4g, %.4g]", b.absErr,
                  b.absLo, b.absHi);
  if (b.exLo < b.exHi)
    k += snprintf(s + k, sizeof s - k, " outside (%g, %g)", b.exLo, b.exHi);
  if (b.chkLo > -INFINITY)
    k += snprintf(s + k, sizeof s - k, " for x in [%.4g, %.4g]", b.chkLo,
                  b.chkHi);
  if (b.yMagHi < INFINITY)
    snprintf(s + k, sizeof s - k, " for |y| in [2^-126, 2^126]");
  return s;
}

#include "report.h"

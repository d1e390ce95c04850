// Memory conformance suite of the PTX emulator (issue 16, item 2): every
// generated ld/st/cvta/isspacep/cp.async/fence form (memory_forms.h, from
// gen_memory.py) runs on windows of known bytes in each state space, and
// what it loads or leaves in memory is compared with a host reference built
// from the same bytes (host byte arrays, nothing from the device).
//   memory [--dump FILE] [--filter SUBSTR]
// Prints one line per failing case (form, inputs, got, want) and "N forms,
// M cases, K failed"; exits 0 only when every case passes. The dump lists
// (form, case, inputs, result) so that a GPU run can be diffed with the
// emulator's. The last check is a misaligned load, which must fail its
// launch with cudaErrorMisalignedAddress (sticky: nothing runs after it).
#include "memory_common.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using u64 = unsigned long long;
#include "memory_forms.h"

namespace {

// The load window: sign bits set and clear at every width, and distinct
// bytes for the element order of vectors.
const unsigned char kPat[64] = {
    0x80, 0xff, 0x7f, 0x00, 0x01, 0x80, 0xff, 0xff,  // ff80 007f 8001 ffff
    0x00, 0x80, 0xff, 0x7f, 0x80, 0x00, 0xff, 0x00,  // 8000 7fff 0080 00ff
    0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff,  // 80000000 ffffffff
    0xff, 0xff, 0xff, 0x7f, 0x00, 0x80, 0x00, 0x00,  // 7fffffff 00008000
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,  // 8000000000000000
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  //
    0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,  // 0123456789abcdef
    0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe}; // fedcba9876543210
// The scalar parameters of the ld.param kernels (their first es bytes).
const unsigned char kS0[16] = {0x80, 0x80, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff,
                               0x01, 0x02, 0x03, 0x84, 0x05, 0x06, 0x07, 0x88};
const unsigned char kS1[16] = {0x7f, 0x00, 0xff, 0x7f, 0x12, 0x34, 0x56, 0x78,
                               0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44};
// Store sources: their low 1, 2, 4 and 8 bytes have the sign bit set and
// clear; registers narrower than 64 bits get them truncated.
const u64 kVals[] = {0xfedcba9876543280ull, 0xffffffffffffffffull,
                     0x000000000000007full, 0x8000000080008000ull,
                     0x0123456789abcdefull, 0x00000000ffffffffull};
const int kNVals = 6;

unsigned char background(int i) { return (unsigned char)(0x5a ^ (i * 0x1d)); }

int regWidth(char c) { return c == 'h' ? 16 : c == 'r' || c == 'f' ? 32 : 64; }
u64 mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// Little-endian bytes, extended as the PTX ISA has it for a destination
// register wider than the type: sign extension for .s, zero otherwise.
u64 loadRef(const unsigned char *p, unsigned es, char kind, int width) {
  u64 v = 0;
  for (unsigned i = 0; i < es; ++i)
    v |= (u64)p[i] << (8 * i);
  if (kind == 's' && es < 8 && (v >> (8 * es - 1) & 1))
    v |= ~mask(8 * es);
  return v & mask(width);
}

std::string hex(u64 v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", v);
  return b;
}
std::string hexBytes(const unsigned char *p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    char b[4];
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}

struct Checker {
  FILE *dump = nullptr;
  const char *filter = nullptr;
  unsigned forms = 0, failed = 0;
  size_t cases = 0;
  std::string stuck; // the form whose launch failed: CUDA errors are sticky

  bool wanted(const char *name) const {
    return !filter || std::strstr(name, filter);
  }
  void result(const char *form, size_t i, const std::string &in,
              const std::string &got, const std::string &want) {
    ++cases;
    if (dump)
      std::fprintf(dump, "%s\t%zu\t%s\t%s\n", form, i, in.c_str(), got.c_str());
    if (got != want && ++failed <= 10000)
      std::printf("FAIL %s: in %s got %s want %s\n", form, in.c_str(),
                  got.c_str(), want.c_str());
  }
  // A launch and copy back; false (and every later form not run) on error.
  bool finish(const char *form, void *host, const void *dev, size_t bytes) {
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
      err = cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
      return true;
    std::printf("FAIL %s: launch error: %s\n", form, cudaGetErrorString(err));
    ++failed;
    stuck = form;
    return false;
  }
  bool skip(const char *form) {
    if (stuck.empty())
      return false;
    std::printf("FAIL %s: not run: the launch error of %s is sticky; rerun "
                "with --filter\n",
                form, stuck.c_str());
    ++failed;
    return true;
  }
};

struct Device {
  unsigned char *pat, *bytes;
  u64 *out, *vals;
};

const char *kBacking[] = {"global", "shared", "local", "const"};

std::vector<int> backings(char space, bool store) {
  switch (space) {
  case 'g':
    return {0};
  case 's':
    return {1};
  case 'l':
    return {2};
  case 'c':
    return {3};
  default: // generic: into each space (const is read-only)
    return store ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 1, 2, 3};
  }
}

void runLoad(Checker &ck, const Device &d, const MemForm &f) {
  size_t nvar = std::strlen(f.regs), n = (size_t)f.noff * nvar * f.vec;
  for (int b : backings(f.space, false)) {
    if (ck.skip(f.name))
      return;
    cudaMemset(d.out, 0xcd, n * sizeof(u64));
    auto *k = (void (*)(const unsigned char *, u64 *, int))f.kernel;
    k<<<1, 64>>>(d.pat, d.out, b);
    std::vector<u64> got(n);
    if (!ck.finish(f.name, got.data(), d.out, n * sizeof(u64)))
      return;
    for (size_t w = 0; w < nvar; ++w)
      for (int t = 0; t < f.noff; ++t)
        for (unsigned e = 0; e < f.vec; ++e) {
          unsigned off = t * f.es * f.vec + e * f.es;
          int width = regWidth(f.regs[w]);
          std::string in = std::string("space=") + kBacking[b] +
                           " offset=" + std::to_string(t * f.es * f.vec) +
                           " element=" + std::to_string(e) +
                           " reg=" + std::to_string(width);
          ck.result(f.name, (w * f.noff + t) * f.vec + e, in,
                    hex(got[(w * f.noff + t) * f.vec + e]),
                    hex(loadRef(kPat + off, f.es, f.kind, width)));
        }
  }
}

// Variant v's source value for element e of case vi: the register's value
// (truncated to its width) or the immediate's.
u64 storeValue(const MemForm &f, size_t v, int vi, unsigned e) {
  if (f.imms)
    return (u64)std::strtoull(f.imms[v], nullptr, 10) & mask(8 * f.es);
  return kVals[(vi + e) % kNVals] & mask(regWidth(f.regs[v]));
}

std::string storeInput(const MemForm &f, size_t v, int vi, unsigned off) {
  std::string in = "offset=" + std::to_string(off);
  if (f.imms)
    return in + " imm=" + f.imms[v];
  in += " reg=" + std::to_string(regWidth(f.regs[v])) + " value=";
  for (unsigned e = 0; e < f.vec; ++e)
    in += (e ? "," : "") + hex(storeValue(f, v, vi, e));
  return in;
}

void runStore(Checker &ck, const Device &d, const MemForm &f, int win) {
  size_t nvar = std::strlen(f.regs);
  int nval = f.imms ? 1 : kNVals;
  size_t ncase = nvar * f.noff * nval;
  std::vector<unsigned char> bg(win);
  for (int i = 0; i < win; ++i)
    bg[i] = background(i);
  cudaMemcpy(d.pat + 64, bg.data(), win, cudaMemcpyHostToDevice);
  for (int b : f.cat == 'Q' ? std::vector<int>{-1} : backings(f.space, true)) {
    if (ck.skip(f.name))
      return;
    cudaMemset(d.bytes, 0xcd, ncase * win);
    unsigned grid = (unsigned)((ncase + 127) / 128);
    if (f.cat == 'Q')
      ((void (*)(const u64 *, const u64 *, u64 *, int))f.kernel)<<<grid, 128>>>(
          (const u64 *)(d.pat + 64), d.vals, (u64 *)d.bytes, nval);
    else
      ((void (*)(const unsigned char *, const u64 *, unsigned char *, int,
                 int))f.kernel)<<<grid, 128>>>(d.pat + 64, d.vals, d.bytes, b,
                                               nval);
    std::vector<unsigned char> got(ncase * win);
    if (!ck.finish(f.name, got.data(), d.bytes, got.size()))
      return;
    for (size_t c = 0; c < ncase; ++c) {
      size_t v = c / (f.noff * nval);
      int oi = (int)(c % (f.noff * nval) % f.noff);
      int vi = (int)(c % (f.noff * nval) / f.noff);
      unsigned off = oi * f.es * f.vec;
      std::vector<unsigned char> want = bg;
      for (unsigned e = 0; e < f.vec; ++e) {
        u64 x = storeValue(f, v, vi, e);
        for (unsigned i = 0; i < f.es; ++i)
          want[off + e * f.es + i] = (unsigned char)(x >> (8 * i));
      }
      // Sub-word st.param fills the other bytes with stores of its width
      // (gen_memory.py's stparam_kernel); "fill=" says so.
      std::string fill =
          f.es * f.vec < 4 ? "fill=b" + std::to_string(8 * f.es) + " " : "";
      std::string in = std::string(b < 0 ? "space=param " : "space=") +
                       (b < 0 ? fill : std::string(kBacking[b]) + " ") +
                       storeInput(f, v, vi, off);
      ck.result(f.name, c, in, hexBytes(&got[c * win], win),
                hexBytes(want.data(), win));
    }
  }
}

void runLdParam(Checker &ck, const Device &d, const MemForm &f) {
  if (ck.skip(f.name))
    return;
  size_t nvar = std::strlen(f.regs), nplace = f.noff + 2;
  size_t n = nvar * nplace * f.vec;
  cudaMemset(d.out, 0xcd, n * sizeof(u64));
  ((void (*)(u64 *, const unsigned char *, const unsigned char *,
             const unsigned char *))f.kernel)(d.out, kPat, kS0, kS1);
  std::vector<u64> got(n);
  if (!ck.finish(f.name, got.data(), d.out, n * sizeof(u64)))
    return;
  size_t k = 0;
  for (size_t w = 0; w < nvar; ++w)
    for (size_t pl = 0; pl < nplace; ++pl)
      for (unsigned e = 0; e < f.vec; ++e, ++k) {
        int width = regWidth(f.regs[w]);
        const unsigned char *src = pl < (size_t)f.noff
                                       ? kPat + pl * f.es * f.vec
                                   : pl == (size_t)f.noff ? kS0
                                                          : kS1;
        std::string in =
            (pl < (size_t)f.noff
                 ? "param=block offset=" + std::to_string(pl * f.es * f.vec)
                 : "param=s" + std::to_string(pl - f.noff)) +
            " element=" + std::to_string(e) + " reg=" + std::to_string(width);
        ck.result(f.name, k, in, hex(got[k]),
                  hex(loadRef(src + e * f.es, f.es, f.kind, width)));
      }
}

// Loads: thread t's address is p + 16 + 4t in the load window; stores:
// w + 8 in its own 32-byte window, one mode per thread.
void runAddressing(Checker &ck, const Device &d, const AddrForm &f) {
  bool param = f.space == 'p';
  std::string name = std::string(f.name) + " addressing";
  if (!ck.wanted(name.c_str()))
    return;
  ++ck.forms;
  for (int b : param ? std::vector<int>{-1} : backings(f.space, f.store)) {
    if (ck.skip(name.c_str()))
      return;
    std::string sp = std::string(" space=") + (param ? "param" : kBacking[b]);
    if (f.store) {
      std::vector<unsigned char> bg(32), got(32 * f.nmode);
      for (int i = 0; i < 32; ++i)
        bg[i] = background(i);
      cudaMemcpy(d.pat + 64, bg.data(), 32, cudaMemcpyHostToDevice);
      cudaMemset(d.bytes, 0xcd, got.size());
      ((void (*)(const unsigned char *, unsigned char *,
                 int))f.kernel)<<<1, 64>>>(d.pat + 64, d.bytes, b);
      if (!ck.finish(name.c_str(), got.data(), d.bytes, got.size()))
        return;
      for (int m = 0; m < f.nmode; ++m) {
        std::vector<unsigned char> want = bg;
        for (int i = 0; i < 4; ++i)
          want[8 + f.off[m] + i] = (unsigned char)(0xa1b2c3d4u >> (8 * i));
        ck.result(name.c_str(), m, std::string(f.mode[m]) + sp,
                  hexBytes(&got[32 * m], 32), hexBytes(want.data(), 32));
      }
      continue;
    }
    size_t n = 8 * (size_t)f.nmode;
    cudaMemset(d.out, 0xcd, n * sizeof(u64));
    if (param)
      ((void (*)(u64 *, const unsigned char *))f.kernel)(d.out, kPat);
    else
      ((void (*)(const unsigned char *, u64 *, int))f.kernel)<<<1, 64>>>(
          d.pat, d.out, b);
    std::vector<u64> got(n);
    if (!ck.finish(name.c_str(), got.data(), d.out, n * sizeof(u64)))
      return;
    for (int t = 0; t < 8; ++t)
      for (int m = 0; m < f.nmode; ++m) {
        int at = (f.base[m] == 'q' ? 16 + 4 * t : 0) + f.off[m];
        ck.result(name.c_str(), t * f.nmode + m,
                  std::string(f.mode[m]) + sp + " t=" + std::to_string(t),
                  hex(got[t * f.nmode + m]),
                  hex(loadRef(kPat + at, 4, 'b', 32)));
      }
  }
}

// Parameters of mixed sizes and alignments (wsm_param_mix): each must read
// back as passed, extended as its ld.param type says.
void runParamMix(Checker &ck, const Device &d) {
  const char *name = "ld.param mixed layout";
  if (!ck.wanted(name) || ck.skip(name))
    return;
  ++ck.forms;
  double b;
  float f;
  u64 bBits = 0x8000000000000001ull;
  unsigned fBits = 0x7fc00001u;
  std::memcpy(&b, &bBits, 8);
  std::memcpy(&f, &fBits, 4);
  cudaMemset(d.out, 0xcd, 16 * sizeof(u64));
  wsm_param_mix<<<1, 1>>>(d.out, 0x80, b, (short)0x8000,
                          make_uint4(1, 0x80000000u, 3, 0xffffffffu),
                          (signed char)-1, f, (long long)0x8000000000000000ull,
                          make_uint2(0xdeadbeefu, 0x12345678u), 0xffff, -2);
  const u64 want[] = {0x80,        bBits,       0xffff8000u, 1,     0x80000000,
                      3,           0xffffffffu, 0xff,        fBits, 1ull << 63,
                      0xdeadbeefu, 0x12345678u, 0xffff,      ~1ull};
  const char *what[] = {"u8 b8",   "f64 b64",           "s16 s16", "uint4.x",
                        "uint4.y", "uint4.z",           "uint4.w", "s8 -1 b8",
                        "f32 b32", "s64 u64",           "uint2.x", "uint2.y",
                        "u16 b16", "s32 -2 s32 into 64"};
  std::vector<u64> got(14);
  if (!ck.finish(name, got.data(), d.out, 14 * sizeof(u64)))
    return;
  for (int i = 0; i < 14; ++i)
    ck.result(name, i, what[i], hex(got[i]), hex(want[i]));
}

void runCvta(Checker &ck, const Device &d) {
  void (*ks[])(const unsigned char *, u64 *, int) = {cvta_global, cvta_shared,
                                                     cvta_local, cvta_const};
  for (int b = 0; b < 4; ++b) {
    std::string name = std::string("cvta.") + kBacking[b] + ".u64";
    std::string toName = std::string("cvta.to.") + kBacking[b] + ".u64";
    if (!ck.wanted(name.c_str()) || ck.skip(name.c_str()))
      continue;
    ++ck.forms;
    cudaMemset(d.out, 0xcd, 64 * 5 * sizeof(u64));
    ks[b]<<<1, 64>>>(d.pat, d.out, 0);
    std::vector<u64> got(64 * 5);
    if (!ck.finish(name.c_str(), got.data(), d.out, got.size() * 8))
      continue;
    const char *what[] = {"cvta(cvta.to(p)) - p", "cvta.to(p+t) - cvta.to(p)",
                          "cvta.to(p+t) - symbol", "ld.space [cvta.to(p+t)]",
                          "ld [cvta(cvta.to(p+t))]"};
    for (int t = 0; t < 64; ++t)
      for (int k = 0; k < 5; ++k) {
        u64 want = k == 0 ? 0 : k < 3 ? (u64)t : kPat[t];
        ck.result(k == 0 ? name.c_str() : toName.c_str(), t * 5 + k,
                  std::string(what[k]) + " t=" + std::to_string(t),
                  hex(got[t * 5 + k]), hex(want));
      }
  }
}

void runIsspacep(Checker &ck, const Device &d) {
  const char *spaces[] = {"shared", "global", "local"};
  const int spaceOf[] = {1, 0, 2}; // backing index of each isspacep space
  if (!ck.wanted("isspacep") || ck.skip("isspacep"))
    return;
  ck.forms += 3;
  size_t n = 64 * 4 * 3;
  cudaMemset(d.out, 0xcd, n * sizeof(u64));
  isspacep_all<<<1, 64>>>(d.pat, d.out, 0);
  std::vector<u64> got(n);
  if (!ck.finish("isspacep", got.data(), d.out, n * sizeof(u64)))
    return;
  for (int t = 0; t < 64; ++t)
    for (int b = 0; b < 4; ++b)
      for (int s = 0; s < 3; ++s) {
        // Whether a const address lies in the global window is the
        // hardware's choice: not checked (the dump still has it).
        if (b == 3 && s == 1)
          continue;
        std::string name = std::string("isspacep.") + spaces[s];
        std::string in = std::string("pointer into ") + kBacking[b] +
                         " window + " + std::to_string(t);
        ck.result(name.c_str(), (t * 4 + b) * 3 + s, in,
                  hex(got[(t * 4 + b) * 3 + s]), hex(spaceOf[s] == b));
      }
}

void runCpAsync(Checker &ck, const Device &d, const CpAsyncForm &f) {
  if (!ck.wanted(f.name) || ck.skip(f.name))
    return;
  ++ck.forms;
  size_t n = 2 * 64 * f.size;
  std::vector<unsigned char> src(n), got(n);
  for (size_t i = 0; i < n; ++i)
    src[i] = (unsigned char)((i * 37 + 11) ^ (i >> 8));
  cudaMemcpy(d.bytes, src.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d.bytes + n, 0xcd, n);
  ((void (*)(const unsigned char *, unsigned char *))f.kernel)<<<1, 64>>>(
      d.bytes, d.bytes + n);
  if (!ck.finish(f.name, got.data(), d.bytes + n, n))
    return;
  for (int g = 0; g < 2; ++g)
    for (int t = 0; t < 64; ++t) {
      size_t at = (size_t)(g * 64 + t) * f.size;
      std::vector<unsigned char> want(src.begin() + at,
                                      src.begin() + at + f.size);
      for (int i = f.srcSize < 0 ? f.size : f.srcSize; i < f.size; ++i)
        want[i] = 0; // zero fill from src-size on
      std::string in = std::string(g ? "group 2 after wait_group 0"
                                     : "group 1 after wait_group 1") +
                       " t=" + std::to_string(t);
      ck.result(f.name, g * 64 + t, in, hexBytes(&got[at], f.size),
                hexBytes(want.data(), f.size));
    }
}

void runFence(Checker &ck, const Device &d, const FenceForm &f) {
  if (!ck.wanted(f.name) || ck.skip(f.name))
    return;
  ++ck.forms;
  const int nb = 8;
  u64 *data = d.vals + 64, *partial = data + nb * 32, *out = partial + nb;
  unsigned *flag = (unsigned *)(out + nb * 64 + 1), *ticket = flag + nb * 32;
  cudaMemset(data, 0,
             (size_t)((unsigned char *)(ticket + 1) - (unsigned char *)data));
  ((void (*)(u64 *, unsigned *, u64 *, unsigned *, u64 *))f.kernel)<<<nb, 64>>>(
      data, flag, out, ticket, partial);
  std::vector<u64> got(nb * 64 + 1);
  if (!ck.finish(f.name, got.data(), out, got.size() * sizeof(u64)))
    return;
  u64 total = 0;
  for (int b = 0; b < nb; ++b)
    for (int l = 0; l < 32; ++l) {
      u64 v = wsm_fence_value(b, l);
      total += v;
      std::string in =
          "cta=" + std::to_string(b) + " lane=" + std::to_string(l);
      ck.result(f.name, (b * 32 + l) * 2, in + " flag",
                hex(got[(b * 32 + l) * 2]), "1");
      ck.result(f.name, (b * 32 + l) * 2 + 1, in + " data",
                hex(got[(b * 32 + l) * 2 + 1]), hex(v));
    }
  ck.result(f.name, nb * 64, "last cta's sum of the published partial sums",
            hex(got[nb * 64]), hex(total));
}

__global__ void misalignedLoad(const unsigned char *p, unsigned *out) {
  unsigned r;
  asm volatile("{ .reg .u64 a; cvta.to.global.u64 a, %1; ld.global.b32 %0, "
               "[a]; }"
               : "=r"(r)
               : "l"(p)
               : "memory");
  *out = r;
}

// Natural alignment is required: a 4-byte load at an address that is 2 mod
// 4 fails the launch. Last, since the error is sticky.
void runMisaligned(Checker &ck, const Device &d) {
  const char *name = "ld.global.b32 misaligned";
  if (!ck.wanted(name) || ck.skip(name))
    return;
  ++ck.forms;
  misalignedLoad<<<1, 1>>>(d.pat + 2, (unsigned *)d.out);
  cudaError_t err = cudaDeviceSynchronize();
  ck.result(name, 0, "address 2 mod 4", cudaGetErrorName(err),
            cudaGetErrorName(cudaErrorMisalignedAddress));
}

} // namespace

int main(int argc, char **argv) {
  Checker ck;
  const char *dumpPath = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--dump") && i + 1 < argc)
      dumpPath = argv[++i];
    else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc)
      ck.filter = argv[++i];
    else {
      std::fprintf(stderr,
                   "memory: unknown argument '%s'; use --dump FILE, "
                   "--filter SUBSTR\n",
                   argv[i]);
      return 2;
    }
  }
  int count;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("memory: no CUDA device; skipped\n");
    return 77;
  }
  if (dumpPath && !(ck.dump = std::fopen(dumpPath, "w"))) {
    std::fprintf(stderr, "memory: cannot write '%s'\n", dumpPath);
    return 2;
  }
  Device d;
  const size_t kBytes = 1 << 20;
  if (cudaMalloc(&d.pat, 256) != cudaSuccess ||
      cudaMalloc(&d.bytes, kBytes) != cudaSuccess ||
      cudaMalloc(&d.out, kBytes) != cudaSuccess ||
      cudaMalloc(&d.vals, kBytes) != cudaSuccess) {
    std::printf("FAIL memory: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d.pat, kPat, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(d.vals, kVals, sizeof kVals, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(wsm_cw, kPat, 64);
  for (const MemForm &f : kMemForms) {
    if (!ck.wanted(f.name))
      continue;
    ++ck.forms;
    if (f.cat == 'L')
      runLoad(ck, d, f);
    else if (f.cat == 'P')
      runLdParam(ck, d, f);
    else
      runStore(ck, d, f, f.cat == 'Q' ? 16 : 32);
  }
  for (const AddrForm &f : kAddrForms)
    runAddressing(ck, d, f);
  runParamMix(ck, d);
  runCvta(ck, d);
  runIsspacep(ck, d);
  for (const CpAsyncForm &f : kCpAsync)
    runCpAsync(ck, d, f);
  for (const FenceForm &f : kFences)
    runFence(ck, d, f);
  runMisaligned(ck, d);
  if (ck.dump)
    std::fclose(ck.dump);
  std::printf("%u forms, %zu cases, %u failed\n", ck.forms, ck.cases,
              ck.failed);
  return ck.failed ? 1 : 0;
}

// Host side of the mma.sync and ldmatrix cases. Unlike wmma's, these
// fragments are specified by the PTX ISA ("Matrix Fragments for mma.m16n8k16
// / m16n8k8 / m8n8k4", "ldmatrix"): the host places every element of A, B
// and C in the register and half the ISA names and reads D back the same
// way, so a wrong layout shows as wrong elements. Included by matrix.cu.
#pragma once

#include "mma_kernels.h"

namespace {

struct RC {
  int r, c;
};

// The ISA's tables, with groupID = lane >> 2 and threadID_in_group =
// lane % 4. Element i lies in register i / 2, half i % 2 for 16-bit types
// (the low half first), register i otherwise.
RC isaA(Kind in, int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  if (in == KF64) // m8n8k4: a0
    return {g, t};
  if (in == KTF32) // m16n8k8: a0..a3
    return {(i == 1 || i == 3) ? g + 8 : g, i >= 2 ? t + 4 : t};
  // m16n8k16 .f16/.bf16: a0..a7
  bool low = i == 0 || i == 1 || i == 4 || i == 5;
  return {low ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
}
RC isaB(Kind in, int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  if (in == KF64) // b0
    return {t, g};
  if (in == KTF32) // b0, b1
    return {i == 0 ? t : t + 4, g};
  return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g}; // b0..b3
}
RC isaC(Kind in, int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  if (in == KF64) // c0, c1
    return {g, t * 2 + i};
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)}; // c0..c3
}

struct MmaSpec {
  Spec s;         // name, M, N, K, kinds (kernel unused)
  int nA, nB, nC; // registers
  const void *kernel;
};

unsigned perReg(Kind k) { return kindSize(k) == 2 ? 2 : 1; }

std::vector<MmaSpec> mmaSpecs() {
  auto spec = [](const char *name, int M, int N, int K, Kind in, Kind c,
                 Kind d) {
    return Spec{name, M, N, K, in, c, d, true, false, nullptr};
  };
  return {
      {spec("mma.m16n8k16.f16.f32.f32", 16, 8, 16, KF16, KF32, KF32), 4, 2, 4,
       (const void *)mmaF16Kernel<true>},
      {spec("mma.m16n8k16.f16.f16.f16", 16, 8, 16, KF16, KF16, KF16), 4, 2, 2,
       (const void *)mmaF16Kernel<false>},
      {spec("mma.m16n8k16.bf16.f32.f32", 16, 8, 16, KBF16, KF32, KF32), 4, 2, 4,
       (const void *)mmaF32AccKernel<false>},
      {spec("mma.m16n8k8.tf32.f32.f32", 16, 8, 8, KTF32, KF32, KF32), 4, 2, 4,
       (const void *)mmaF32AccKernel<true>},
      {spec("mma.m8n8k4.f64.f64.f64", 8, 8, 4, KF64, KF64, KF64), 1, 1, 2,
       (const void *)mmaF64Kernel},
  };
}

// Puts value v (kind k) as element i of a fragment starting at register
// `reg` of warp w's lane in a register image of nRegs per warp.
void putElem(std::vector<uint64_t> &img, int nRegs, int w, int reg, int lane,
             Kind k, int i, double v) {
  uint64_t b = 0;
  encode(k, v, b);
  unsigned per = perReg(k), sh = 16 * (i % per);
  img[((size_t)w * nRegs + reg + i / per) * 32 + lane] |= b << sh;
}

void runMmaMode(Ctx &x, const MmaSpec &ms, Mode m) {
  const Spec &s = ms.s;
  const int nIn = ms.nA + ms.nB + ms.nC;
  const int nD = (int)(s.M * s.N / 32 / perReg(s.d));
  const bool wide = s.in == KF64;
  std::vector<uint64_t> in((size_t)kWarps * nIn * 32, 0);
  Rng r{0x51ed270b27ff1a3dull ^ (std::hash<std::string>()(s.name) + m * 131)};
  std::vector<RefOut> ref;
  static const int shifts[kWarps] = {0, 3, -4, 6};
  for (int w = 0; w < kWarps; ++w) {
    Inputs v = makeInputs(s, m, r, shifts[w]);
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < ms.nA * (int)perReg(s.in); ++i) {
        RC p = isaA(s.in, lane, i);
        putElem(in, nIn, w, 0, lane, s.in, i, v.A[p.r * s.K + p.c]);
      }
      for (int i = 0; i < ms.nB * (int)perReg(s.in); ++i) {
        RC p = isaB(s.in, lane, i);
        putElem(in, nIn, w, ms.nA, lane, s.in, i, v.B[p.r * s.N + p.c]);
      }
      for (int i = 0; i < ms.nC * (int)perReg(s.c); ++i) {
        RC p = isaC(s.in, lane, i);
        putElem(in, nIn, w, ms.nA + ms.nB, lane, s.c, i, v.C[p.r * s.N + p.c]);
      }
    }
    ref.push_back(reference(s.M, s.N, s.K, v.A, v.B, v.C, false, false));
  }
  size_t wordSize = wide ? 8 : 4, nOut = (size_t)kWarps * nD * 32;
  std::vector<unsigned char> hin(in.size() * wordSize), hout(nOut * wordSize);
  for (size_t i = 0; i < in.size(); ++i)
    memcpy(&hin[i * wordSize], &in[i], wordSize);
  void *din, *dout;
  CK(cudaMalloc(&din, hin.size()));
  CK(cudaMalloc(&dout, hout.size()));
  CK(cudaMemcpy(din, hin.data(), hin.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0xa5, hout.size()));
  void *args[] = {&din, &dout};
  CK(cudaLaunchKernel(ms.kernel, dim3(2), dim3(64), args, 0, nullptr));
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(hout.data(), dout, hout.size(), cudaMemcpyDeviceToHost));
  int shown = 0;
  for (int w = 0; w < kWarps; ++w) {
    if (x.dump)
      fprintf(x.dump, "%s %s %d", s.name.c_str(), modeName(m), w);
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < nD * (int)perReg(s.d); ++i) {
        RC p = isaC(s.in, lane, i);
        uint64_t word = 0;
        memcpy(
            &word,
            &hout[(((size_t)w * nD + i / perReg(s.d)) * 32 + lane) * wordSize],
            wordSize);
        unsigned bits = 8 * kindSize(s.d);
        uint64_t got = bits == 64 ? word
                                  : (word >> (16 * (i % perReg(s.d)))) &
                                        ((1ull << bits) - 1);
        if (x.dump)
          fprintf(x.dump, " %s", hex(got, s.d).c_str() + 2);
        size_t e = (size_t)p.r * s.N + p.c;
        checkElem(x, s, m, w, p.r, p.c, got, ref[w].d[e], ref[w].absSum[e],
                  shown);
      }
    if (x.dump)
      fputc('\n', x.dump);
  }
  if (shown > 8)
    printf("FAIL %s %s: %d more failing checks\n", s.name.c_str(), modeName(m),
           shown - 8);
  CK(cudaFree(din));
  CK(cudaFree(dout));
}

void runMmaSpecs(Ctx &x) {
  for (const MmaSpec &ms : mmaSpecs()) {
    if (!strstr(ms.s.name.c_str(), x.filter))
      continue;
    ++x.specs;
    runMmaMode(x, ms, MExact);
    runMmaMode(x, ms, MSpecial);
    runMmaMode(x, ms, MGeneral);
    if (ms.s.in == KF16)
      runMmaMode(x, ms, MSubnormal);
  }
}

// ldmatrix x1/x2/x4 with and without .trans: lane L's register j holds
// row L / 4, columns 2 (L % 4) and 2 (L % 4) + 1 of matrix j (of its
// transpose with .trans), matrix j's row i being the row lane 8j + i names.
void runLdmatrix(Ctx &x, int X, bool trans) {
  std::string name = "ldmatrix.m8n8.x" + std::to_string(X) +
                     (trans ? ".trans" : "") + ".shared.b16";
  if (!strstr(name.c_str(), x.filter))
    return;
  ++x.specs;
  Rng r{0x2545f4914f6cdd1dull + (uint64_t)X * 7 + trans};
  std::vector<unsigned short> g(32 * 8);
  for (auto &v : g)
    v = (unsigned short)r.next();
  std::vector<int> perm(32);
  for (int i = 0; i < 32; ++i)
    perm[i] = i;
  for (int i = 31; i > 0; --i)
    std::swap(perm[i], perm[r.range(0, i)]);
  unsigned short *dg;
  int *dp;
  unsigned *dout;
  CK(cudaMalloc(&dg, g.size() * 2));
  CK(cudaMalloc(&dp, 32 * sizeof(int)));
  CK(cudaMalloc(&dout, 4 * 32 * 4));
  CK(cudaMemcpy(dg, g.data(), g.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dp, perm.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
  void *args[] = {&dg, &dp, &dout};
  const void *k = X == 1   ? (trans ? (const void *)ldmatrixKernel<1, true>
                                    : (const void *)ldmatrixKernel<1, false>)
                  : X == 2 ? (trans ? (const void *)ldmatrixKernel<2, true>
                                    : (const void *)ldmatrixKernel<2, false>)
                           : (trans ? (const void *)ldmatrixKernel<4, true>
                                    : (const void *)ldmatrixKernel<4, false>);
  CK(cudaLaunchKernel(k, dim3(1), dim3(32), args, 0, nullptr));
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> out(4 * 32);
  CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  int shown = 0;
  if (x.dump)
    fprintf(x.dump, "%s exact 0", name.c_str());
  for (int j = 0; j < X; ++j)
    for (int lane = 0; lane < 32; ++lane) {
      auto at = [&](int row, int col) {
        return (unsigned)g[perm[8 * j + row] * 8 + col];
      };
      int rr = lane / 4, cc = 2 * (lane % 4);
      unsigned want = trans ? at(cc, rr) | at(cc + 1, rr) << 16
                            : at(rr, cc) | at(rr, cc + 1) << 16;
      unsigned got = out[j * 32 + lane];
      ++x.checks;
      if (x.dump)
        fprintf(x.dump, " %08x", got);
      if (got != want) {
        char buf[160];
        snprintf(buf, sizeof buf,
                 "%s lane %d register %d: got 0x%08x, want "
                 "0x%08x",
                 name.c_str(), lane, j, got, want);
        fail(x, shown, buf);
      }
    }
  if (x.dump)
    fputc('\n', x.dump);
  CK(cudaFree(dg));
  CK(cudaFree(dp));
  CK(cudaFree(dout));
}

} // namespace

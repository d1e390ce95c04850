// Device-side pieces the generated kernels of memory_forms.h share (memory
// conformance suite, issue 16): the windows each state space's forms read
// and write, the block parameter of the ld.param kernels and the function
// the st.param forms call.
#pragma once
#include <cstring>
#include <cuda_runtime.h>

// File-scope so that their PTX names are these (the cvta kernels take the
// symbols' addresses in asm).
__shared__ __align__(16) unsigned char wsm_sw[64];
__constant__ __align__(16) unsigned char wsm_cw[64];

// The 64-byte load window in the space `backing` selects (0 global: pat
// itself, 1 shared, 2 local, 3 const; const is filled by the host), as a
// generic pointer p. Every thread of the block (64) fills its own local
// copy and one byte of the shared one.
#define WSM_WINDOW(p, pat, backing)                                            \
  __align__(16) unsigned char lw_[64];                                         \
  for (int i_ = 0; i_ < 64; ++i_)                                              \
    lw_[i_] = (pat)[i_];                                                       \
  if (threadIdx.x < 64)                                                        \
    wsm_sw[threadIdx.x] = (pat)[threadIdx.x];                                  \
  __syncthreads();                                                             \
  const unsigned char *p = (backing) == 0   ? (pat)                            \
                           : (backing) == 1 ? wsm_sw                           \
                           : (backing) == 2 ? lw_                              \
                                            : wsm_cw

// The by-value block parameter of the ld.param kernels.
struct __align__(16) WsmBlock {
  unsigned char b[64];
};

// The st.param forms write the argument of a call of this function, which
// returns it unchanged (PTX: .func (.param .align 8 .b8 func_retval0[16])
// wsm_echo16(.param .align 16 .b8 wsm_echo16_param_0[16])).
struct __align__(16) WsmEcho {
  unsigned long long lo, hi;
};
extern "C" __device__ __noinline__ __attribute__((used)) WsmEcho
wsm_echo16(WsmEcho w) {
  return w;
}

// What warp 0 of CTA b publishes in the fence kernels.
__host__ __device__ inline unsigned long long wsm_fence_value(int b, int t) {
  return (unsigned long long)(b * 32 + t + 1) * 0x9e3779b97f4a7c15ull;
}

// One ld/st form of memory_forms.h. cat: 'L' load from global, shared,
// local, const or generic (space g s l c G), 'S' store, 'P' ld.param of
// kernel parameters, 'Q' st.param of a call's argument. noff: the offsets
// tested (every multiple of the access size in the window). regs: the
// register constraint per variant (h r l f d), or 'i' per immediate
// (imms: their literals).
struct MemForm {
  const char *name;
  char cat, space;
  unsigned es, vec;
  char kind;
  int noff;
  const char *regs;
  const char *const *imms;
  void *kernel;
};
// ld/st.b32 in one space through each addressing mode: mode m's address
// is base[m] ('q': the thread's address, 's': the window's start) plus
// off[m].
struct AddrForm {
  const char *name;
  bool store;
  char space;
  int nmode;
  const char *mode[8];
  char base[8];
  int off[8];
  void *kernel;
};
struct CpAsyncForm {
  const char *name;
  int size, srcSize; // srcSize -1: none
  void *kernel;
};
struct FenceForm {
  const char *name;
  void *kernel;
};

// Kernels carrying the instrumentation's inline-PTX probes (same text as
// passes/Probes.cpp emits, marker comment and marker register), to check the emulator's ground truth against
// the counts the probes themselves accumulate.
#define PROLOGUE(M, R)                                                         \
  "// " M "\n\t{\n"                                                            \
  "\t.reg .b32 %%" R ";\n"                                                     \
  "\t.reg .pred %%wsp, %%wsq, %%wsd;\n"                                        \
  "\t.reg .b32 %%wsm, %%wsl, %%wsn, %%wsb;\n"                                  \
  "\t.reg .b64 %%wsc;\n"                                                       \
  "\tactivemask.b32 %%wsm;\n"                                                  \
  "\tmov.u32 %%wsl, %%laneid;\n"                                               \
  "\tbfind.u32 %%wsn, %%wsm;\n"                                                \
  "\tsetp.eq.u32 %%wsp, %%wsl, %%wsn;\n"
#define POPC(MASK, OFF)                                                        \
  "\tpopc.b32 %%wsn, " MASK ";\n"                                              \
  "\tcvt.u64.u32 %%wsc, %%wsn;\n"                                              \
  "\t@%%wsp red.global.add.u64 [%0+" OFF "], %%wsc;\n"
#define BLOCK_PROBE(M, R, PTR)                                                 \
  asm volatile(PROLOGUE(M, R) "\t@%%wsp red.global.add.u64 [%0], 1;\n"            \
               POPC("%%wsm", "8") "\t}" ::"l"(PTR) : "memory")
#define BRANCH_PROBE(M, R, PTR, SUCC)                                          \
  asm volatile(PROLOGUE(M, R) "\t@%%wsp red.global.add.u64 [%0+0], 1;\n"          \
               "\tsetp.eq.u32 %%wsq, %1, 0;\n"                                 \
               "\tvote.sync.ballot.b32 %%wsb, %%wsq, %%wsm;\n"                 \
               "\tsetp.ne.u32 %%wsd, %%wsb, 0;\n"                              \
               "\tsetp.ne.and.u32 %%wsd, %%wsb, %%wsm, %%wsd;\n"               \
               "\tand.pred %%wsd, %%wsd, %%wsp;\n"                             \
               "\t@%%wsd red.global.add.u64 [%0+8], 1;\n"                      \
               POPC("%%wsb", "24") POPC("%%wsm", "16") "\t}" ::"l"(PTR),       \
               "r"(SUCC) : "memory")

__global__ void probed(unsigned long long *c, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  BLOCK_PROBE("ws:block 0", "ws_block_0", c + 0);
  int v = t;
  bool odd = (t * 7 + 3) % 5 < 2;
  BRANCH_PROBE("ws:branch 2", "ws_branch_2", c + 2, odd ? 0u : 1u);
  if (odd) {
    BLOCK_PROBE("ws:block 6", "ws_block_6", c + 6);
    for (int k = 0; k < (t & 7); ++k) v = v * 3 + k;
  }
  if (t < n) out[t] = v;
}

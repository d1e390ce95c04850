// interp: a tiny stack-machine bytecode interpreter. Every thread runs one
// of four programs chosen by its input (divergent control flow), with a
// data-dependent loop count. Dispatch is a `switch`; the ALU, the hash and
// the interpreter loop are __noinline__ device functions (real calls); the
// operand stack is a per-thread array (local memory). Program offsets live
// in __constant__ memory. Integer results, checked exactly.
#include "bench_common.h"
#include <vector>

enum Op : int { HALT, PUSH, LOAD, ALU, HASH, DUP, SWAP, LOOP, JODD, JMP, POP };
enum AluOp : int { ADD, SUB, MUL, XOR, MIN, MAX, MOD, ROTL, SHR };

constexpr int kStack = 8;
constexpr int kMaxSteps = 2000;
constexpr int kPrograms = 4;

__constant__ int c_prog_offset[kPrograms];

__host__ __device__ __noinline__ uint32_t vm_hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__host__ __device__ __noinline__ uint32_t vm_alu(int op, uint32_t a, uint32_t b) {
  switch (op) {
  case ADD:
    return a + b;
  case SUB:
    return a - b;
  case MUL:
    return a * b;
  case XOR:
    return a ^ b;
  case MIN:
    return a < b ? a : b;
  case MAX:
    return a > b ? a : b;
  case MOD:
    return b ? a % b : a;
  case ROTL:
    b &= 31;
    return b ? (a << b) | (a >> (32 - b)) : a;
  case SHR:
    return a >> (b & 31);
  default:
    return 0xdeadbeefu;
  }
}

struct VmResult {
  uint32_t value;
  uint32_t steps;
};

__host__ __device__ __noinline__ VmResult vm_run(const int *code, uint32_t input,
                                                 uint32_t counter) {
  uint32_t stack[kStack];
  int sp = 0, pc = 0;
  uint32_t steps = 0;
  bool running = true;
  while (running && steps < kMaxSteps) {
    const int op = code[2 * pc], arg = code[2 * pc + 1];
    ++pc;
    ++steps;
    switch (op) {
    case PUSH:
      if (sp < kStack)
        stack[sp++] = (uint32_t)arg;
      break;
    case LOAD:
      if (sp < kStack)
        stack[sp++] = input;
      break;
    case ALU:
      if (sp >= 2) {
        uint32_t b = stack[--sp];
        stack[sp - 1] = vm_alu(arg, stack[sp - 1], b);
      }
      break;
    case HASH:
      if (sp >= 1)
        stack[sp - 1] = vm_hash(stack[sp - 1]);
      break;
    case DUP:
      if (sp >= 1 && sp < kStack) {
        stack[sp] = stack[sp - 1];
        ++sp;
      }
      break;
    case SWAP:
      if (sp >= 2) {
        uint32_t t = stack[sp - 1];
        stack[sp - 1] = stack[sp - 2];
        stack[sp - 2] = t;
      }
      break;
    case LOOP:
      if (--counter != 0)
        pc = arg;
      break;
    case JODD:
      if (sp >= 1 && (stack[sp - 1] & 1u))
        pc = arg;
      break;
    case JMP:
      pc = arg;
      break;
    case POP:
      if (sp >= 1)
        --sp;
      break;
    case HALT:
    default:
      running = false;
      break;
    }
  }
  return {sp ? stack[sp - 1] : 0u, steps};
}

__global__ void interp_kernel(const int *code, const uint32_t *inputs, int n,
                              uint32_t *values, uint32_t *steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t in = inputs[i];
  int prog = (int)(in % kPrograms);
  uint32_t counter = 1 + (in >> 2) % 24;
  VmResult r = vm_run(code + 2 * c_prog_offset[prog], in, counter);
  values[i] = r.value;
  steps[i] = r.steps;
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "interp");
  const int n = (int)args.pick(512, 1 << 22);
  const int reps = args.pickReps(60);

  // Programs: (op, arg) pairs; jump targets are instruction indices within
  // the program.
  const std::vector<std::vector<int>> progs = {
      // 0: x = x * 3 + 7, counter times
      {LOAD, 0, PUSH, 3, ALU, MUL, PUSH, 7, ALU, ADD, LOOP, 1, HALT, 0},
      // 1: hash chain: x = h(x) ^ (h(x) % 5)
      {LOAD, 0, HASH, 0, DUP, 0, PUSH, 5, ALU, MOD, ALU, XOR, LOOP, 1, HALT, 0},
      // 2: Collatz-like steps (branch on the low bit)
      {LOAD, 0, JODD, 5, PUSH, 1, ALU, SHR, JMP, 9, PUSH, 3, ALU, MUL, PUSH, 1,
       ALU, ADD, LOOP, 1, HALT, 0},
      // 3: max(h(x), rotl(x, 5)) % 1000003
      {LOAD, 0, DUP, 0, HASH, 0, SWAP, 0, PUSH, 5, ALU, ROTL, ALU, MAX, PUSH,
       1000003, ALU, MOD, DUP, 0, LOOP, 2, HALT, 0},
  };
  std::vector<int> code, offsets;
  for (const auto &p : progs) {
    offsets.push_back((int)code.size() / 2);
    code.insert(code.end(), p.begin(), p.end());
  }

  bench::Lcg rng(17);
  std::vector<uint32_t> inputs(n);
  for (auto &v : inputs)
    v = rng.next();

  int *dcode;
  uint32_t *din, *dval, *dsteps;
  CHECK(cudaMalloc(&dcode, code.size() * sizeof(int)));
  CHECK(cudaMalloc(&din, n * sizeof(uint32_t)));
  CHECK(cudaMalloc(&dval, n * sizeof(uint32_t)));
  CHECK(cudaMalloc(&dsteps, n * sizeof(uint32_t)));
  CHECK(cudaMemcpy(dcode, code.data(), code.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(din, inputs.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(c_prog_offset, offsets.data(), kPrograms * sizeof(int)));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    interp_kernel<<<(n + 127) / 128, 128>>>(dcode, din, n, dval, dsteps);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<uint32_t> val(n), steps(n);
  CHECK(cudaMemcpy(val.data(), dval, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(steps.data(), dsteps, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dcode));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dval));
  CHECK(cudaFree(dsteps));

  bench::print_time(ms);
  bench::Checker c;
  const int stride = n > (1 << 18) ? 16 : 1; // sample threads if large
  for (int i = 0; i < n; i += stride) {
    uint32_t in = inputs[i];
    VmResult r = vm_run(code.data() + 2 * offsets[in % kPrograms], in,
                        1 + (in >> 2) % 24);
    c.eq(val[i], r.value, "value", i);
    c.eq(steps[i], r.steps, "steps", i);
  }
  return bench::finish(c);
}

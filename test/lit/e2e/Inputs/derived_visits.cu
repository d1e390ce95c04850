// Branches at the end of derived blocks (derived-visits.test): a dispatch
// loop whose cases end in a divergent test (an interpreter's `if (sp <
// kStack)`), a chain of two-way branches each on a side of the previous
// one, and a case block that calls a function before its test (its branch
// keeps counting its own visits). Lanes of each warp split everywhere.
#include <cstdio>

__device__ __noinline__ unsigned mix(unsigned x) {
  x ^= x >> 13;
  return x * 0x9e3779b1u;
}

__device__ __noinline__ unsigned chain(unsigned v, unsigned x, unsigned *log) {
  if (v & 1) { // side derived; its branch takes its visits from it
    log[0] = x;
    if (v & 2) { // and again, one level down
      log[1] = x * 7;
      if (v & 4)
        log[2] = x ^ 0x1234u;
    }
  }
  return x + log[v & 3];
}

__global__ void dispatch(const int *in, unsigned *out, unsigned *logs, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int v = in[t];
  unsigned *log = logs + 4 * t;
  unsigned stack[8];
  int sp = 0;
  unsigned acc = (unsigned)t;
  for (int i = 0; i < 4 + (v & 7); ++i) {
    switch ((v + 3 * i) % 6) { // dense dispatch inside a loop
    case 0:
      if (sp < 8) // a case ending in a divergent test (an interpreter's push)
        stack[sp++] = acc;
      break;
    case 1:
      if (sp >= 1) // pop
        acc ^= stack[--sp] << 4;
      break;
    case 2:
      acc = mix(acc); // a call before the test
      if (acc & 1)
        stack[sp & 7] = acc;
      break;
    case 3:
      if (sp >= 2) {
        unsigned b = stack[--sp];
        stack[sp - 1] += b;
      }
      break;
    case 4:
      acc -= (unsigned)i;
      break;
    default:
      acc = chain((unsigned)(v + i), acc, log);
      break;
    }
  }
  out[t] = acc + (sp ? stack[sp - 1] : 0u) + chain((unsigned)v, acc, log);
}

int main() {
  const int n = 200; // the last warp is partly idle
  int host[n], *in;
  unsigned *out, *logs, res[n];
  for (int k = 0; k < n; ++k)
    host[k] = (k * 53 + k / 3) % 31;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof res);
  cudaMalloc(&logs, 4 * sizeof res);
  cudaMemset(logs, 0, 4 * sizeof res);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  dispatch<<<2, 128>>>(in, out, logs, n);
  cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
  unsigned sum = 0;
  for (int k = 0; k < n; ++k)
    sum = sum * 31 + res[k];
  printf("checksum %u\n", sum);
  return 0;
}

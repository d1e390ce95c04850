// Case blocks of divergent switches, counted from their switch's record
// (switch-case-counts.test): a loop-free device function with a dense
// switch (an interpreter's ALU), a sparse switch with cases sharing a
// block and the default, a three-way switch, and a dispatch switch inside
// a loop. Lanes of one warp take different cases, so every visit splits.
#include <cstdio>

__device__ __noinline__ unsigned alu(int op, unsigned a, unsigned b) {
  switch (op) { // dense: one range check maps values to successors
  case 0:
    return a + b;
  case 1:
    return a - b;
  case 2:
    return a * b;
  case 3:
    return a ^ b;
  case 4:
    return b ? a % b : a; // ends in a branch of its own
  case 5:
    return a >> (b & 31);
  default:
    return 0xdeadbeefu;
  }
}

__device__ __noinline__ unsigned sparse(int v, unsigned x) {
  switch (v) { // four or more sparse cases: one lane per value maps it
  case 5:
  case 45: // two cases, one block
    x = x * 7 + 1;
    break;
  case 40:
    x ^= 0x55u;
    break;
  case 100:
    x += 12;
    break;
  case 7: // the default's block
  default:
    x = x * 3;
    break;
  }
  return x + 1;
}

__device__ __noinline__ unsigned three(int v, unsigned x) {
  switch (v & 3) { // few cases: a compare-and-select chain in every lane
  case 0:
    x += 100;
    break;
  case 1:
    x *= 5;
    break;
  default:
    x -= 9;
    break;
  }
  return x;
}

__global__ void cases(const int *in, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int v = in[t];
  unsigned acc = (unsigned)t;
  acc = alu(v % 7, acc, (unsigned)v + 3);
  acc = sparse(v * 5 % 130, acc);
  acc = three(v, acc);
  for (int i = 0; i < (v & 7); ++i) {
    switch ((v + i) % 5) { // dispatch inside a loop
    case 0:
      acc += 1;
      break;
    case 1:
      acc = alu((v + i) % 6, acc, 3u);
      break;
    case 2:
      acc ^= (unsigned)i;
      break;
    case 3:
      acc = sparse(i * 45, acc);
      break;
    default:
      acc *= 3;
      break;
    }
  }
  out[t] = acc;
}

int main() {
  const int n = 200; // the last warp is partly idle
  int host[n], *in;
  unsigned *out, res[n];
  for (int k = 0; k < n; ++k)
    host[k] = (k * 37 + k / 5) % 29;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof res);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cases<<<2, 128>>>(in, out, n);
  cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
  unsigned sum = 0;
  for (int k = 0; k < n; ++k)
    sum = sum * 31 + res[k];
  printf("checksum %u\n", sum);
  return 0;
}

// A bounds guard whose condition the optimiser inverts: at -O0 the branch
// goes to the `return` first, at -O2 to the body first. 128 threads, n = 40:
// 88 take the source condition's true side (return), 40 run the body, whose
// branch sends the 20 even values of x to its true side.
#include <cstdio>

__global__ void guard(const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = x[i];
  if (v % 2 == 0) {
    for (int k = 0; k < v; ++k)
      y[i] += k * v;
  } else {
    y[i] = v * 3;
  }
}

int main() {
  int h[128];
  for (int i = 0; i < 128; ++i)
    h[i] = i;
  int *x, *y;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&y, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(y, 0, sizeof h);
  guard<<<2, 64>>>(x, y, 40);
  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d %d\n", h[2], h[3]);
  return 0;
}

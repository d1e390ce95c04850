// One kernel launched three times with one configuration, once with another.
__global__ void k(int *p) { p[threadIdx.x + blockIdx.x * blockDim.x] += 1; }

int main() {
  int *d;
  cudaMalloc(&d, 4096 * sizeof(int));
  for (int i = 0; i < 3; ++i)
    k<<<4, 64>>>(d);
  k<<<2, 128>>>(d);
  cudaDeviceSynchronize();
  return 0;
}

// Kernel a launched with two configurations, kernel b with one: in an
// aggregate run only b's counts are those of one configuration.
#include <cstdio>

__global__ void a(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 2; }
__global__ void b(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

int main() {
  float *x;
  cudaMalloc(&x, 4096 * sizeof(float));
  a<<<16, 256>>>(x);
  a<<<8, 128>>>(x);
  b<<<4, 256>>>(x);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}

__device__ int counter;
__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
  if (i == 0) atomicAdd(&counter, 1);
}

// Two versions of one kernel for warpscope diff (issue 40, item 3). As is:
// a load with a stride of 32 floats (32 sectors a request), a 32-way
// shared-memory bank conflict and a branch only this version has. With
// -DFIXED: the same lines coalesced and conflict-free, and another branch.
#include <cstdio>

#ifdef FIXED
#define AT(T, B) ((B) * 32 + (T))
#define BANK(T) (T)
#else
#define AT(T, B) ((T) * 32 + (B))
#define BANK(T) ((T) * 32)
#endif

__global__ void transpose(const float *In, float *Out, int *Hits) {
  __shared__ float Tile[32 * 32];
  int T = threadIdx.x;
  float V = In[AT(T, blockIdx.x)];
  Tile[BANK(T)] = V;
  __syncthreads();
  V += Tile[BANK((T + 1) % 32)];
#ifdef FIXED
  if (T % 3 == 0)
    atomicAdd(&Hits[0], 1);
#else
  if (T % 2 == 0)
    atomicAdd(&Hits[1], 1);
#endif
  Out[AT(T, blockIdx.x)] = V;
}

int main() {
  float *In, *Out;
  int *Hits;
  cudaMalloc(&In, 32 * 32 * sizeof(float));
  cudaMalloc(&Out, 32 * 32 * sizeof(float));
  cudaMalloc(&Hits, 2 * sizeof(int));
  cudaMemset(In, 0, 32 * 32 * sizeof(float));
  transpose<<<32, 32>>>(In, Out, Hits);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}

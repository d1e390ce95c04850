// Texture and surface kernels for TextureTest.cpp (the object API; clang 22
// makes textures_O2.ptx: see docs/emulator.md). Handles come from
// registerTexture/registerSurface.
#include <cuda_runtime.h>

__global__ void fetch3D(cudaTextureObject_t t, const float *c, float *out,
                        int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = tex3D<float>(t, c[3 * i], c[3 * i + 1], c[3 * i + 2]);
}

__global__ void fetch2DLod(cudaTextureObject_t t, const float *c, float *out,
                           int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = tex2DLod<float>(t, c[2 * i], c[2 * i + 1], 3.0f);
}

__global__ void fetch1D(cudaTextureObject_t t, float x, float *out) {
  out[threadIdx.x] = tex1D<float>(t, x + threadIdx.x);
}

__global__ void surf3DCopy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  float2 v = surf3Dread<float2>(src, x * 8, y, z);
  v.x += 1.0f;
  surf3Dwrite(v, dst, x * 8, y, z);
}

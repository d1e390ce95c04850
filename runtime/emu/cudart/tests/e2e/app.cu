// End-to-end program for the stand-in libcudart.so.13: an ordinary CUDA
// program (clang -x cuda, linked against the real libcudart) run with
// LD_LIBRARY_PATH pointing at the emulator's library. Uses symbols, events,
// streams, printf and error checks. Arguments:
//   (none)   run, verify, exit 0 on success, 2 on wrong results
//   --fail   additionally launch a faulting kernel (a store through a null
//            pointer); exit 3 when the runtime reports its error at the
//            launch, the synchronization and a later call (sticky)
//   --noverify  do not fail on wrong results (fake-core runs)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error %s (%s) at %s:%d\n", cudaGetErrorName(e_),   \
              cudaGetErrorString(e_), __FILE__, __LINE__);                     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__constant__ float scale;
__device__ int counter;

__global__ void axpy(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = scale * x[i] + y[i];
    atomicAdd(&counter, 1);
  }
  if (i == 0)
    printf("axpy: n=%d scale=%.1f\n", n, scale);
}

__global__ void fail_store(int *p) { p[threadIdx.x] = 1; }

__global__ void inc2d(int *base, size_t pitch, int width) {
  int *row = (int *)((char *)base + blockIdx.y * pitch);
  if (threadIdx.x < width)
    row[threadIdx.x] += int(blockIdx.y) * 100 + int(threadIdx.x);
}

int main(int argc, char **argv) {
  bool Fail = false, Verify = true;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--fail"))
      Fail = true;
    if (!strcmp(argv[i], "--noverify"))
      Verify = false;
  }
  CHECK(cudaFree(0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s sm_%d%d\n", prop.name, prop.major, prop.minor);

  const int n = 1000;
  static float hx[n], hy[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i);
    hy[i] = 1.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice));
  float s = 2.0f;
  CHECK(cudaMemcpyToSymbol(scale, &s, sizeof(s)));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(zero)));

  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, st));
  axpy<<<(n + 255) / 256, 256, 0, st>>>(dy, dx, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, st));
  CHECK(cudaStreamSynchronize(st));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("elapsed: %s\n", ms >= 0 ? "ok" : "negative");
  CHECK(cudaMemcpyAsync(hy, dy, sizeof(hy), cudaMemcpyDeviceToHost, st));
  CHECK(cudaStreamSynchronize(st));

  int count = -1;
  CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof(count)));
  float s2 = 0;
  CHECK(cudaMemcpyFromSymbol(&s2, scale, sizeof(s2)));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (hy[i] != 2.0f * float(i) + 1.0f)
      ++bad;
  printf("scale=%.1f counter=%d mismatches=%d\n", s2, count, bad);

  // Pitched memory: 2D copies around a kernel that uses the pitch.
  const int w = 13, h = 5;
  static int h2[h][w];
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c)
      h2[r][c] = 1;
  int *d2;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&d2, &pitch, w * sizeof(int), h));
  CHECK(cudaMemset2D(d2, pitch, 0, w * sizeof(int), h));
  CHECK(cudaMemcpy2D(d2, pitch, h2, w * sizeof(int), w * sizeof(int), h,
                     cudaMemcpyHostToDevice));
  inc2d<<<dim3(1, h), 32>>>(d2, pitch, w);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(h2, w * sizeof(int), d2, pitch, w * sizeof(int), h,
                     cudaMemcpyDeviceToHost));
  int bad2 = 0;
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c)
      if (h2[r][c] != 1 + r * 100 + c)
        ++bad2;
  printf("pitched: pitch%%512=%d mismatches=%d\n", int(pitch % 512), bad2);
  bad += bad2;
  CHECK(cudaFree(d2));

  // Occupancy helpers (the header-inline template calls into the runtime).
  int minGrid = 0, bestBlock = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, axpy));
  int perSM = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, axpy, 256, 0));
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, axpy));
  printf("occupancy: %s\n", bestBlock > 0 && bestBlock <= 1024 && perSM > 0 &&
                                   fa.maxThreadsPerBlock > 0
                               ? "ok"
                               : "bad");

  // A bad configuration is reported at launch and is not sticky.
  axpy<<<1, 2048>>>(dy, dx, n);
  printf("bad launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("after: %s\n", cudaGetErrorName(cudaGetLastError()));

  // Something the emulator does not implement.
  cudaGraph_t graph;
  cudaError_t ge = cudaGraphCreate(&graph, 0);
  printf("graph: %s\n", cudaGetErrorName(ge));
  cudaGetLastError();

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));

  if (Fail) {
    fail_store<<<1, 32>>>(nullptr);
    cudaError_t e1 = cudaGetLastError();
    cudaError_t e2 = cudaDeviceSynchronize();
    // Sticky: later calls fail with it too.
    void *p = nullptr;
    cudaError_t e3 = cudaMalloc(&p, 16);
    printf("fail: launch=%s sync=%s after=%s\n", cudaGetErrorName(e1),
           cudaGetErrorName(e2), cudaGetErrorName(e3));
    if (e2 != cudaSuccess && e1 == e2 && e3 == e2)
      return 3;
    return 4;
  }
  printf("done\n");
  return (Verify && (bad || count != n)) ? 2 : 0;
}

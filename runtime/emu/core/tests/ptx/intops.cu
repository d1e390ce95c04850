#include "ops_common.h"
__global__ void intops(const int32_t *a, const int32_t *b, uint64_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) intOps(a[i], b[i], out + (size_t)i * NINT);
}

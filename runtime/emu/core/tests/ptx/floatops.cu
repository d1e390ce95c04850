#include "float_common.h"
__global__ void floatops(const float *a, const float *b, const double *da, const double *db,
                         uint64_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) floatOps(a[i], b[i], da[i], db[i], out + (size_t)i * NFLT);
}

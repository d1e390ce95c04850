#include <cuda_runtime.h>
int launch_a(int *di, float *df, int n, cudaStream_t s);

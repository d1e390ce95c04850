// Uncoalesced access: one field of an array of 32-byte records.
// before: records of 8 floats: a warp's lanes read 32 B apart (32 sectors per request)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define REC 8 // CHANGE
__global__ void scale_field(const float *Recs, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float X = Recs[(size_t)T * REC];
  Out[T] = X * 1.5f + 0.25f;
}

int main() {
  const int N = 1 << 18;
  std::vector<float> Field = pair::randomFloats(N, -1, 1);
  std::vector<float> Recs((size_t)N * REC);
  for (int T = 0; T < N; ++T)
    Recs[(size_t)T * REC] = Field[T];
  float *DRecs = pair::toDevice(Recs);
  float *Out = pair::toDevice(std::vector<float>(N));
  scale_field<<<N / 256, 256>>>(DRecs, Out, N);
  pair::finish(Out, N);
}

// Global memory access adjustment: a particle step over records of 6 floats (x, y, z, vx, vy, vz).
// after: structure of arrays (each field an array of NP floats): consecutive lanes, consecutive floats
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

const int NP = 1 << 16; // particles
enum Field { PX, PY, PZ, VX, VY, VZ, NFIELD };
#define AT(F, I) ((size_t)(F) * NP + (I)) // CHANGE

// Moves each particle by its velocity and writes its distance from the origin.
__global__ void advance(float *P, float *Dist, float Dt) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= NP)
    return;
  float X = P[AT(PX, I)] + Dt * P[AT(VX, I)];
  float Y = P[AT(PY, I)] + Dt * P[AT(VY, I)];
  float Z = P[AT(PZ, I)] + Dt * P[AT(VZ, I)];
  P[AT(PX, I)] = X;
  P[AT(PY, I)] = Y;
  P[AT(PZ, I)] = Z;
  Dist[I] = sqrtf(X * X + Y * Y + Z * Z);
}

int main() {
  std::vector<float> Values = pair::randomFloats((size_t)NP * NFIELD, -1, 1);
  std::vector<float> Host((size_t)NP * NFIELD);
  for (int I = 0; I < NP; ++I)
    for (int F = 0; F < NFIELD; ++F)
      Host[AT(F, I)] = Values[(size_t)I * NFIELD + F];
  float *P = pair::toDevice(Host);
  float *Dist = pair::toDevice(std::vector<float>(NP));
  advance<<<NP / 256, 256>>>(P, Dist, 0.01f);
  pair::finish(Dist, NP);
}

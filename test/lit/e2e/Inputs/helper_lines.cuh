// A user's header of device helpers, included by inlined-helper-lines.cu.
#pragma once

__device__ __forceinline__ int bitCount(unsigned v) {
  int c = 0;
  while (v) { // HEADER-BRANCH
    c += v & 1;
    v >>= 1;
  }
  return c;
}

__device__ __forceinline__ int loadAt(const int *p, int i) {
  return p[i]; // HEADER-LOAD
}

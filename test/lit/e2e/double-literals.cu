// A double's bits in a 0d literal of a bit-typed mov (clang emits one inside
// libdevice's __nv_exp) are a double, not a float: exp(double) was wrong on
// the emulator before. Reference values from the host's libm.
// RUN: %clang-cuda -O2 --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.out
// RUN: %warpscope run --emulate -o %t.out -- %t.exe | FileCheck %s
// CHECK: literal -6755399441055744
// CHECK-NEXT: exp ok
#include <cmath>
#include <cstdio>

__global__ void k(const double *x, double *out, int n) {
  double r;
  asm("mov.b64 %0, 0dC338000000000000;" : "=d"(r));
  out[0] = r;
  for (int i = 0; i < n; ++i)
    out[1 + i] = exp(x[i]);
}

int main() {
  const double xs[] = {-1.0, 0.0, 0.5, 10.0, -700.0, 3.25};
  const int n = sizeof(xs) / sizeof(xs[0]);
  double *dx, *dout, out[1 + n];
  cudaMalloc(&dx, sizeof(xs));
  cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(dx, xs, sizeof(xs), cudaMemcpyHostToDevice);
  k<<<1, 1>>>(dx, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  std::printf("literal %.17g\n", out[0]);
  // libdevice's exp is within 1 ulp (CUDA Math API documentation).
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    double ref = std::exp(xs[i]);
    if (std::fabs(out[1 + i] - ref) > 2.3e-16 * std::fabs(ref)) {
      std::printf("exp(%g) = %.17g, want %.17g\n", xs[i], out[1 + i], ref);
      ok = false;
    }
  }
  std::printf(ok ? "exp ok\n" : "exp wrong\n");
  return 0;
}

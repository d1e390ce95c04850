// nbody: all-pairs gravitational n-body (float). The force kernel tiles the
// body positions through shared memory (one tile per block-sized chunk) and
// uses rsqrtf for 1/r; a second kernel integrates velocities and positions.
#include "bench_common.h"
#include <vector>

constexpr int kThreads = 64;
constexpr float kSoft2 = 0.01f; // softening squared

__global__ void nbody_accel(const float4 *pos, float4 *acc, int n) {
  __shared__ float4 tile[kThreads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 pi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int base = 0; base < n; base += kThreads) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    for (int k = 0; k < kThreads; ++k) {
      float4 pj = tile[k];
      float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      float d2 = dx * dx + dy * dy + dz * dz + kSoft2;
      float inv = rsqrtf(d2);
      float s = pj.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n)
    acc[i] = make_float4(ax, ay, az, 0.f);
}

__global__ void nbody_integrate(float4 *pos, float4 *vel, const float4 *acc,
                                int n, float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = pos[i], v = vel[i], a = acc[i];
    v.x += a.x * dt;
    v.y += a.y * dt;
    v.z += a.z * dt;
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    pos[i] = p;
    vel[i] = v;
  }
}

struct V4 {
  double x, y, z, w;
};

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "nbody");
  const int n = (int)args.pick(256, 32768);
  const bool full = n <= 4096; // full check over several steps
  const int steps = full ? 2 : 1;
  const int reps = args.pickReps(100);
  const float dt = 0.001f;

  bench::Lcg rng(15);
  std::vector<float4> pos(n), vel(n);
  for (int i = 0; i < n; ++i) {
    pos[i] = make_float4(rng.uniform(-1.f, 1.f), rng.uniform(-1.f, 1.f),
                         rng.uniform(-1.f, 1.f), rng.uniform(0.5f, 1.5f) / n);
    vel[i] = make_float4(rng.uniform(-.1f, .1f), rng.uniform(-.1f, .1f),
                         rng.uniform(-.1f, .1f), 0.f);
  }

  float4 *dpos0, *dvel0, *dpos, *dvel, *dacc;
  const size_t bytes = n * sizeof(float4);
  CHECK(cudaMalloc(&dpos0, bytes));
  CHECK(cudaMalloc(&dvel0, bytes));
  CHECK(cudaMalloc(&dpos, bytes));
  CHECK(cudaMalloc(&dvel, bytes));
  CHECK(cudaMalloc(&dacc, bytes));
  CHECK(cudaMemcpy(dpos0, pos.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvel0, vel.data(), bytes, cudaMemcpyHostToDevice));

  const int blocks = (n + kThreads - 1) / kThreads;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(dpos, dpos0, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(dvel, dvel0, bytes, cudaMemcpyDeviceToDevice));
    for (int s = 0; s < steps; ++s) {
      nbody_accel<<<blocks, kThreads>>>(dpos, dacc, n);
      CHECK_LAUNCH();
      nbody_integrate<<<blocks, kThreads>>>(dpos, dvel, dacc, n, dt);
      CHECK_LAUNCH();
    }
  }
  float ms = t.stop();

  std::vector<float4> gpos(n), gvel(n);
  CHECK(cudaMemcpy(gpos.data(), dpos, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gvel.data(), dvel, bytes, cudaMemcpyDeviceToHost));
  for (float4 *p : {dpos0, dvel0, dpos, dvel, dacc})
    CHECK(cudaFree(p));

  // Double-precision reference (all bodies when full, else a sample).
  std::vector<V4> p(n), v(n);
  for (int i = 0; i < n; ++i) {
    p[i] = {pos[i].x, pos[i].y, pos[i].z, pos[i].w};
    v[i] = {vel[i].x, vel[i].y, vel[i].z, 0};
  }
  const int stride = full ? 1 : 37;
  std::vector<V4> a(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; i += stride) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < n; ++j) {
        double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
        double d2 = dx * dx + dy * dy + dz * dz + kSoft2;
        double sc = p[j].w / (d2 * std::sqrt(d2));
        ax += dx * sc;
        ay += dy * sc;
        az += dz * sc;
      }
      a[i] = {ax, ay, az, 0};
    }
    for (int i = 0; i < n; i += stride) {
      v[i].x += a[i].x * dt;
      v[i].y += a[i].y * dt;
      v[i].z += a[i].z * dt;
      p[i].x += v[i].x * dt;
      p[i].y += v[i].y * dt;
      p[i].z += v[i].z * dt;
    }
  }

  bench::print_time(ms);
  bench::Checker c;
  for (int i = 0; i < n; i += stride) {
    // Velocity changes (not velocities): dv is ~1e-3 of v.
    c.near((double)gvel[i].x - vel[i].x, v[i].x - vel[i].x, 2e-3, 1e-7, "dvel.x", i);
    c.near((double)gvel[i].y - vel[i].y, v[i].y - vel[i].y, 2e-3, 1e-7, "dvel.y", i);
    c.near((double)gvel[i].z - vel[i].z, v[i].z - vel[i].z, 2e-3, 1e-7, "dvel.z", i);
    c.near(gpos[i].x, p[i].x, 1e-5, 1e-6, "pos.x", i);
    c.near(gpos[i].y, p[i].y, 1e-5, 1e-6, "pos.y", i);
    c.near(gpos[i].z, p[i].z, 1e-5, 1e-6, "pos.z", i);
  }
  return bench::finish(c);
}

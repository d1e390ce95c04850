// cfd_flux: explicit finite-volume Euler solver on an unstructured mesh
// (double precision), in the style of a cell-centred CFD code. Every cell
// holds density, momentum (3) and energy; its faces name a neighbour cell or
// a boundary (wall or far field, chosen by a branch). Per iteration: a kernel
// computes each cell's local time step (sqrt for the speed of sound), then
// three Runge-Kutta stages each run a flux kernel (central flux + scalar
// dissipation over the faces, neighbour states gathered through the
// connectivity) and an update kernel.
//
// The mesh is a 2D grid of quadrilaterals whose cells are numbered in a
// random order (irregular gathers), with perturbed face normals (z parts
// too) and volumes; the two sides of an interior face store exactly opposite
// normals. The CPU reference walks faces instead of cells (each interior
// face once, added to one cell and subtracted from the other), so it shares
// only the per-face formulas with the device.
#include "bench_common.h"
#include <vector>

constexpr int kFaces = 4;  // faces per cell
constexpr int kVars = 5;   // density, momentum x/y/z, energy
constexpr int kStages = 3; // Runge-Kutta stages per iteration
constexpr int kWall = -1, kFarField = -2;
constexpr int kThreads = 128;
constexpr double kGamma = 1.4;
constexpr double kDissip = 0.25; // scalar dissipation coefficient
constexpr double kCfl = 0.4;

struct State {
  double rho, m[3], e;
};

struct Prim {
  double u[3], p, c, speed;
};

__host__ __device__ inline Prim primitives(const State &s) {
  Prim q;
  double s2 = 0.0;
  for (int d = 0; d < 3; ++d) {
    q.u[d] = s.m[d] / s.rho;
    s2 += q.u[d] * q.u[d];
  }
  q.p = (kGamma - 1.0) * (s.e - 0.5 * s.rho * s2);
  q.c = sqrt(kGamma * q.p / s.rho);
  q.speed = sqrt(s2);
  return q;
}

/// Flux of `a`'s cell through a face of normal n towards `b` (outward,
/// area-weighted): central flux plus scalar dissipation.
__host__ __device__ inline void face_flux(const State &a, const Prim &pa,
                                          const State &b, const Prim &pb,
                                          const double n[3], double f[kVars]) {
  double nlen = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  double k = kDissip * 0.5 * nlen * (pa.speed + pa.c + pb.speed + pb.c);
  double una = pa.u[0] * n[0] + pa.u[1] * n[1] + pa.u[2] * n[2];
  double unb = pb.u[0] * n[0] + pb.u[1] * n[1] + pb.u[2] * n[2];
  f[0] = 0.5 * (a.rho * una + b.rho * unb) + k * (a.rho - b.rho);
  for (int d = 0; d < 3; ++d)
    f[1 + d] = 0.5 * (a.m[d] * una + pa.p * n[d] + b.m[d] * unb + pb.p * n[d]) +
               k * (a.m[d] - b.m[d]);
  f[4] = 0.5 * ((a.e + pa.p) * una + (b.e + pb.p) * unb) + k * (a.e - b.e);
}

__device__ inline State load_state(const double *v, int i, int n) {
  State s;
  s.rho = v[i];
  for (int d = 0; d < 3; ++d)
    s.m[d] = v[(1 + d) * n + i];
  s.e = v[4 * n + i];
  return s;
}

// Local time step over volume: dt_i / V_i = cfl / (h_i (|u| + c)), h = sqrt(V).
__global__ void cfd_step_factor(const double *v, const double *vol,
                                double *factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Prim q = primitives(load_state(v, i, n));
    factor[i] = kCfl / (sqrt(vol[i]) * (q.speed + q.c));
  }
}

__global__ void cfd_compute_flux(const double *v, const int *nb,
                                 const double *normals, State far, double *flux,
                                 int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  State s = load_state(v, i, n);
  Prim q = primitives(s);
  const Prim qfar = primitives(far);
  double r[kVars] = {0.0, 0.0, 0.0, 0.0, 0.0};
  for (int f = 0; f < kFaces; ++f) {
    int j = nb[f * n + i];
    double nrm[3];
    for (int d = 0; d < 3; ++d)
      nrm[d] = normals[(f * 3 + d) * n + i];
    double ff[kVars];
    if (j >= 0) {
      State o = load_state(v, j, n);
      face_flux(s, q, o, primitives(o), nrm, ff);
    } else if (j == kWall) {
      // Slip wall: only the pressure pushes on the momentum.
      ff[0] = ff[4] = 0.0;
      for (int d = 0; d < 3; ++d)
        ff[1 + d] = q.p * nrm[d];
    } else {
      face_flux(s, q, far, qfar, nrm, ff);
    }
    for (int k = 0; k < kVars; ++k)
      r[k] += ff[k];
  }
  for (int k = 0; k < kVars; ++k)
    flux[k * n + i] = r[k];
}

// Stage update: v = v_old - alpha * dt / V * residual.
__global__ void cfd_time_step(double *v, const double *old,
                              const double *factor, const double *flux,
                              double alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double a = alpha * factor[i];
    for (int k = 0; k < kVars; ++k)
      v[k * n + i] = old[k * n + i] - a * flux[k * n + i];
  }
}

struct Mesh {
  int n = 0;
  std::vector<int> nb;         // [face][cell]
  std::vector<double> normals; // [face][dim][cell]
  std::vector<double> vol;
  std::vector<double> x, y; // cell centres (for the initial state)
};

// nx x ny quadrilaterals in the unit square, numbered by a random
// permutation. Faces: 0 east, 1 north, 2 west, 3 south. West/east
// boundaries are far field, south/north are walls.
static Mesh make_mesh(int nx, int ny, bench::Lcg &rng) {
  Mesh m;
  m.n = nx * ny;
  const int n = m.n;
  std::vector<int> id(n);
  for (int i = 0; i < n; ++i)
    id[i] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(id[i], id[rng.below(i + 1)]);
  m.nb.assign((size_t)kFaces * n, 0);
  m.normals.assign((size_t)kFaces * 3 * n, 0.0);
  m.vol.resize(n);
  m.x.resize(n);
  m.y.resize(n);
  const double h = 1.0 / nx;
  auto cell = [&](int cx, int cy) { return id[cy * nx + cx]; };
  for (int cy = 0; cy < ny; ++cy)
    for (int cx = 0; cx < nx; ++cx) {
      int c = cell(cx, cy);
      m.vol[c] = h * h * (1.0 + 0.2 * rng.uniform());
      m.x[c] = (cx + 0.5) * h;
      m.y[c] = (cy + 0.5) * h;
      m.nb[0 * n + c] = cx + 1 < nx ? cell(cx + 1, cy) : kFarField;
      m.nb[1 * n + c] = cy + 1 < ny ? cell(cx, cy + 1) : kWall;
      m.nb[2 * n + c] = cx > 0 ? cell(cx - 1, cy) : kFarField;
      m.nb[3 * n + c] = cy > 0 ? cell(cx, cy - 1) : kWall;
    }
  // Each face gets one perturbed normal; the neighbour stores its negation.
  auto set = [&](int c, int f, double sign) {
    double v[3] = {f % 2 == 0 ? h : 0.0, f % 2 == 1 ? h : 0.0, 0.0};
    for (int d = 0; d < 3; ++d)
      v[d] = sign * (v[d] + h * rng.uniform(-0.05f, 0.05f));
    for (int d = 0; d < 3; ++d) {
      m.normals[(size_t)(f * 3 + d) * n + c] = v[d];
      int j = m.nb[f * n + c];
      if (j >= 0) // the neighbour's opposite face: f + 2 (mod 4)
        m.normals[(size_t)(((f + 2) % 4) * 3 + d) * n + j] = -v[d];
    }
  };
  for (int cy = 0; cy < ny; ++cy)
    for (int cx = 0; cx < nx; ++cx) {
      int c = cell(cx, cy);
      set(c, 0, 1.0); // east
      set(c, 1, 1.0); // north
      if (cx == 0)
        set(c, 2, -1.0); // west border
      if (cy == 0)
        set(c, 3, -1.0); // south border
    }
  return m;
}

static State state_of(const std::vector<double> &v, int i, int n) {
  return {v[i], {v[n + i], v[2 * n + i], v[3 * n + i]}, v[4 * n + i]};
}

// Face-based reference of `iters` iterations (see the header comment).
static void reference(const Mesh &m, std::vector<double> &v, const State &far,
                      int iters) {
  const int n = m.n;
  const Prim qfar = primitives(far);
  std::vector<double> old, fac(n), res((size_t)kVars * n);
  std::vector<State> s(n);
  std::vector<Prim> q(n);
  for (int it = 0; it < iters; ++it) {
    old = v;
    for (int i = 0; i < n; ++i) {
      Prim p = primitives(state_of(v, i, n));
      fac[i] = kCfl / (std::sqrt(m.vol[i]) * (p.speed + p.c));
    }
    for (int stage = 0; stage < kStages; ++stage) {
      for (int i = 0; i < n; ++i) {
        s[i] = state_of(v, i, n);
        q[i] = primitives(s[i]);
      }
      std::fill(res.begin(), res.end(), 0.0);
      for (int i = 0; i < n; ++i)
        for (int f = 0; f < kFaces; ++f) {
          int j = m.nb[f * n + i];
          if (j >= 0 && j < i)
            continue; // interior faces once, from the lower-numbered side
          double nrm[3], ff[kVars];
          for (int d = 0; d < 3; ++d)
            nrm[d] = m.normals[(size_t)(f * 3 + d) * n + i];
          if (j >= 0) {
            face_flux(s[i], q[i], s[j], q[j], nrm, ff);
            for (int k = 0; k < kVars; ++k)
              res[(size_t)k * n + j] -= ff[k];
          } else if (j == kWall) {
            ff[0] = ff[4] = 0.0;
            for (int d = 0; d < 3; ++d)
              ff[1 + d] = q[i].p * nrm[d];
          } else {
            face_flux(s[i], q[i], far, qfar, nrm, ff);
          }
          for (int k = 0; k < kVars; ++k)
            res[(size_t)k * n + i] += ff[k];
        }
      double alpha = 1.0 / (kStages - stage);
      for (int k = 0; k < kVars; ++k)
        for (int i = 0; i < n; ++i)
          v[(size_t)k * n + i] =
              old[(size_t)k * n + i] - alpha * fac[i] * res[(size_t)k * n + i];
    }
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "cfd_flux");
  const int nx = (int)args.pick(32, 512);
  const int iters = args.isLarge() ? 3 : 2;
  const int reps = args.pickReps(120);

  bench::Lcg rng(23);
  const Mesh m = make_mesh(nx, nx, rng);
  const int n = m.n;

  // Free stream: Mach 0.5 at 10 degrees, rho = 1, c = 1. The initial state
  // adds a density and pressure bump in the middle of the domain.
  const double mach = 0.5, ang = 10.0 * M_PI / 180.0, pfar = 1.0 / kGamma;
  const double ufar[3] = {mach * std::cos(ang), mach * std::sin(ang), 0.0};
  auto make_state = [&](double rho, double p) {
    State st;
    st.rho = rho;
    double s2 = 0.0;
    for (int d = 0; d < 3; ++d) {
      st.m[d] = rho * ufar[d];
      s2 += ufar[d] * ufar[d];
    }
    st.e = p / (kGamma - 1.0) + 0.5 * rho * s2;
    return st;
  };
  const State far = make_state(1.0, pfar);
  std::vector<double> v0((size_t)kVars * n);
  for (int i = 0; i < n; ++i) {
    double dx = m.x[i] - 0.5, dy = m.y[i] - 0.5;
    double bump = 0.3 * std::exp(-(dx * dx + dy * dy) / 0.02);
    State st = make_state(1.0 + bump, pfar * (1.0 + bump));
    v0[i] = st.rho;
    for (int d = 0; d < 3; ++d)
      v0[(size_t)(1 + d) * n + i] = st.m[d];
    v0[(size_t)4 * n + i] = st.e;
  }

  const size_t vbytes = (size_t)kVars * n * sizeof(double);
  double *dv0, *dv, *dold, *dflux, *dfac, *dvol, *dnorm;
  int *dnb;
  CHECK(cudaMalloc(&dv0, vbytes));
  CHECK(cudaMalloc(&dv, vbytes));
  CHECK(cudaMalloc(&dold, vbytes));
  CHECK(cudaMalloc(&dflux, vbytes));
  CHECK(cudaMalloc(&dfac, n * sizeof(double)));
  CHECK(cudaMalloc(&dvol, n * sizeof(double)));
  CHECK(cudaMalloc(&dnorm, m.normals.size() * sizeof(double)));
  CHECK(cudaMalloc(&dnb, m.nb.size() * sizeof(int)));
  CHECK(cudaMemcpy(dv0, v0.data(), vbytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvol, m.vol.data(), n * sizeof(double),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dnorm, m.normals.data(), m.normals.size() * sizeof(double),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dnb, m.nb.data(), m.nb.size() * sizeof(int),
                   cudaMemcpyHostToDevice));

  const int blocks = (n + kThreads - 1) / kThreads;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(dv, dv0, vbytes, cudaMemcpyDeviceToDevice));
    for (int it = 0; it < iters; ++it) {
      CHECK(cudaMemcpy(dold, dv, vbytes, cudaMemcpyDeviceToDevice));
      cfd_step_factor<<<blocks, kThreads>>>(dv, dvol, dfac, n);
      CHECK_LAUNCH();
      for (int stage = 0; stage < kStages; ++stage) {
        cfd_compute_flux<<<blocks, kThreads>>>(dv, dnb, dnorm, far, dflux, n);
        CHECK_LAUNCH();
        cfd_time_step<<<blocks, kThreads>>>(dv, dold, dfac, dflux,
                                            1.0 / (kStages - stage), n);
        CHECK_LAUNCH();
      }
    }
  }
  float ms = t.stop();

  std::vector<double> got((size_t)kVars * n);
  CHECK(cudaMemcpy(got.data(), dv, vbytes, cudaMemcpyDeviceToHost));
  for (double *p : {dv0, dv, dold, dflux, dfac, dvol, dnorm})
    CHECK(cudaFree(p));
  CHECK(cudaFree(dnb));

  std::vector<double> ref = v0;
  reference(m, ref, far, iters);

  bench::print_time(ms);
  bench::Checker c;
  // Double precision throughout; the device differs from the reference by
  // fma contraction and by summation order (it sums each cell's four face
  // fluxes in face order, the reference adds interior faces as it meets
  // them). A residual sums ~40 area-weighted terms of size ~h (error
  // ~40 * 1.1e-16 * h); dt/V ~ cfl / (h (|u| + c)) cancels the h, so each
  // stage moves the O(1) state by ~1e-15, ~1e-14 after 9 stages: 1e-12
  // leaves a 100x margin (the emulator's worst use is ~1e-4 of it at up to
  // 200^2). A dropped face term or a wrong coefficient moves it by >= 1e-4.
  static const char *names[kVars] = {"rho", "mom.x", "mom.y", "mom.z",
                                     "energy"};
  for (int k = 0; k < kVars; ++k)
    for (int i = 0; i < n; ++i)
      c.near(got[(size_t)k * n + i], ref[(size_t)k * n + i], 1e-12, 1e-12,
             names[k], i);
  return bench::finish(c);
}

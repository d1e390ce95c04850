// md_neighbor: molecular dynamics force evaluation (float). Atoms sit on a
// jittered cubic lattice in a periodic box. The device bins them into cells
// (global atomics for the counts, a one-block shared-memory scan for the
// cell starts, atomic cursors to fill the cells), builds a Verlet neighbour
// list per atom from the 27 surrounding cells (list cutoff rc + skin,
// minimum-image distances), then evaluates Lennard-Jones forces and
// energies from the list (a branch skips pairs in the skin).
//
// Positions are multiples of 1/64 inside a box of at most 72 units, so the
// differences, their squares and the squared distances are exact in float
// with or without fma: the neighbour test is bit-exact on any device, and
// the lists are checked exactly (as sets: the order within a cell depends on
// the atomics). Forces are checked against a double reference.
#include "bench_common.h"
#include <vector>

constexpr int kThreads = 128;
constexpr int kScanThreads = 256;
constexpr int kMaxNb = 80;           // list capacity per atom
constexpr int kSpacingQ = 72;        // lattice spacing 1.125 in units of 1/64
constexpr int kJitterQ = 6;          // jitter +-6/64 per coordinate
constexpr int kCellQ = 144;          // minimum cell width 2.25 = list cutoff
constexpr float kQ = 1.0f / 64;      // position quantum
constexpr float kListCut2 = 5.0625f; // (rc + skin)^2 = 2.25^2
constexpr float kCut2 = 4.0f;        // rc^2 = 2^2 (sigma = epsilon = 1)

struct Box {
  float len, half; // box side, half of it
  int ncell;       // cells per side (>= 3)
  int lenq;        // box side in units of 1/64
};

__host__ __device__ inline int cell_coord(float x, const Box &b) {
  // x * 64 is an exact integer; integer binning keeps every cell >= 2.25.
  return (int)(x * 64.0f) * b.ncell / b.lenq;
}

__host__ __device__ inline int cell_of(float4 p, const Box &b) {
  return (cell_coord(p.z, b) * b.ncell + cell_coord(p.y, b)) * b.ncell +
         cell_coord(p.x, b);
}

/// Minimum-image difference, exact for coordinates on the 1/64 grid.
__host__ __device__ inline float min_image(float d, const Box &b) {
  if (d > b.half)
    d -= b.len;
  else if (d < -b.half)
    d += b.len;
  return d;
}

__host__ __device__ inline float dist2(float4 a, float4 c, const Box &b,
                                       float d[3]) {
  d[0] = min_image(c.x - a.x, b);
  d[1] = min_image(c.y - a.y, b);
  d[2] = min_image(c.z - a.z, b);
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

__global__ void md_count_cells(const float4 *pos, int *cell, int *count, int n,
                               Box b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = cell_of(pos[i], b);
    cell[i] = c;
    atomicAdd(&count[c], 1);
  }
}

// Exclusive scan of the cell counts by one block: each thread scans a chunk
// serially, the chunk totals are scanned in shared memory (Hillis-Steele).
__global__ void md_scan_cells(const int *count, int *start, int *cursor,
                              int ncells) {
  __shared__ int part[kScanThreads];
  const int per = (ncells + kScanThreads - 1) / kScanThreads;
  const int lo = threadIdx.x * per, hi = min(lo + per, ncells);
  int sum = 0;
  for (int c = lo; c < hi; ++c)
    sum += count[c];
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int off = 1; off < kScanThreads; off <<= 1) {
    int v = (int)threadIdx.x >= off ? part[threadIdx.x - off] : 0;
    __syncthreads();
    part[threadIdx.x] += v;
    __syncthreads();
  }
  int run = part[threadIdx.x] - sum;
  for (int c = lo; c < hi; ++c) {
    start[c] = run;
    cursor[c] = run;
    run += count[c];
  }
  if (threadIdx.x == kScanThreads - 1)
    start[ncells] = part[kScanThreads - 1];
}

__global__ void md_fill_cells(const int *cell, int *cursor, int *atoms, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atoms[atomicAdd(&cursor[cell[i]], 1)] = i;
}

// List of atom i: every j != i of the 27 surrounding cells within the list
// cutoff; stored column-major (list[k * n + i]) for coalesced reads. The
// count is stored even past kMaxNb so that the host can report overflow.
__global__ void md_build_list(const float4 *pos, const int *cell,
                              const int *start, const int *atoms, int *list,
                              int *count, int n, Box b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float4 p = pos[i];
  const int c = cell[i], nc = b.ncell;
  const int cx = c % nc, cy = c / nc % nc, cz = c / (nc * nc);
  int k = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int o = (((cz + dz + nc) % nc) * nc + (cy + dy + nc) % nc) * nc +
                (cx + dx + nc) % nc;
        for (int s = start[o]; s < start[o + 1]; ++s) {
          int j = atoms[s];
          float d[3];
          if (j != i && dist2(p, pos[j], b, d) < kListCut2) {
            if (k < kMaxNb)
              list[k * n + i] = j;
            ++k;
          }
        }
      }
  count[i] = k;
}

// Lennard-Jones force on i and half of each pair energy: (fx, fy, fz, e).
__global__ void md_lj_force(const float4 *pos, const int *list,
                            const int *count, float4 *force, int n, Box b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float4 p = pos[i];
  const int m = min(count[i], kMaxNb);
  float fx = 0.f, fy = 0.f, fz = 0.f, e = 0.f;
  for (int k = 0; k < m; ++k) {
    float d[3];
    float r2 = dist2(p, pos[list[k * n + i]], b, d);
    if (r2 < kCut2) {
      float inv2 = 1.0f / r2;
      float inv6 = inv2 * inv2 * inv2;
      float f = 24.0f * inv2 * inv6 * (2.0f * inv6 - 1.0f);
      fx -= f * d[0];
      fy -= f * d[1];
      fz -= f * d[2];
      e += 2.0f * inv6 * (inv6 - 1.0f);
    }
  }
  force[i] = make_float4(fx, fy, fz, e);
}

/// Double-precision reference of atom i over its candidate partners: the
/// neighbour list (list cutoff), the force and energy (cutoff) and the
/// magnitudes their rounding bound scales with.
struct AtomRef {
  double f[4] = {0, 0, 0, 0};   // force x/y/z, half pair energy
  double mag[4] = {0, 0, 0, 0}; // sums of term magnitudes
  int terms = 0;
};

static void reference_atom(int i, const std::vector<int> &cand,
                           const std::vector<float4> &pos, const Box &b,
                           std::vector<int> &ref, AtomRef &r) {
  ref.clear();
  for (int j : cand) {
    float d[3];
    float r2 = dist2(pos[i], pos[j], b, d); // exact (see the header)
    if (j == i || !(r2 < kListCut2))
      continue;
    ref.push_back(j);
    if (r2 >= kCut2)
      continue;
    double inv2 = 1.0 / r2, inv6 = inv2 * inv2 * inv2;
    double s = 24.0 * inv2 * inv6 * (2.0 * inv6 - 1.0);
    double term[4] = {-s * d[0], -s * d[1], -s * d[2],
                      2.0 * inv6 * (inv6 - 1.0)};
    // Magnitudes before the cancellation in (2 inv6 - 1) and (inv6 - 1):
    // pairs near the force's zero (r = 2^(1/6), close to the lattice
    // spacing) carry the rounding of inv6 at full size.
    double sabs = 24.0 * inv2 * inv6 * (2.0 * inv6 + 1.0);
    double mag[4] = {sabs * std::fabs(d[0]), sabs * std::fabs(d[1]),
                     sabs * std::fabs(d[2]), 2.0 * inv6 * (inv6 + 1.0)};
    for (int k = 0; k < 4; ++k) {
      r.f[k] += term[k];
      r.mag[k] += mag[k];
    }
    ++r.terms;
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "md_neighbor");
  const int m = (int)args.pick(8, 64); // lattice sites per side: m^3 atoms
  const int reps = args.pickReps(400);
  if (m < 6 || m > 64) {
    printf("FAIL md_neighbor: size %d out of range (N^3 atoms, 6 <= N <= 64)\n",
           m);
    return 1;
  }
  const int n = m * m * m;
  Box b;
  b.lenq = m * kSpacingQ;
  b.len = b.lenq * kQ;
  b.half = 0.5f * b.len;
  b.ncell = b.lenq / kCellQ;
  const int ncells = b.ncell * b.ncell * b.ncell;

  bench::Lcg rng(31);
  std::vector<float4> pos(n);
  for (int i = 0; i < n; ++i) {
    const int site[3] = {i % m, i / m % m, i / (m * m)};
    float c[3];
    for (int d = 0; d < 3; ++d) {
      int q = site[d] * kSpacingQ + (int)rng.below(2 * kJitterQ + 1) - kJitterQ;
      c[d] = ((q + b.lenq) % b.lenq) * kQ;
    }
    pos[i] = make_float4(c[0], c[1], c[2], 0.f);
  }

  float4 *dpos, *dforce;
  int *dcell, *dcount, *dstart, *dcursor, *datoms, *dlist, *dnb;
  CHECK(cudaMalloc(&dpos, n * sizeof(float4)));
  CHECK(cudaMalloc(&dforce, n * sizeof(float4)));
  CHECK(cudaMalloc(&dcell, n * sizeof(int)));
  CHECK(cudaMalloc(&dcount, ncells * sizeof(int)));
  CHECK(cudaMalloc(&dstart, (ncells + 1) * sizeof(int)));
  CHECK(cudaMalloc(&dcursor, ncells * sizeof(int)));
  CHECK(cudaMalloc(&datoms, n * sizeof(int)));
  CHECK(cudaMalloc(&dlist, (size_t)kMaxNb * n * sizeof(int)));
  CHECK(cudaMalloc(&dnb, n * sizeof(int)));
  CHECK(
      cudaMemcpy(dpos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));

  const int blocks = (n + kThreads - 1) / kThreads;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemset(dcount, 0, ncells * sizeof(int)));
    md_count_cells<<<blocks, kThreads>>>(dpos, dcell, dcount, n, b);
    CHECK_LAUNCH();
    md_scan_cells<<<1, kScanThreads>>>(dcount, dstart, dcursor, ncells);
    CHECK_LAUNCH();
    md_fill_cells<<<blocks, kThreads>>>(dcell, dcursor, datoms, n);
    CHECK_LAUNCH();
    md_build_list<<<blocks, kThreads>>>(dpos, dcell, dstart, datoms, dlist, dnb,
                                        n, b);
    CHECK_LAUNCH();
    md_lj_force<<<blocks, kThreads>>>(dpos, dlist, dnb, dforce, n, b);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<int> list((size_t)kMaxNb * n), nb(n);
  std::vector<float4> force(n);
  CHECK(cudaMemcpy(list.data(), dlist, list.size() * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(nb.data(), dnb, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(force.data(), dforce, n * sizeof(float4),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dpos));
  CHECK(cudaFree(dforce));
  for (int *p : {dcell, dcount, dstart, dcursor, datoms, dlist, dnb})
    CHECK(cudaFree(p));

  // Reference candidates: all atoms up to 4096 (independent of the
  // binning), else the 27 surrounding cells of a host-side binning.
  const bool all_pairs = n <= 4096;
  std::vector<std::vector<int>> cells(ncells);
  for (int i = 0; i < n; ++i)
    cells[cell_of(pos[i], b)].push_back(i);
  std::vector<int> cand, ref, mine;
  bench::print_time(ms);
  bench::Checker c;
  for (int i = 0; i < n; ++i) {
    cand.clear();
    if (all_pairs) {
      for (int j = 0; j < n; ++j)
        cand.push_back(j);
    } else {
      const int ci = cell_of(pos[i], b), nc = b.ncell;
      const int cx = ci % nc, cy = ci / nc % nc, cz = ci / (nc * nc);
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const auto &v =
                cells[(((cz + dz + nc) % nc) * nc + (cy + dy + nc) % nc) * nc +
                      (cx + dx + nc) % nc];
            cand.insert(cand.end(), v.begin(), v.end());
          }
      std::sort(cand.begin(), cand.end());
    }
    AtomRef r;
    reference_atom(i, cand, pos, b, ref, r);
    if (!c.eq(nb[i], (long long)ref.size(), "neighbours", i))
      continue;
    if (nb[i] > kMaxNb) {
      c.fail("atom %d has %d neighbours, more than kMaxNb = %d", i, nb[i],
             kMaxNb);
      continue;
    }
    mine.clear();
    for (int k = 0; k < nb[i]; ++k)
      mine.push_back(list[(size_t)k * n + i]);
    std::sort(mine.begin(), mine.end());
    for (size_t k = 0; k < ref.size(); ++k)
      if (!c.eq(mine[k], ref[k], "list", (long)i * kMaxNb + (long)k))
        break;
    // Each float term carries <= 8 roundings (1/r2, the powers, the
    // products; fma contraction only removes some) relative to its
    // magnitude before cancellation, and the device sums `terms` of them in
    // list order: the first-order bound is (terms + 8) u sum|mag|,
    // u = 2^-24. A missing or extra pair moves the sum by a whole term.
    const double tol_scale = (r.terms + 8) * 0x1p-24;
    c.near(force[i].x, r.f[0], 0.0, tol_scale * r.mag[0], "force.x", i);
    c.near(force[i].y, r.f[1], 0.0, tol_scale * r.mag[1], "force.y", i);
    c.near(force[i].z, r.f[2], 0.0, tol_scale * r.mag[2], "force.z", i);
    c.near(force[i].w, r.f[3], 0.0, tol_scale * r.mag[3], "energy", i);
  }
  return bench::finish(c);
}

// bfs: level-synchronous breadth-first search on a directed CSR graph with a
// skewed degree distribution. One thread per frontier vertex walks its
// adjacency list (irregular, data-dependent trip counts); newly reached
// vertices are claimed with atomicCAS and appended to the next frontier with
// atomicAdd. The host reads the frontier size back after every level.
#include "bench_common.h"
#include <vector>

constexpr int kUnvisited = -1;

__global__ void bfs_init(int *dist, int n, int src, int *frontier) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n)
    dist[v] = v == src ? 0 : kUnvisited;
  if (v == 0)
    frontier[0] = src;
}

__global__ void bfs_expand(const int *row_ptr, const int *cols, int *dist,
                           const int *frontier, int frontier_size,
                           int *next_frontier, int *next_size, int level) {
  int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= frontier_size)
    return;
  int u = frontier[f];
  for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
    int v = cols[e];
    if (dist[v] != kUnvisited) // cheap filter before the atomic
      continue;
    if (atomicCAS(&dist[v], kUnvisited, level + 1) == kUnvisited) {
      int slot = atomicAdd(next_size, 1);
      next_frontier[slot] = v;
    }
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "bfs");
  const int n = (int)args.pick(3000, 1L << 22);
  int reps = args.pickReps(80);

  // Skewed out-degrees: mostly 0..7, a quarter of the vertices 0..63.
  bench::Lcg rng(6);
  std::vector<int> row_ptr(n + 1, 0), cols;
  for (int u = 0; u < n; ++u) {
    int deg = rng.below(4) == 0 ? (int)rng.below(64) : (int)rng.below(8);
    if (u == 0)
      deg = 16; // the source always has neighbours
    for (int k = 0; k < deg; ++k)
      cols.push_back((int)rng.below((uint32_t)n));
    row_ptr[u + 1] = (int)cols.size();
  }
  const int m = (int)cols.size();
  const int src = 0;

  // CPU reference BFS.
  std::vector<int> ref(n, kUnvisited), queue;
  queue.reserve(n);
  ref[src] = 0;
  queue.push_back(src);
  for (size_t q = 0; q < queue.size(); ++q) {
    int u = queue[q];
    for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e)
      if (ref[cols[e]] == kUnvisited) {
        ref[cols[e]] = ref[u] + 1;
        queue.push_back(cols[e]);
      }
  }

  int *drow, *dcols, *ddist, *dfa, *dfb, *dsize;
  CHECK(cudaMalloc(&drow, (n + 1) * sizeof(int)));
  CHECK(cudaMalloc(&dcols, std::max(m, 1) * sizeof(int)));
  CHECK(cudaMalloc(&ddist, n * sizeof(int)));
  CHECK(cudaMalloc(&dfa, n * sizeof(int)));
  CHECK(cudaMalloc(&dfb, n * sizeof(int)));
  CHECK(cudaMalloc(&dsize, sizeof(int)));
  CHECK(cudaMemcpy(drow, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  if (m)
    CHECK(cudaMemcpy(dcols, cols.data(), m * sizeof(int), cudaMemcpyHostToDevice));

  int levels = 0;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    bfs_init<<<(n + 255) / 256, 256>>>(ddist, n, src, dfa);
    CHECK_LAUNCH();
    int *cur = dfa, *next = dfb;
    int size = 1;
    levels = 0;
    while (size > 0) {
      CHECK(cudaMemset(dsize, 0, sizeof(int)));
      bfs_expand<<<(size + 255) / 256, 256>>>(drow, dcols, ddist, cur, size,
                                              next, dsize, levels);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(&size, dsize, sizeof(int), cudaMemcpyDeviceToHost));
      std::swap(cur, next);
      ++levels;
    }
  }
  float ms = t.stop();

  std::vector<int> got(n);
  CHECK(cudaMemcpy(got.data(), ddist, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(drow));
  CHECK(cudaFree(dcols));
  CHECK(cudaFree(ddist));
  CHECK(cudaFree(dfa));
  CHECK(cudaFree(dfb));
  CHECK(cudaFree(dsize));

  bench::print_time(ms);
  bench::Checker c;
  for (int v = 0; v < n; ++v)
    c.eq(got[v], ref[v], "dist", v);
  return bench::finish(c);
}

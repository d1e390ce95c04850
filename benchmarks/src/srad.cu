// srad: speckle-reducing anisotropic diffusion on a 2D image. Per iteration:
// a one-block kernel reduces statistics of a region of interest (q0^2),
// kernel 1 computes directional derivatives and the diffusion coefficient
// (divisions, clamping), kernel 2 applies the divergence update. Image
// prepared with expf and finished with logf on the device. 16x16 blocks.
//
// Check: q0sqr = var / mean^2 comes from var = E[v^2] - mean^2, which cancels
// about 10 bits at 1024^2 (the ROI is a fixed 64x64 corner, flatter as the
// image grows: q0sqr ~ 1e-3), so the device's float reduction is ~1e-4 off
// the double reference, and every coefficient inherits that relative error
// (dcv/cv ~ dq0/q0). The reference therefore checks q0sqr on its own, against
// the rounding bound of the float reduction, and diffuses with the device's
// value so that the image check stays tight.
#include "bench_common.h"
#include <vector>

constexpr int kBS = 16;
constexpr int kStatThreads = 256;

__global__ void srad_prepare(float *img, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    img[i] = expf(img[i] / 255.0f);
}

__global__ void srad_finish(float *img, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    img[i] = logf(img[i]) * 255.0f;
}

// q0sqr = variance / mean^2 over the roi x roi top-left region.
__global__ void srad_stats(const float *img, int cols, int roi, float *q0sqr) {
  __shared__ float s1[kStatThreads], s2[kStatThreads];
  float a = 0.0f, b = 0.0f;
  for (int k = threadIdx.x; k < roi * roi; k += blockDim.x) {
    float v = img[(k / roi) * cols + k % roi];
    a += v;
    b += v * v;
  }
  s1[threadIdx.x] = a;
  s2[threadIdx.x] = b;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s1[threadIdx.x] += s1[threadIdx.x + s];
      s2[threadIdx.x] += s2[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float n = (float)(roi * roi);
    float mean = s1[0] / n;
    float var = s2[0] / n - mean * mean;
    *q0sqr = var / (mean * mean);
  }
}

__global__ void srad_coeff(const float *img, int rows, int cols,
                           const float *q0sqr_p, float *dn, float *ds,
                           float *dw, float *de, float *coef) {
  int c = blockIdx.x * kBS + threadIdx.x, r = blockIdx.y * kBS + threadIdx.y;
  if (r >= rows || c >= cols)
    return;
  const float q0sqr = *q0sqr_p;
  long i = (long)r * cols + c;
  float jc = img[i];
  float n = img[(long)max(r - 1, 0) * cols + c] - jc;
  float s = img[(long)min(r + 1, rows - 1) * cols + c] - jc;
  float w = img[(long)r * cols + max(c - 1, 0)] - jc;
  float e = img[(long)r * cols + min(c + 1, cols - 1)] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float cv = 1.0f / (1.0f + den);
  if (cv < 0.0f)
    cv = 0.0f;
  else if (cv > 1.0f)
    cv = 1.0f;
  dn[i] = n;
  ds[i] = s;
  dw[i] = w;
  de[i] = e;
  coef[i] = cv;
}

__global__ void srad_update(float *img, int rows, int cols, const float *dn,
                            const float *ds, const float *dw, const float *de,
                            const float *coef, float lambda) {
  int c = blockIdx.x * kBS + threadIdx.x, r = blockIdx.y * kBS + threadIdx.y;
  if (r >= rows || c >= cols)
    return;
  long i = (long)r * cols + c;
  float cn = coef[i], cw = coef[i];
  float cs = coef[(long)min(r + 1, rows - 1) * cols + c];
  float ce = coef[(long)r * cols + min(c + 1, cols - 1)];
  float d = cn * dn[i] + cs * ds[i] + cw * dw[i] + ce * de[i];
  img[i] = img[i] + 0.25f * lambda * d;
}

// Diffuses with the device's q0sqr of each iteration (q0dev) and returns the
// double-precision q0sqr of its own image in q0ref.
static void cpu_srad(std::vector<float> &img, int rows, int cols, int roi,
                     int iters, float lambda, const std::vector<float> &q0dev,
                     std::vector<double> &q0ref) {
  const size_t cells = (size_t)rows * cols;
  std::vector<float> dn(cells), ds(cells), dw(cells), de(cells), coef(cells);
  for (auto &v : img)
    v = std::exp(v / 255.0f);
  for (int it = 0; it < iters; ++it) {
    double a = 0, b = 0;
    for (int r = 0; r < roi; ++r)
      for (int c = 0; c < roi; ++c) {
        double v = img[(size_t)r * cols + c];
        a += v;
        b += v * v;
      }
    double mean = a / (roi * roi), var = b / (roi * roi) - mean * mean;
    q0ref[it] = var / (mean * mean);
    const float q0sqr = q0dev[it];
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        size_t i = (size_t)r * cols + c;
        float jc = img[i];
        float n = img[(size_t)std::max(r - 1, 0) * cols + c] - jc;
        float s = img[(size_t)std::min(r + 1, rows - 1) * cols + c] - jc;
        float w = img[(size_t)r * cols + std::max(c - 1, 0)] - jc;
        float e = img[(size_t)r * cols + std::min(c + 1, cols - 1)] - jc;
        float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
        float l = (n + s + w + e) / jc;
        float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
        float den = 1.0f + 0.25f * l;
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
        float cv = 1.0f / (1.0f + den);
        cv = cv < 0.0f ? 0.0f : cv > 1.0f ? 1.0f : cv;
        dn[i] = n;
        ds[i] = s;
        dw[i] = w;
        de[i] = e;
        coef[i] = cv;
      }
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        size_t i = (size_t)r * cols + c;
        float cs = coef[(size_t)std::min(r + 1, rows - 1) * cols + c];
        float ce = coef[(size_t)r * cols + std::min(c + 1, cols - 1)];
        float d = coef[i] * dn[i] + cs * ds[i] + coef[i] * dw[i] + ce * de[i];
        img[i] = img[i] + 0.25f * lambda * d;
      }
  }
  for (auto &v : img)
    v = std::log(v) * 255.0f;
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "srad");
  const int rows = (int)args.pick(64, 1024), cols = rows;
  const int iters = args.isLarge() ? 100 : 2;
  const int reps = args.pickReps(40);
  const int roi = std::min(rows, 64);
  const float lambda = 0.5f;
  const long cells = (long)rows * cols;

  // A speckled image: smooth ramp times noise, values in ~[0, 255).
  bench::Lcg rng(9);
  std::vector<float> img(cells);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      img[(size_t)r * cols + c] =
          (40.0f + 150.0f * (float)(r + c) / (float)(rows + cols)) *
          rng.uniform(0.6f, 1.4f);

  float *dorig, *dimg, *dn, *ds, *dw, *de, *dc, *dq;
  CHECK(cudaMalloc(&dorig, cells * sizeof(float)));
  CHECK(cudaMalloc(&dimg, cells * sizeof(float)));
  CHECK(cudaMalloc(&dn, cells * sizeof(float)));
  CHECK(cudaMalloc(&ds, cells * sizeof(float)));
  CHECK(cudaMalloc(&dw, cells * sizeof(float)));
  CHECK(cudaMalloc(&de, cells * sizeof(float)));
  CHECK(cudaMalloc(&dc, cells * sizeof(float)));
  CHECK(cudaMalloc(&dq, iters * sizeof(float))); // q0sqr per iteration
  CHECK(cudaMemcpy(dorig, img.data(), cells * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(kBS, kBS), grid((cols + kBS - 1) / kBS, (rows + kBS - 1) / kBS);
  const unsigned lin_blocks = (unsigned)((cells + 255) / 256);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(dimg, dorig, cells * sizeof(float), cudaMemcpyDeviceToDevice));
    srad_prepare<<<lin_blocks, 256>>>(dimg, cells);
    CHECK_LAUNCH();
    for (int it = 0; it < iters; ++it) {
      srad_stats<<<1, kStatThreads>>>(dimg, cols, roi, dq + it);
      CHECK_LAUNCH();
      srad_coeff<<<grid, block>>>(dimg, rows, cols, dq + it, dn, ds, dw, de,
                                  dc);
      CHECK_LAUNCH();
      srad_update<<<grid, block>>>(dimg, rows, cols, dn, ds, dw, de, dc, lambda);
      CHECK_LAUNCH();
    }
    srad_finish<<<lin_blocks, 256>>>(dimg, cells);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> got(cells), q0dev(iters);
  CHECK(cudaMemcpy(got.data(), dimg, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(q0dev.data(), dq, iters * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (float *p : {dorig, dimg, dn, ds, dw, de, dc, dq})
    CHECK(cudaFree(p));

  std::vector<double> q0ref(iters);
  cpu_srad(img, rows, cols, roi, iters, lambda, q0dev, q0ref);
  bench::print_time(ms);
  bench::Checker c;
  // The device sums positive terms in chains of <= roi^2/kStatThreads + 8 = 24
  // float additions, so E[v^2] is within 24u and mean^2 within 49u (u =
  // 2^-24): |d var| <= ~75u E[v^2], |d q0sqr| <= ~128u (1 + q0sqr). That is
  // 0.6% of q0sqr at 1024^2, where the device is measured 0.01% off.
  const double q0tol = 128.0 / (1 << 24);
  for (int it = 0; it < iters; ++it)
    c.near(q0dev[it], q0ref[it], q0tol, q0tol, "q0sqr", it);
  // out = 255 ln v, so this allows >= 12 ulps of v (the darkest pixels). The
  // device's expf (ex2.approx, <= 2 ulp) perturbs v and the coefficients
  // amplify that: worst use 0.18 at 2 iterations, 0.49 at 100 (H100).
  for (long i = 0; i < cells; ++i)
    c.near(got[i], img[i], 1e-5, 1e-4, "image", i);
  return bench::finish(c);
}

// texfilter: image filtering through texture objects (16x16 blocks). Three
// kernels over a 2D float image and an RGBA8 image in CUDA arrays:
// a bilinear resample (normalized coordinates, clamp, linear filter), a 3x3
// box blur (unnormalized, border, point) and a luminance map of the RGBA
// image read as normalized floats (wrap and mirror, linear filter). Checked
// against a CPU model of the texture unit (Programming Guide, "Texture
// Fetching": 9-bit fixed-point weights). The images are smooth, so the
// model's weight rounding (an assumption) stays inside the tolerance.
#include "bench_common.h"
#include <vector>

constexpr int kBS = 16;

__global__ void resample(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * kBS + threadIdx.x, y = blockIdx.y * kBS + threadIdx.y;
  if (x < w && y < h)
    out[(long)y * w + x] = tex2D<float>(t, (x + 0.5f) / w, (y + 0.5f) / h);
}

__global__ void blur(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * kBS + threadIdx.x, y = blockIdx.y * kBS + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      s += tex2D<float>(t, x + dx + 0.5f, y + dy + 0.5f);
  out[(long)y * w + x] = s * (1.0f / 9.0f);
}

__global__ void luminance(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * kBS + threadIdx.x, y = blockIdx.y * kBS + threadIdx.y;
  if (x < w && y < h) {
    // 1.5 periods across, shifted: wrap in x, mirror in y.
    float4 c = tex2D<float4>(t, 1.5f * x / w - 0.25f, 1.5f * y / h - 0.25f);
    out[(long)y * w + x] = 0.25f * c.x + 0.5f * c.y + 0.25f * c.z;
  }
}

// ---- CPU model of the texture unit ------------------------------------------

struct Image {
  int w, h, ch;
  std::vector<float> v; // channel values as the texture reads them
  float at(long i, long j, int c) const { return v[((size_t)j * w + i) * ch + c]; }
};

static bool address(long i, int n, cudaTextureAddressMode m, long &o) {
  if (m == cudaAddressModeBorder) {
    o = i;
    return i >= 0 && i < n;
  }
  if (m == cudaAddressModeClamp) {
    o = std::min<long>(std::max<long>(i, 0), n - 1);
    return true;
  }
  long p = ((i % (2L * n)) + 2L * n) % (2L * n);
  if (m == cudaAddressModeWrap)
    o = p % n;
  else
    o = p < n ? p : 2L * n - 1 - p;
  return true;
}

static float texelSpace(float x, int n, cudaTextureAddressMode m, bool norm) {
  if (!norm)
    return x;
  float f = floorf(x);
  if (m == cudaAddressModeWrap)
    x -= f;
  else if (m == cudaAddressModeMirror)
    x = (long)f % 2 == 0 ? x - f : 1.0f - (x - f);
  return x * n;
}

static float sample(const Image &im, int c, float x, float y,
                    cudaTextureAddressMode mx, cudaTextureAddressMode my,
                    bool linear, bool norm) {
  float xs = texelSpace(x, im.w, mx, norm), ys = texelSpace(y, im.h, my, norm);
  auto texel = [&](long i, long j) {
    long a, b;
    if (!address(i, im.w, mx, a) || !address(j, im.h, my, b))
      return 0.0f;
    return im.at(a, b, c);
  };
  if (!linear)
    return texel((long)floorf(xs), (long)floorf(ys));
  float xb = xs - 0.5f, yb = ys - 0.5f;
  long i = (long)floorf(xb), j = (long)floorf(yb);
  float a = roundf((xb - floorf(xb)) * 256.0f) / 256.0f;
  float b = roundf((yb - floorf(yb)) * 256.0f) / 256.0f;
  return (1 - a) * (1 - b) * texel(i, j) + a * (1 - b) * texel(i + 1, j) +
         (1 - a) * b * texel(i, j + 1) + a * b * texel(i + 1, j + 1);
}

static cudaTextureObject_t makeTex(cudaArray_t arr, cudaTextureAddressMode mx,
                                   cudaTextureAddressMode my, bool linear,
                                   bool norm, bool normFloat) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = mx;
  d.addressMode[1] = my;
  d.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.readMode = normFloat ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  d.normalizedCoords = norm;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  return t;
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "texfilter");
  const int w = (int)args.pick(48, 2048), h = std::max(1, w * 3 / 4);
  const int ow = w * 5 / 4, oh = h * 5 / 4; // resampled size
  const int reps = args.pickReps(20);

  // Smooth inputs: neighbouring texels differ by about 1%.
  bench::Lcg rng(7);
  Image gray{w, h, 1, std::vector<float>((size_t)w * h)};
  std::vector<uchar4> rgba((size_t)w * h);
  Image rgbaF{w, h, 4, std::vector<float>((size_t)w * h * 4)};
  float p1 = rng.uniform(0, 6.28f), p2 = rng.uniform(0, 6.28f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      size_t i = (size_t)y * w + x;
      gray.v[i] = 0.5f + 0.25f * sinf(6.0f * x / w + p1) * cosf(5.0f * y / h + p2);
      unsigned char c[4] = {(unsigned char)(128 + 100 * sinf(4.0f * x / w + p1)),
                            (unsigned char)(128 + 100 * cosf(3.0f * y / h)),
                            (unsigned char)(128 + 60 * sinf(3.0f * (x + y) / w)),
                            255};
      rgba[i] = make_uchar4(c[0], c[1], c[2], c[3]);
      for (int k = 0; k < 4; ++k)
        rgbaF.v[i * 4 + k] = c[k] / 255.0f;
    }

  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t ga, ca;
  CHECK(cudaMallocArray(&ga, &fd, w, h));
  CHECK(cudaMallocArray(&ca, &cd, w, h));
  CHECK(cudaMemcpy2DToArray(ga, 0, 0, gray.v.data(), w * sizeof(float),
                            w * sizeof(float), h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(ca, 0, 0, rgba.data(), w * sizeof(uchar4),
                            w * sizeof(uchar4), h, cudaMemcpyHostToDevice));
  cudaTextureObject_t tRes = makeTex(ga, cudaAddressModeClamp, cudaAddressModeClamp, true, true, false);
  cudaTextureObject_t tBlur = makeTex(ga, cudaAddressModeBorder, cudaAddressModeBorder, false, false, false);
  cudaTextureObject_t tLum = makeTex(ca, cudaAddressModeWrap, cudaAddressModeMirror, true, true, true);

  float *dres, *dblur, *dlum;
  CHECK(cudaMalloc(&dres, (size_t)ow * oh * sizeof(float)));
  CHECK(cudaMalloc(&dblur, (size_t)w * h * sizeof(float)));
  CHECK(cudaMalloc(&dlum, (size_t)w * h * sizeof(float)));
  dim3 block(kBS, kBS), grid((w + kBS - 1) / kBS, (h + kBS - 1) / kBS),
      ogrid((ow + kBS - 1) / kBS, (oh + kBS - 1) / kBS);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    resample<<<ogrid, block>>>(tRes, dres, ow, oh);
    CHECK_LAUNCH();
    blur<<<grid, block>>>(tBlur, dblur, w, h);
    CHECK_LAUNCH();
    luminance<<<grid, block>>>(tLum, dlum, w, h);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> res((size_t)ow * oh), bl((size_t)w * h), lum((size_t)w * h);
  CHECK(cudaMemcpy(res.data(), dres, res.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bl.data(), dblur, bl.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lum.data(), dlum, lum.size() * 4, cudaMemcpyDeviceToHost));
  for (auto tx : {tRes, tBlur, tLum})
    CHECK(cudaDestroyTextureObject(tx));
  CHECK(cudaFreeArray(ga));
  CHECK(cudaFreeArray(ca));
  CHECK(cudaFree(dres));
  CHECK(cudaFree(dblur));
  CHECK(cudaFree(dlum));

  bench::print_time(ms);
  bench::Checker c;
  const int stride = (long)w * h > (1L << 20) ? 7 : 1; // sample rows if large
  for (int y = 0; y < oh; y += stride)
    for (int x = 0; x < ow; ++x) {
      float ref = sample(gray, 0, (x + 0.5f) / ow, (y + 0.5f) / oh,
                         cudaAddressModeClamp, cudaAddressModeClamp, true, true);
      c.near(res[(size_t)y * ow + x], ref, 1e-5, 2e-4, "resample", (long)y * ow + x);
    }
  for (int y = 0; y < h; y += stride)
    for (int x = 0; x < w; ++x) {
      float s = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          s += sample(gray, 0, x + dx + 0.5f, y + dy + 0.5f, cudaAddressModeBorder,
                      cudaAddressModeBorder, false, false);
      c.near(bl[(size_t)y * w + x], s / 9.0f, 1e-5, 1e-5, "blur", (long)y * w + x);
      float u = 1.5f * x / w - 0.25f, v = 1.5f * y / h - 0.25f;
      float l = 0.0f;
      const float wt[3] = {0.25f, 0.5f, 0.25f};
      for (int k = 0; k < 3; ++k)
        l += wt[k] * sample(rgbaF, k, u, v, cudaAddressModeWrap,
                            cudaAddressModeMirror, true, true);
      c.near(lum[(size_t)y * w + x], l, 1e-5, 2e-3, "luminance", (long)y * w + x);
    }
  return bench::finish(c);
}

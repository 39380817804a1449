// The neural bot's first layer as sums of rows (cpp/dense.hpp).
#include "dense.hpp"

#include <cstring>

#include "bits.hpp"

namespace xueliu {
namespace {

// out[0..width) += row[0..width): one float32 add per element, in this order (no reassociation
// without -ffast-math, so each element's sum order is the order of the calls).
inline void add_row(float* __restrict out, const float* __restrict row, int64_t width) {
  for (int64_t j = 0; j < width; ++j) out[j] += row[j];
}

// ones[p] = plane p's ones of input xi as a 27-bit mask; false if an input is neither 0 nor 1 (NaN
// included). Without branches: the ones are scattered, and a branch per input mispredicted so
// often that it cost a third of the call (measured: 8.7 -> 5.3 us an input, AVX2 clone).
inline bool plane_ones(const float* __restrict xi, int planes, uint32_t* __restrict ones) {
  uint32_t other = 0;
  for (int p = 0; p < planes; ++p) {
    uint32_t m = 0;
    for (int k = 0; k < kDensePlane; ++k) {
      const float v = xi[p * kDensePlane + k];
      m |= static_cast<uint32_t>(v == 1.0f) << k;
      other |= static_cast<uint32_t>(v != 0.0f) & static_cast<uint32_t>(v != 1.0f);
    }
    ones[p] = m;
  }
  return other == 0;
}

}  // namespace

XUELIU_HOT_DISPATCH bool first_layer_01(const float* x, int64_t n, int planes,
                                        const float* rows, int64_t width, float* out) {
  const int64_t inputs = static_cast<int64_t>(kDensePlane) * planes;
  // Per input: each plane's ones as a 27-bit mask, and which planes are a prefix (ones exactly at
  // the plane's first c inputs, c >= 1), so the second pass walks only the other planes' ones.
  uint32_t ones[kDenseMaxPlanes];
  for (int64_t i = 0; i < n; ++i) {
    const float* xi = x + i * inputs;
    float* oi = out + i * width;
    if (!plane_ones(xi, planes, ones)) return false;
    std::memset(oi, 0, static_cast<size_t>(width) * sizeof(float));
    for (int p = 0; p < planes; ++p) {
      const uint32_t m = ones[p];
      if (m != 0 && (m & (m + 1)) == 0) {  // m = 2^c - 1: the first c inputs
        const int c = lowest_bit(~m);
        add_row(oi, rows + (inputs + p * kDensePlane + c - 1) * width, width);
      }
    }
    for (int p = 0; p < planes; ++p) {
      uint32_t m = ones[p];
      if ((m & (m + 1)) == 0) continue;  // empty or a prefix: done above
      while (m) {
        const int k = lowest_bit(m);
        m &= m - 1;
        add_row(oi, rows + (p * kDensePlane + k) * width, width);
      }
    }
  }
  return true;
}

XUELIU_HOT_DISPATCH bool renamed_first_layers_01(const float* x, int64_t n, int planes,
                                                 const uint8_t* tile, const float* rows,
                                                 int64_t width, const uint8_t* views,
                                                 int num_views, float* out, float* scratch) {
  const int64_t inputs = static_cast<int64_t>(kDensePlane) * planes;
  bool reversed = false;  // the reversed partial sums are taken only if a view asks for them
  for (int v = 0; v < num_views; ++v) reversed |= views[4 * v + 3] != 0;
  float* still = scratch;  // the unmoved planes' sum
  // part(s, t, r): the ones of suit s read in destination suit t, ranks reversed if r
  auto part = [&](int s, int t, int r) { return scratch + (1 + (s * 3 + t) * 2 + r) * width; };
  uint32_t ones[kDenseMaxPlanes];
  for (int64_t i = 0; i < n; ++i) {
    const float* xi = x + i * inputs;
    if (!plane_ones(xi, planes, ones)) return false;
    std::memset(scratch, 0, static_cast<size_t>(19 * width) * sizeof(float));
    for (int p = 0; p < planes; ++p) {  // unmoved planes: as first_layer_01, prefixes first
      const uint32_t m = ones[p];
      if (!tile[p] && m != 0 && (m & (m + 1)) == 0) {
        const int c = lowest_bit(~m);
        add_row(still, rows + (inputs + p * kDensePlane + c - 1) * width, width);
      }
    }
    for (int p = 0; p < planes; ++p) {
      uint32_t m = ones[p];
      if (tile[p]) {
        const float* plane = rows + p * kDensePlane * width;
        while (m) {
          const int k = lowest_bit(m);
          m &= m - 1;
          const int s = k / 9, q = k % 9;
          for (int t = 0; t < 3; ++t) {
            add_row(part(s, t, 0), plane + (9 * t + q) * width, width);
            if (reversed) add_row(part(s, t, 1), plane + (9 * t + 8 - q) * width, width);
          }
        }
      } else if ((m & (m + 1)) != 0) {
        while (m) {
          const int k = lowest_bit(m);
          m &= m - 1;
          add_row(still, rows + (p * kDensePlane + k) * width, width);
        }
      }
    }
    for (int v = 0; v < num_views; ++v) {
      const uint8_t* view = views + 4 * v;
      const int r = view[3] != 0;
      float* ov = out + (i * num_views + v) * width;
      std::memcpy(ov, still, static_cast<size_t>(width) * sizeof(float));
      for (int s = 0; s < 3; ++s) add_row(ov, part(s, view[s], r), width);
    }
  }
  return true;
}

}  // namespace xueliu

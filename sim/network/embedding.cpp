#include "sim/network/embedding.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace skillnode::sim::network {
namespace {

constexpr int kSweepsMax = 100;

}  // namespace

void SymmetricEigen(std::vector<std::vector<double>> a, std::vector<double>& values,
                    std::vector<std::vector<double>>& vectors) {
  const size_t n = a.size();
  std::vector<std::vector<double>> v(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) v[i][i] = 1.0;
  for (int sweep = 0; sweep < kSweepsMax; ++sweep) {
    double off = 0;
    for (size_t p = 0; p < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) off += a[p][q] * a[p][q];
    }
    if (off < 1e-22) break;
    for (size_t p = 0; p < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) {
        if (std::abs(a[p][q]) < 1e-300) continue;
        // The rotation that zeroes a[p][q].
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1);
        const double s = t * c;
        for (size_t k = 0; k < n; ++k) {
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (size_t k = 0; k < n; ++k) {
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (size_t k = 0; k < n; ++k) {
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return a[x][x] > a[y][y]; });
  values.assign(n, 0.0);
  vectors.assign(n, std::vector<double>(n, 0.0));
  for (size_t j = 0; j < n; ++j) {
    values[j] = a[order[j]][order[j]];
    for (size_t i = 0; i < n; ++i) vectors[i][j] = v[i][order[j]];
  }
}

std::vector<std::vector<double>> EmbedRegions(const std::vector<std::vector<double>>& rtt_ms) {
  const size_t n = rtt_ms.size();
  if (n <= 1) return std::vector<std::vector<double>>(n);
  // B = -1/2 J D^2 J, with J the centring matrix.
  std::vector<std::vector<double>> b(n, std::vector<double>(n, 0.0));
  std::vector<double> row_mean(n, 0.0);
  double all_mean = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      const double d = i == j ? 0.0 : rtt_ms[i][j];
      b[i][j] = d * d;
      row_mean[i] += d * d / static_cast<double>(n);
    }
    all_mean += row_mean[i] / static_cast<double>(n);
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j)
      b[i][j] = -0.5 * (b[i][j] - row_mean[i] - row_mean[j] + all_mean);
  }
  std::vector<double> values;
  std::vector<std::vector<double>> vectors;
  SymmetricEigen(b, values, vectors);
  size_t dims = 0;
  while (dims < std::min(n, kEmbeddingDimensionsMax) && values[dims] > 1e-9 * values[0]) ++dims;
  std::vector<std::vector<double>> points(n, std::vector<double>(dims, 0.0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t d = 0; d < dims; ++d) points[i][d] = vectors[i][d] * std::sqrt(values[d]);
  }
  return points;
}

}  // namespace skillnode::sim::network

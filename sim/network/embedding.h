// EmbedRegions: places the regions of an RTT matrix as points in a Euclidean space whose
// distances approximate the matrix's off-diagonal RTTs (classical multidimensional scaling,
// as network-coordinate systems such as GNP and Vivaldi place hosts). The `coordinates`
// latency model scatters every host around its region's point (latency.h).
#ifndef SKILLNODE_SIM_NETWORK_EMBEDDING_H_
#define SKILLNODE_SIM_NETWORK_EMBEDDING_H_

#include <cstddef>
#include <vector>

namespace skillnode::sim::network {

// At most this many dimensions are kept (the largest eigenvalues).
constexpr size_t kEmbeddingDimensionsMax = 8;

// One point per row of `rtt_ms` (square, symmetric; the diagonal is ignored), each with the
// same number of coordinates: one per positive eigenvalue of the doubly centred squared
// distances, up to kEmbeddingDimensionsMax. A single region is one point at the origin.
std::vector<std::vector<double>> EmbedRegions(const std::vector<std::vector<double>>& rtt_ms);

// Eigenvalues (descending) and unit eigenvectors (columns of `vectors`) of a symmetric matrix,
// by cyclic Jacobi rotations.
void SymmetricEigen(std::vector<std::vector<double>> a, std::vector<double>& values,
                    std::vector<std::vector<double>>& vectors);

}  // namespace skillnode::sim::network

#endif  // SKILLNODE_SIM_NETWORK_EMBEDDING_H_

// NatRouters (nat.h): which hosts sit behind NATs, and their routers' pinholes.
#include "sim/network/nat.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "transport/rng.h"

namespace skillnode::sim::network {

NatRouters::NatRouters(const scenario::NatSpec& spec, uint64_t seed)
    : spec_(spec), seed_(seed), pinhole_(static_cast<int64_t>(std::llround(spec.pinhole_s * 1e6))) {
  assert(spec_.pinholes_max > 0 && pinhole_ > transport::Duration::zero());
}

void NatRouters::Place(uint32_t hosts) {
  assert(behind_.empty() && routers_.empty());  // once
  if (spec_.share <= 0) return;
  behind_.assign(hosts, 0);
  for (uint32_t slot = 0; slot < hosts; ++slot) {
    uint64_t state = seed_ ^ (uint64_t{slot} * 0x9e3779b97f4a7c15ULL);
    const double draw = static_cast<double>(transport::SplitMix64(&state) >> 11) * 0x1.0p-53;
    if (draw >= spec_.share) continue;
    routers_.emplace_back();
    behind_[slot] = static_cast<uint32_t>(routers_.size());
  }
}

void NatRouters::OnSent(uint32_t from, uint32_t to, transport::TimePoint now) {
  assert(BehindNat(from));
  Router& router = routers_[behind_[from] - 1];
  auto it = router.pinholes.find(to);
  if (it != router.pinholes.end()) {
    it->second = std::max(it->second, now);
    return;
  }
  if (router.pinholes.size() >= spec_.pinholes_max) Prune(router, now);
  router.pinholes.emplace(to, now);
}

bool NatRouters::Admits(uint32_t to, uint32_t from, transport::TimePoint now) const {
  if (!BehindNat(to)) return true;
  const Router& router = routers_[behind_[to] - 1];
  const auto it = router.pinholes.find(from);
  return it != router.pinholes.end() && now < it->second + pinhole_;
}

void NatRouters::Prune(Router& router, transport::TimePoint now) const {
  std::erase_if(router.pinholes, [&](const auto& hole) { return now >= hole.second + pinhole_; });
  if (router.pinholes.size() < spec_.pinholes_max) return;
  // The least recently used, the lowest address among equals: the same one on every run.
  auto oldest = router.pinholes.begin();
  for (auto it = router.pinholes.begin(); it != router.pinholes.end(); ++it) {
    if (it->second < oldest->second ||
        (it->second == oldest->second && it->first < oldest->first)) {
      oldest = it;
    }
  }
  router.pinholes.erase(oldest);
}

}  // namespace skillnode::sim::network

#include "kademlia/reach/recent_destinations.h"

#include <algorithm>

namespace skillnode::kademlia::reach {

void RecentDestinations::Sent(transport::TimePoint now, const transport::Endpoint& to) {
  if (config_.recent_destinations_max == 0) {
    saturated_until_ = std::max(saturated_until_, now + config_.recent_destination_life);
    return;
  }
  const auto [handle, added] = sent_.Emplace(to);
  sent_.value(handle) = now;
  if (!added) sent_.MakeNewest(handle);
  // Forget what outlived its life, then the least recently sent past the bound.
  while (!sent_.empty()) {
    const auto oldest = sent_.oldest();
    const transport::TimePoint last = sent_.value(oldest);
    const bool expired = now - last >= config_.recent_destination_life;
    if (!expired && sent_.size() <= config_.recent_destinations_max) break;
    if (!expired)
      saturated_until_ = std::max(saturated_until_, last + config_.recent_destination_life);
    sent_.Erase(oldest);
  }
}

bool RecentDestinations::MaybeContacted(transport::TimePoint now,
                                        const transport::Endpoint& from) const {
  if (saturated(now)) return true;
  const transport::TimePoint* last = sent_.Get(from);
  return last != nullptr && now - *last < config_.recent_destination_life;
}

}  // namespace skillnode::kademlia::reach

// OnlineTime: host-seconds online inside a window, the denominator of per-node rates (bytes
// per node per second). Told of every start and stop in time order; not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_
#define SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_

#include <algorithm>
#include <cstdint>

#include "transport/clock.h"

namespace skillnode::sim::hosts {

class OnlineTime {
 public:
  void SetWindow(transport::TimePoint begin, transport::TimePoint end) {
    begin_ = begin;
    end_ = end;
  }
  // `delta` hosts started (positive) or stopped (negative) at `now`.
  void Change(transport::TimePoint now, int64_t delta) {
    Advance(now);
    online_ += delta;
  }
  // Host-seconds online in the window up to `now`.
  double Seconds(transport::TimePoint now) const {
    return (static_cast<double>(host_us_) + static_cast<double>(online_) * Overlap(last_, now)) /
           1e6;
  }
  int64_t online() const { return online_; }

 private:
  // Microseconds of [from, to) inside the window.
  double Overlap(transport::TimePoint from, transport::TimePoint to) const {
    const transport::TimePoint a = std::max(from, begin_);
    const transport::TimePoint b = std::min(to, end_);
    return b > a ? static_cast<double>((b - a).count()) : 0.0;
  }
  void Advance(transport::TimePoint now) {
    host_us_ += static_cast<int64_t>(static_cast<double>(online_) * Overlap(last_, now));
    last_ = std::max(last_, now);
  }

  transport::TimePoint begin_ = transport::kTimeZero;
  transport::TimePoint end_ = transport::kTimeNever;
  transport::TimePoint last_ = transport::kTimeZero;
  int64_t online_ = 0;
  int64_t host_us_ = 0;
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_

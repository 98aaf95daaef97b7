// OnlineTime: host-seconds online inside a window, the denominator of per-node rates (bytes
// per node per second). Told of every start and stop in time order; not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_
#define SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_

#include <algorithm>
#include <cstdint>

#include "transport/clock.h"

namespace skillnode::sim {

class OnlineTime {
 public:
  void SetWindow(TimePoint begin, TimePoint end) {
    begin_ = begin;
    end_ = end;
  }
  // `delta` hosts started (positive) or stopped (negative) at `now`.
  void Change(TimePoint now, int64_t delta) {
    Advance(now);
    online_ += delta;
  }
  // Host-seconds online in the window up to `now`.
  double Seconds(TimePoint now) const {
    return (static_cast<double>(host_us_) + static_cast<double>(online_) * Overlap(last_, now)) /
           1e6;
  }
  int64_t online() const { return online_; }

 private:
  // Microseconds of [from, to) inside the window.
  double Overlap(TimePoint from, TimePoint to) const {
    const TimePoint a = std::max(from, begin_);
    const TimePoint b = std::min(to, end_);
    return b > a ? static_cast<double>((b - a).count()) : 0.0;
  }
  void Advance(TimePoint now) {
    host_us_ += static_cast<int64_t>(static_cast<double>(online_) * Overlap(last_, now));
    last_ = std::max(last_, now);
  }

  TimePoint begin_ = kTimeZero;
  TimePoint end_ = kTimeNever;
  TimePoint last_ = kTimeZero;
  int64_t online_ = 0;
  int64_t host_us_ = 0;
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_HOSTS_ONLINE_TIME_H_

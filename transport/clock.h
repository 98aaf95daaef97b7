// Time in skillnode: a tag clock whose time points cannot be mixed with std::chrono's clocks.
//
// Code in kademlia/ and discovery/ never reads a clock; it is handed `now` by its caller (the
// libuv Env or the simulator's virtual clock). Using a distinct clock type makes it a compile
// error to compare a TimePoint with a steady_clock::time_point by accident.
#ifndef SKILLNODE_TRANSPORT_CLOCK_H_
#define SKILLNODE_TRANSPORT_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace skillnode::transport {

// Has no now(): only an Env knows what time it is.
struct NodeClock {
  using duration = std::chrono::microseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<NodeClock, duration>;
  static constexpr bool is_steady = true;
};

using Duration = NodeClock::duration;
using TimePoint = NodeClock::time_point;

// The epoch of a TimePoint is whatever the Env chose (process start, simulation start).
constexpr TimePoint kTimeZero{};
// "Never": a deadline that does not fire.
constexpr TimePoint kTimeNever = TimePoint::max();

constexpr Duration Millis(int64_t ms) { return std::chrono::milliseconds(ms); }
constexpr Duration Seconds(int64_t s) { return std::chrono::seconds(s); }

// Milliseconds as a double, for reports and metrics.
constexpr double ToMillis(Duration d) { return static_cast<double>(d.count()) / 1000.0; }

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_CLOCK_H_

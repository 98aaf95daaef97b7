// Simulated time: where a run's clock starts, and conversions between scenario seconds and
// TimePoints. Shared by Simulation::State, PopulationSetup and the workloads.
#ifndef SKILLNODE_SIM_ENGINE_SIM_TIME_H_
#define SKILLNODE_SIM_ENGINE_SIM_TIME_H_

#include <cmath>
#include <cstdint>

#include "transport/clock.h"

namespace skillnode::sim::engine {

// Simulated time starts here rather than at zero, where a TimePoint means "never seen".
inline constexpr transport::TimePoint kEpoch = transport::kTimeZero + transport::Seconds(1);

// A scenario's seconds as a Duration, rounded to the microsecond.
inline transport::Duration SecondsOf(double s) {
  return transport::Duration(static_cast<int64_t>(std::llround(s * 1e6)));
}
// Simulated seconds from kEpoch to `t`.
inline double SecondsSince(transport::TimePoint t) {
  return transport::ToMillis(t - kEpoch) / 1000;
}

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_SIM_TIME_H_

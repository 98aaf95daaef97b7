// The retry schedule: exponential, capped, jittered within bounds, reproducible from a seed.
#include "bootstrap/backoff.h"

#include <catch2/catch.hpp>
#include <vector>

namespace skillnode::bootstrap {
namespace {

TEST_CASE("without jitter the delays double from the initial one up to the cap", "[unit]") {
  BackoffConfig config;
  config.initial = transport::Seconds(1);
  config.max = transport::Seconds(10);
  config.jitter = 0;
  Backoff backoff(config);
  transport::Rng rng(1);
  std::vector<transport::Duration> delays;
  for (int i = 0; i < 6; ++i) delays.push_back(backoff.Next(rng));
  CHECK(delays == std::vector<transport::Duration>{transport::Seconds(1), transport::Seconds(2),
                                                   transport::Seconds(4), transport::Seconds(8),
                                                   transport::Seconds(10), transport::Seconds(10)});
  backoff.Reset();
  CHECK(backoff.Next(rng) == transport::Seconds(1));
}

TEST_CASE("jittered delays stay within +-jitter of the schedule and never pass the cap", "[unit]") {
  BackoffConfig config;  // 1 s doubling to 5 min, +-25 %
  transport::Rng rng(42);
  for (int run = 0; run < 50; ++run) {
    Backoff backoff(config);
    double base_ms = 1000;
    for (int i = 0; i < 12; ++i) {
      const double ms = transport::ToMillis(backoff.Next(rng));
      const double capped = std::min(base_ms, 300000.0);
      CHECK(ms >= capped * 0.75 - 1e-6);
      CHECK(ms <= std::min(capped * 1.25, 300000.0) + 1e-6);
      base_ms *= 2;
    }
  }
}

TEST_CASE("jitter spreads nodes that start together, and one seed repeats a schedule", "[unit]") {
  BackoffConfig config;
  transport::Rng a(7), b(7), c(8);
  Backoff first(config), second(config), third(config);
  bool differs = false;
  for (int i = 0; i < 5; ++i) {
    const transport::Duration x = first.Next(a);
    CHECK(x == second.Next(b));
    differs = differs || x != third.Next(c);
  }
  CHECK(differs);
}

}  // namespace
}  // namespace skillnode::bootstrap

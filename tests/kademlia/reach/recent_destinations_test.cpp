// RecentDestinations: an endpoint sent to is remembered for its life, per endpoint, refreshed
// by each send; the least recently sent goes past the bound, and a table too small for the
// traffic counts every endpoint as possibly contacted until the forgotten entry's life ends.
#include "kademlia/reach/recent_destinations.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

transport::Endpoint At(const std::string& text) { return *transport::Endpoint::Parse(text); }
transport::TimePoint Time(int seconds) { return kStart + transport::Seconds(seconds); }

ReachConfig Config() {
  ReachConfig config;
  config.recent_destinations_max = 3;
  config.recent_destination_life = transport::Seconds(180);
  return config;
}

TEST_CASE("an endpoint sent to counts as contacted for its life, refreshed by each send",
          "[unit]") {
  const ReachConfig config = Config();
  RecentDestinations recent(config);
  recent.Sent(Time(0), At("198.51.100.1:4222"));
  CHECK(recent.MaybeContacted(Time(1), At("198.51.100.1:4222")));
  // Another port of the same peer is a stranger's endpoint: a port-restricted NAT drops it.
  CHECK_FALSE(recent.MaybeContacted(Time(1), At("198.51.100.1:4223")));
  CHECK_FALSE(recent.MaybeContacted(Time(180), At("198.51.100.1:4222")));
  recent.Sent(Time(100), At("198.51.100.1:4222"));
  CHECK(recent.MaybeContacted(Time(279), At("198.51.100.1:4222")));
  CHECK_FALSE(recent.MaybeContacted(Time(280), At("198.51.100.1:4222")));
  // Expired entries go at the next send.
  recent.Sent(Time(300), At("198.51.100.2:4222"));
  CHECK(recent.size() == 1);
  CHECK_FALSE(recent.saturated(Time(300)));
}

TEST_CASE(
    "past the bound the least recently sent goes, and everything may be contacted until "
    "its life would have ended",
    "[unit]") {
  const ReachConfig config = Config();
  RecentDestinations recent(config);
  recent.Sent(Time(0), At("198.51.100.1:4222"));
  recent.Sent(Time(1), At("198.51.100.2:4222"));
  recent.Sent(Time(2), At("198.51.100.3:4222"));
  recent.Sent(Time(3), At("198.51.100.1:4222"));  // refreshed: .2 is now the least recent
  CHECK_FALSE(recent.saturated(Time(3)));
  CHECK_FALSE(recent.MaybeContacted(Time(3), At("203.0.113.9:4222")));
  recent.Sent(Time(4), At("198.51.100.4:4222"));
  CHECK(recent.size() == 3);
  CHECK(recent.saturated(Time(4)));
  // .2 was forgotten young: until Time(181) nothing can be told apart.
  CHECK(recent.MaybeContacted(Time(100), At("203.0.113.9:4222")));
  CHECK(recent.MaybeContacted(Time(180), At("198.51.100.2:4222")));
  CHECK_FALSE(recent.saturated(Time(181)));
  CHECK_FALSE(recent.MaybeContacted(Time(181), At("203.0.113.9:4222")));
  CHECK(recent.MaybeContacted(Time(181), At("198.51.100.4:4222")));
}

TEST_CASE("a table of no entries counts every endpoint as possibly contacted", "[unit]") {
  ReachConfig config = Config();
  config.recent_destinations_max = 0;
  RecentDestinations recent(config);
  CHECK_FALSE(recent.MaybeContacted(Time(0), At("203.0.113.9:4222")));
  recent.Sent(Time(0), At("198.51.100.1:4222"));
  CHECK(recent.size() == 0);
  CHECK(recent.MaybeContacted(Time(1), At("203.0.113.9:4222")));
}

}  // namespace
}  // namespace skillnode::kademlia::reach

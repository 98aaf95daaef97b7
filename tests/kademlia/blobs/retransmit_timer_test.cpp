// RetransmitTimer: the retransmission timeout of one holder's chunk requests.
#include "kademlia/blobs/retransmit_timer.h"

#include <catch2/catch.hpp>

namespace skillnode::kademlia::blobs {
namespace {

TEST_CASE("a new holder's chunks wait four initial round trips before they are asked again",
          "[unit]") {
  const RetransmitTimer timer;
  CHECK(timer.srtt() == RetransmitTimer::kInitialRtt);
  CHECK(timer.rto() == transport::Millis(400));
  CHECK(timer.AttemptTimeout(1) == transport::Millis(400));
}

TEST_CASE("answers smooth the round trip, and the timeout stays within its bounds", "[unit]") {
  RetransmitTimer timer;
  for (int i = 0; i < 100; ++i) timer.OnAnswer(transport::Millis(1));
  CHECK(timer.rto() == RetransmitTimer::kRtoMin);
  for (int i = 0; i < 100; ++i) timer.OnAnswer(transport::Seconds(2));
  CHECK(timer.rto() == RetransmitTimer::kRtoMax);
  timer.Reset();
  timer.OnAnswer(transport::Millis(20));  // 7/8 of 100 ms and 1/8 of 20 ms
  CHECK(timer.srtt() == transport::Millis(90));
  CHECK(timer.rto() == transport::Millis(360));
}

TEST_CASE("each attempt at a chunk waits twice the one before, never past the RPC timeout",
          "[unit]") {
  RetransmitTimer timer;
  for (int i = 0; i < 200; ++i) timer.OnAnswer(transport::Millis(10));
  REQUIRE(timer.rto() == transport::Millis(40));
  CHECK(timer.AttemptTimeout(1) == transport::Millis(40));
  CHECK(timer.AttemptTimeout(2) == transport::Millis(80));
  CHECK(timer.AttemptTimeout(5) == transport::Millis(640));
  CHECK(timer.AttemptTimeout(6) == RetransmitTimer::kRtoMax);
  CHECK(timer.AttemptTimeout(12) == RetransmitTimer::kRtoMax);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs

// ChunkWindow (kademlia/blobs/chunk_window.h) on its own: the window's bound, ascending order
// with retries first, the retransmission timeout and its doubling, late answers, "wait"
// answers that do not count, and the smoothed round trip.
#include "kademlia/blobs/chunk_window.h"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

namespace skillnode::kademlia::blobs {
namespace {

using transport::Millis;
constexpr transport::Duration kInitialRtt = RetransmitTimer::kInitialRtt;
constexpr transport::Duration kRtoMin = RetransmitTimer::kRtoMin;
constexpr transport::Duration kRtoMax = RetransmitTimer::kRtoMax;

const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(10);

// Sends what the window lets out at `now`; returns the chunks, in order.
std::vector<size_t> SendAll(ChunkWindow& window, transport::TimePoint now) {
  std::vector<size_t> sent;
  while (const std::optional<size_t> chunk = window.NextToSend()) {
    window.MarkSent(*chunk, now);
    sent.push_back(*chunk);
  }
  return sent;
}

TEST_CASE("The chunk window sends chunks in ascending order, never more than its size at once",
          "[unit]") {
  ChunkWindow window(3);
  window.Start(5);
  CHECK(window.count() == 5);
  CHECK(window.busy());
  CHECK(SendAll(window, kStart) == std::vector<size_t>{0, 1, 2});
  CHECK(window.in_flight() == 3);
  CHECK(window.attempts(0) == 1);
  CHECK(window.attempts(3) == 0);
  CHECK(window.TakeAnswer(1, 1));
  window.Arrived(1);
  CHECK(window.has(1));
  CHECK(SendAll(window, kStart) == std::vector<size_t>{3});
  for (size_t chunk : {0, 2, 3}) {
    CHECK(window.TakeAnswer(chunk, 1));
    window.Arrived(chunk);
  }
  CHECK(SendAll(window, kStart) == std::vector<size_t>{4});
  CHECK_FALSE(window.complete());
  CHECK(window.TakeAnswer(4, 1));
  window.Arrived(4);
  CHECK(window.complete());
  CHECK_FALSE(window.busy());
}

TEST_CASE("A chunk whose request failed is asked again before the later ones", "[unit]") {
  ChunkWindow window(2);
  window.Start(4);
  SendAll(window, kStart);  // 0 and 1
  CHECK(window.TakeAnswer(0, 1));
  window.Arrived(0);
  CHECK(SendAll(window, kStart) == std::vector<size_t>{2});
  CHECK(window.TakeAnswer(1, 1));  // chunk 1 failed: no reply
  window.Retry(1);
  CHECK(SendAll(window, kStart) == std::vector<size_t>{1});
  CHECK(window.attempts(1) == 2);
}

TEST_CASE("An unanswered attempt gives up its place after the timeout, doubled per attempt",
          "[unit]") {
  ChunkWindow window(1);
  window.Start(2);
  CHECK(window.rto() == kInitialRtt * 4);  // 400 ms before any answer
  SendAll(window, kStart);
  window.ExpireAttempts(kStart + Millis(399));
  CHECK(window.in_flight() == 1);
  CHECK_FALSE(window.NextToSend());
  window.ExpireAttempts(kStart + Millis(400));
  CHECK(window.in_flight() == 0);
  CHECK(window.NextToSend() == 0u);  // chunk 0 again, before chunk 1
  window.MarkSent(0, kStart + Millis(400));
  CHECK(window.attempts(0) == 2);
  // The second attempt waits twice as long (800 ms), the third would be capped at kRtoMax (1 s).
  window.ExpireAttempts(kStart + Millis(1199));
  CHECK(window.in_flight() == 1);
  window.ExpireAttempts(kStart + Millis(1200));
  CHECK(window.in_flight() == 0);
  window.MarkSent(0, kStart + Millis(1200));
  window.ExpireAttempts(kStart + Millis(2199));
  CHECK(window.in_flight() == 1);
  window.ExpireAttempts(kStart + Millis(2200));
  CHECK(window.in_flight() == 0);
  // The first attempt's late answer frees no place (it has none), yet its bytes count.
  CHECK_FALSE(window.TakeAnswer(0, 1));
  window.Arrived(0);
  CHECK(window.has(0));
}

TEST_CASE("A late answer to a given-up attempt leaves the live attempt's place alone", "[unit]") {
  ChunkWindow window(1);
  window.Start(1);
  SendAll(window, kStart);
  window.ExpireAttempts(kStart + Millis(400));
  SendAll(window, kStart + Millis(400));  // attempt 2 holds the place
  CHECK_FALSE(window.TakeAnswer(0, 1));
  CHECK(window.in_flight() == 1);
  CHECK(window.TakeAnswer(0, 2));
  CHECK(window.in_flight() == 0);
}

// Under 10 % loss a fetch once hashed wrong from two holders in a row: a late answer to a
// given-up attempt delivered chunk 0 while attempt 2 still held its place; attempt 2 was lost,
// its expiry wanted chunk 0 again, and attempt 3's answer counted it a second time, so the
// window called itself complete with chunk 1 never received.
TEST_CASE("A chunk a late answer delivered is neither in flight nor wanted again", "[unit]") {
  ChunkWindow window(2);
  window.Start(2);
  CHECK(SendAll(window, kStart) == std::vector<size_t>{0, 1});
  window.ExpireAttempts(kStart + Millis(400));  // both given up
  CHECK(SendAll(window, kStart + Millis(400)) == std::vector<size_t>{0, 1});
  CHECK_FALSE(window.TakeAnswer(0, 1));  // attempt 1's late answer
  window.Arrived(0);
  CHECK(window.in_flight() == 1);                // attempt 2 of chunk 0 no longer holds a place
  window.ExpireAttempts(kStart + Millis(1200));  // attempts 2 were lost
  CHECK(SendAll(window, kStart + Millis(1200)) == std::vector<size_t>{1});
  CHECK(window.has(0));
  CHECK_FALSE(window.TakeAnswer(0, 2));  // a duplicate of attempt 2's answer, if one comes
  CHECK_FALSE(window.complete());
  CHECK(window.TakeAnswer(1, 3));
  window.Arrived(1);
  CHECK(window.complete());
  CHECK_FALSE(window.busy());
}

TEST_CASE("A chunk a late answer delivered while it waited to be asked again is not asked",
          "[unit]") {
  ChunkWindow window(1);
  window.Start(2);
  SendAll(window, kStart);                      // chunk 0
  window.ExpireAttempts(kStart + Millis(400));  // chunk 0 wanted again, first in line
  CHECK_FALSE(window.TakeAnswer(0, 1));
  window.Arrived(0);
  CHECK(SendAll(window, kStart + Millis(400)) == std::vector<size_t>{1});
  CHECK_FALSE(window.complete());
  CHECK(window.TakeAnswer(1, 1));
  window.Arrived(1);
  CHECK(window.complete());
  CHECK_FALSE(window.busy());
}

TEST_CASE("A 'wait' answer puts the chunk back without counting the attempt", "[unit]") {
  ChunkWindow window(2);
  window.Start(2);
  SendAll(window, kStart);
  CHECK(window.TakeAnswer(0, 1));
  CHECK(window.NoteThrottled(kStart + Millis(10)) == Millis(0));
  window.RetryUncounted(0);
  CHECK(window.attempts(0) == 0);
  CHECK(window.NextToSend() == 0u);
}

TEST_CASE("A holder's 'wait' answers are timed from the first since the last chunk arrived",
          "[unit]") {
  ChunkWindow window(2);
  window.Start(2);
  SendAll(window, kStart);
  CHECK(window.NoteThrottled(kStart + Millis(10)) == Millis(0));
  CHECK(window.NoteThrottled(kStart + Millis(400)) == Millis(390));
  CHECK(window.NoteThrottled(kStart + Millis(1400)) == Millis(1390));
  CHECK(window.TakeAnswer(1, 1));
  window.Arrived(1);  // a chunk arriving starts the clock again
  CHECK(window.NoteThrottled(kStart + Millis(1500)) == Millis(0));
  CHECK(window.NoteThrottled(kStart + Millis(1600)) == Millis(100));
  window.Start(2);  // so does a new holder
  CHECK(window.NoteThrottled(kStart + Millis(2000)) == Millis(0));
}

TEST_CASE("The timeout follows the smoothed round trip within 20 ms and 1 s", "[unit]") {
  ChunkWindow window(4);
  window.Start(1);
  window.SampleRtt(Millis(20));  // srtt = (7 * 100 + 20) / 8 = 90 ms
  CHECK(window.rto() == Millis(360));
  for (int i = 0; i < 60; ++i) window.SampleRtt(Millis(1));
  CHECK(window.rto() == kRtoMin);
  for (int i = 0; i < 60; ++i) window.SampleRtt(transport::Seconds(2));
  CHECK(window.rto() == kRtoMax);
  window.Start(1);  // a new holder: its own round trip
  CHECK(window.rto() == kInitialRtt * 4);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs

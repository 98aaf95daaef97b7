// RetransmitTimer: when a fetcher asks one holder again for a chunk it has not answered
// (BlobFetcher, kademlia/blobs/blob_fetcher.h). It keeps the holder's smoothed round-trip time
// (an exponential average, 7/8 old and 1/8 new, of answers no retransmission could have caused:
// Karn's rule is the caller's) and the retransmission timeout from it: four smoothed round
// trips, at least kRtoMin and at most kRtoMax. The n-th attempt at a chunk waits the timeout
// doubled n - 1 times (at most six times), never more than kRtoMax. Pure value type.
#ifndef SKILLNODE_KADEMLIA_BLOBS_RETRANSMIT_TIMER_H_
#define SKILLNODE_KADEMLIA_BLOBS_RETRANSMIT_TIMER_H_

#include <algorithm>
#include <cstdint>

#include "transport/clock.h"

namespace skillnode::kademlia::blobs {

class RetransmitTimer {
 public:
  // A new holder's round-trip time before any answer, and the timeout's bounds: at least 20 ms
  // (a scheduler's hiccup) and at most 1 s (the RPC timeout, after which the request has failed
  // anyway).
  static constexpr transport::Duration kInitialRtt = transport::Millis(100);
  static constexpr transport::Duration kRtoMin = transport::Millis(20);
  static constexpr transport::Duration kRtoMax = transport::Seconds(1);
  static constexpr int kDoublingsMax = 6;

  RetransmitTimer() { Reset(); }

  // Back to kInitialRtt: a new holder.
  void Reset() {
    srtt_ = kInitialRtt;
    rto_ = RtoOf(srtt_);
  }
  // An answer after `rtt` to a first attempt.
  void OnAnswer(transport::Duration rtt) {
    srtt_ = (srtt_ * 7 + rtt) / 8;
    rto_ = RtoOf(srtt_);
  }
  // How long attempt number `attempt` (1 for the first) waits before the chunk is asked again.
  transport::Duration AttemptTimeout(int attempt) const {
    const int doublings = std::clamp(attempt - 1, 0, kDoublingsMax);
    return std::min(rto_ * (1 << doublings), kRtoMax);
  }

  transport::Duration srtt() const { return srtt_; }
  transport::Duration rto() const { return rto_; }

 private:
  static transport::Duration RtoOf(transport::Duration srtt) {
    return std::clamp(srtt * 4, kRtoMin, kRtoMax);
  }

  transport::Duration srtt_{};
  transport::Duration rto_{};
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_RETRANSMIT_TIMER_H_

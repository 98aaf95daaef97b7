// ChunkWindow: which chunks of one blob a fetcher still wants from the holder it is asking,
// which requests are in flight, and when one is given up and asked again (BlobFetcher's
// transfer from one holder, kademlia/blobs/blob_fetcher.h).
//
// At most `window` attempts hold a place at once. Chunks are requested in ascending order, and
// a chunk asked again goes before the later ones, so a holder reads its file front to back. An
// attempt unanswered after the retransmission timeout gives up its place and its chunk is
// wanted again; the timeout is the holder's RetransmitTimer (retransmit_timer.h: four smoothed
// round trips, 20 ms to 1 s), doubled per attempt of the chunk, so a holder that stalls for a
// moment is not given up after a burst of quick retries. A late answer to a given-up attempt still
// delivers its bytes but frees no place of its own (as a lookup treats a slow contact); the
// chunk it delivers is no longer wanted, and a later attempt of it gives up its place.
//
// Pure bookkeeping: it sends nothing and reads no clock (the caller passes `now`). Owned by one
// BlobFetcher transfer; not thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_CHUNK_WINDOW_H_
#define SKILLNODE_KADEMLIA_BLOBS_CHUNK_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "kademlia/blobs/retransmit_timer.h"
#include "transport/clock.h"

namespace skillnode::kademlia::blobs {

class ChunkWindow {
 public:
  // `window`: the attempts in flight at most (at least 1).
  explicit ChunkWindow(size_t window);

  // Starts over for a new holder: `count` chunks, all wanted, the round-trip time forgotten.
  void Start(size_t count);

  // Attempts unanswered past their retransmission timeout at `now` give up their place; their
  // chunks are wanted again.
  void ExpireAttempts(transport::TimePoint now);
  // The chunk to request next when the window has room for it; nullopt when it is full or no
  // chunk is wanted.
  std::optional<size_t> NextToSend() const;
  // Requests sent to this holder for `chunk` so far (its last attempt's number).
  uint8_t attempts(size_t chunk) const { return sent_[chunk]; }
  // Records that NextToSend()'s chunk was requested at `now`, as attempt attempts(chunk) + 1.
  void MarkSent(size_t chunk, transport::TimePoint now);

  // An answer (or a failure) came for `attempt` of `chunk`: frees its place in the window when
  // it holds one. Returns whether it did ("live": the attempt had not been given up).
  bool TakeAnswer(size_t chunk, uint8_t attempt);
  // A live attempt failed (no reply): the chunk is wanted again.
  void Retry(size_t chunk);
  // A live attempt was answered "wait": the chunk is wanted again and the attempt is not
  // counted against the holder.
  void RetryUncounted(size_t chunk);
  // A "wait" answer came at `now`: returns how long the holder has been answering "wait" with
  // no chunk arriving (zero for the first such answer).
  transport::Duration NoteThrottled(transport::TimePoint now);
  // The round trip of an answer to a first attempt (Karn: only those are timed).
  void SampleRtt(transport::Duration rtt);
  // `chunk`'s bytes arrived: it is no longer wanted, and an attempt of it still in flight (a
  // late answer to an earlier one came first) gives up its place.
  void Arrived(size_t chunk);

  bool has(size_t chunk) const { return chunks_[chunk] == Chunk::kHave; }
  bool complete() const { return have_ == chunks_.size(); }
  // Whether anything is in flight or still wanted (a wake-up is needed).
  bool busy() const { return !flying_.empty() || !wanted_.empty(); }
  size_t in_flight() const { return flying_.size(); }
  size_t count() const { return chunks_.size(); }
  transport::Duration rto() const { return timer_.rto(); }

 private:
  enum class Chunk : uint8_t { kWanted, kInFlight, kHave };
  // Puts `chunk` back among the wanted ones, in ascending order.
  void Requeue(size_t chunk);

  size_t window_;
  std::vector<Chunk> chunks_;
  std::vector<uint8_t> sent_;  // requests sent per chunk to this holder (the attempt number)
  // The attempt that holds a place in the window per chunk (0: none), and when it was sent.
  std::vector<uint8_t> counted_;
  std::vector<transport::TimePoint> sent_at_;
  std::vector<size_t> flying_;  // chunks with a counted attempt: at most `window_`
  std::deque<size_t> wanted_;   // chunks to request, ascending, so retries go first
  // This holder's smoothed round-trip time and retransmission timeout.
  RetransmitTimer timer_;
  size_t have_ = 0;
  // The first "wait" answer since the last chunk arrived (kTimeNever: none).
  transport::TimePoint waiting_since_ = transport::kTimeNever;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_CHUNK_WINDOW_H_

// ChunkWindow: the chunks wanted, in flight and given up during one transfer (chunk_window.h).
#include "kademlia/blobs/chunk_window.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::blobs {

ChunkWindow::ChunkWindow(size_t window) : window_(window) {
  assert(window_ > 0 && "a transfer needs room for one request");
}

void ChunkWindow::Start(size_t count) {
  chunks_.assign(count, Chunk::kWanted);
  sent_.assign(count, 0);
  counted_.assign(count, 0);
  sent_at_.assign(count, transport::kTimeZero);
  flying_.clear();
  timer_.Reset();
  wanted_.clear();
  for (size_t i = 0; i < count; ++i) wanted_.push_back(i);
  have_ = 0;
  waiting_since_ = transport::kTimeNever;
}

void ChunkWindow::ExpireAttempts(transport::TimePoint now) {
  std::erase_if(flying_, [&](size_t chunk) {
    assert(chunks_[chunk] == Chunk::kInFlight && "a chunk that arrived holds no place");
    if (now - sent_at_[chunk] < timer_.AttemptTimeout(sent_[chunk])) return false;
    counted_[chunk] = 0;
    chunks_[chunk] = Chunk::kWanted;
    Requeue(chunk);
    return true;
  });
}

std::optional<size_t> ChunkWindow::NextToSend() const {
  if (flying_.size() >= window_ || wanted_.empty()) return std::nullopt;
  return wanted_.front();
}

void ChunkWindow::MarkSent(size_t chunk, transport::TimePoint now) {
  assert(!wanted_.empty() && wanted_.front() == chunk && flying_.size() < window_ &&
         "only NextToSend()'s chunk is sent");
  const auto attempt = static_cast<uint8_t>(sent_[chunk] + 1);
  wanted_.pop_front();
  chunks_[chunk] = Chunk::kInFlight;
  sent_[chunk] = attempt;
  counted_[chunk] = attempt;
  sent_at_[chunk] = now;
  flying_.push_back(chunk);
}

bool ChunkWindow::TakeAnswer(size_t chunk, uint8_t attempt) {
  if (counted_[chunk] != attempt) return false;
  counted_[chunk] = 0;
  std::erase(flying_, chunk);
  return true;
}

void ChunkWindow::Retry(size_t chunk) {
  assert(chunks_[chunk] != Chunk::kHave && counted_[chunk] == 0);
  chunks_[chunk] = Chunk::kWanted;
  Requeue(chunk);
}

void ChunkWindow::RetryUncounted(size_t chunk) {
  assert(sent_[chunk] > 0 && "a chunk answered was sent");
  --sent_[chunk];
  Retry(chunk);
}

transport::Duration ChunkWindow::NoteThrottled(transport::TimePoint now) {
  if (waiting_since_ == transport::kTimeNever) waiting_since_ = now;
  assert(now >= waiting_since_);
  return now - waiting_since_;
}

void ChunkWindow::SampleRtt(transport::Duration rtt) { timer_.OnAnswer(rtt); }

void ChunkWindow::Arrived(size_t chunk) {
  assert(chunks_[chunk] != Chunk::kHave && "a chunk arrives once");
  // A late answer to a given-up attempt may deliver the chunk while it waits to be asked again
  // or while a later attempt holds its place: neither may stay, or that attempt's expiry would
  // want the chunk again and its next arrival count it twice.
  if (chunks_[chunk] == Chunk::kWanted) {
    const auto queued = std::lower_bound(wanted_.begin(), wanted_.end(), chunk);
    assert(queued != wanted_.end() && *queued == chunk && "a wanted chunk is queued");
    wanted_.erase(queued);
  }
  if (counted_[chunk] != 0) {
    counted_[chunk] = 0;
    std::erase(flying_, chunk);
  }
  chunks_[chunk] = Chunk::kHave;
  ++have_;
  waiting_since_ = transport::kTimeNever;
}

void ChunkWindow::Requeue(size_t chunk) {
  wanted_.insert(std::upper_bound(wanted_.begin(), wanted_.end(), chunk), chunk);
}

}  // namespace skillnode::kademlia::blobs

// BlobFetcher: locate a blob's holders, move it from one of them in chunks, verify it, fall
// back to the next holder (blob_fetcher.h).
#include "kademlia/blobs/blob_fetcher.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::blobs {

namespace {

std::string ShortHexOf(std::span<const uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < std::min<size_t>(bytes.size(), 6); ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xf];
  }
  return out;
}

// How long a fetcher waits after a holder asked it to (rate limit, verification), and the
// longest it sleeps while chunks are in flight.
constexpr transport::Duration kThrottleWait = transport::Millis(100);

size_t ChunkCount(uint64_t size) {
  return static_cast<size_t>((size + wire::kBlobChunkBytesMax - 1) / wire::kBlobChunkBytesMax);
}

int64_t WholeSeconds(transport::Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

}  // namespace

BlobFetcher::BlobFetcher(Node& node, const HolderDirectory& directory, const BlobConfig& config,
                         transport::Rng& rng, BlobStats& stats)
    : BlobFetcher(node, config, stats) {
  locator_.emplace(node, directory, rng);
}

BlobFetcher::BlobFetcher(Node& node, const BlobConfig& config, BlobStats& stats)
    : node_(node),
      config_(config),
      stats_(stats),
      bad_holders_(config.bad_holders_max, config.bad_holder_memory) {
  assert(config_.window > 0);  // a transfer needs room for one request
}

BlobFetcher::~BlobFetcher() { Shutdown(); }

std::unique_ptr<BlobFetcher::Fetching> BlobFetcher::Start(transport::TimePoint now, uint64_t size,
                                                          FetchCallback& done) {
  FetchOutcome refused;
  refused.finished = now;
  if (size > config_.fetch_bytes_max) {
    ++stats_.fetches_refused;
    refused.status = FetchOutcome::Status::kTooLarge;
    refused.error = "the blob has " + std::to_string(size) + " bytes, more than this node's " +
                    std::to_string(config_.fetch_bytes_max) + "-byte fetch limit";
    done(refused);
    return nullptr;
  }
  if (fetches_.size() >= config_.fetches_max) {
    ++stats_.fetches_refused;
    refused.status = FetchOutcome::Status::kBusy;
    refused.error = std::to_string(fetches_.size()) + " fetches are running, the most this node " +
                    "runs at once; try again shortly";
    done(refused);
    return nullptr;
  }
  auto fetching = std::make_unique<Fetching>(config_.window);
  fetching->size = size;
  fetching->deadline = now + config_.fetch_timeout;
  fetching->waiters.push_back(std::move(done));
  return fetching;
}

void BlobFetcher::Fetch(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                        std::optional<NodeId> publisher, FetchCallback done) {
  assert(locator_);  // a fetcher of named holders only has no locator
  if (auto running = fetches_.find(digest); running != fetches_.end()) {
    running->second->waiters.push_back(std::move(done));
    return;
  }
  auto fetching = Start(now, size, done);
  if (!fetching) return;
  fetching->publisher = publisher;
  fetches_.emplace(digest, std::move(fetching));
  locator_->Locate(
      now, digest, publisher,
      [this, digest](transport::TimePoint at, const NodeId& id) {
        return bad_holders_.Has(at, digest, id);
      },
      [this, digest](transport::TimePoint at, std::vector<wire::WireContact> holders) {
        OnLocated(at, digest, std::move(holders));
      });
}

void BlobFetcher::FetchFrom(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                            const wire::WireContact& holder, FetchCallback done) {
  if (auto running = fetches_.find(digest); running != fetches_.end()) {
    Fetching& fetching = *running->second;
    fetching.waiters.push_back(std::move(done));
    const bool known = std::any_of(fetching.candidates.begin(), fetching.candidates.end(),
                                   [&](const wire::WireContact& c) { return c.id == holder.id; });
    if (!known) fetching.candidates.push_back(holder);
    return;
  }
  auto fetching = Start(now, size, done);
  if (!fetching) return;
  fetching->candidates.push_back(holder);
  fetches_.emplace(digest, std::move(fetching));
  NextHolder(now, digest);
}

void BlobFetcher::OnLocated(transport::TimePoint now, const wire::BlobDigest& digest,
                            std::vector<wire::WireContact> holders) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end()) return;
  Fetching& fetching = *found->second;
  assert(fetching.stage == Fetching::Stage::kLocating);
  if (holders.empty() && fetching.candidates.empty()) {
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::kNoHolder;
    outcome.error =
        "no node was found holding the bytes: none announced them and the publisher's node " +
        std::string(fetching.publisher ? "did not answer" : "is not known");
    return Finish(now, digest, std::move(outcome));
  }
  // Holders a FetchFrom named while locating ran stay, after the located ones.
  holders.insert(holders.end(), fetching.candidates.begin(), fetching.candidates.end());
  fetching.candidates = std::move(holders);
  NextHolder(now, digest);
}

void BlobFetcher::NextHolder(transport::TimePoint now, const wire::BlobDigest& digest) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end()) return;
  Fetching& fetching = *found->second;
  if (fetching.next_candidate >= fetching.candidates.size()) {
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::kFailed;
    outcome.attempts = fetching.attempts;
    outcome.error = "every holder found failed: " + DescribeAttempts(fetching.attempts);
    return Finish(now, digest, std::move(outcome));
  }
  fetching.holder = fetching.candidates[fetching.next_candidate++];
  fetching.stage = Fetching::Stage::kTransferring;
  fetching.generation = next_generation_++;
  const size_t count = ChunkCount(fetching.size);
  fetching.buffer.assign(static_cast<size_t>(fetching.size), '\0');
  fetching.chunks.Start(count);
  if (count == 0) return Complete(now, digest);
  Pump(now, digest);
}

void BlobFetcher::Pump(transport::TimePoint now, const wire::BlobDigest& digest) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end() || !found->second->transferring()) return;
  Fetching& fetching = *found->second;
  ChunkWindow& chunks = fetching.chunks;
  const wire::WireContact holder = fetching.holder;
  const uint64_t generation = fetching.generation;
  chunks.ExpireAttempts(now);
  while (const std::optional<size_t> next = chunks.NextToSend()) {
    const size_t chunk = *next;
    if (chunks.attempts(chunk) >= config_.chunk_attempts_max) {
      return DropHolder(now, digest, HolderFailure::kTimeout,
                        "chunk " + std::to_string(chunk) + " unanswered " +
                            std::to_string(chunks.attempts(chunk)) + " times");
    }
    wire::BlobGetBody get;
    get.digest = digest;
    get.offset = static_cast<uint64_t>(chunk) * wire::kBlobChunkBytesMax;
    get.length = static_cast<uint32_t>(wire::kBlobChunkBytesMax);
    const auto attempt = static_cast<uint8_t>(chunks.attempts(chunk) + 1);
    const bool sent =
        node_.Request(now, holder.endpoint, holder.id, std::move(get),
                      [this, digest, generation, chunk, attempt](const rpc::RpcResult& result) {
                        OnChunk(digest, generation, chunk, attempt, result);
                      });
    if (!sent) break;  // the request table is full: the next wake-up sends the rest
    chunks.MarkSent(chunk, now);
    if (attempt > 1) ++stats_.chunk_retries;
  }
  assert(chunks.in_flight() <= config_.window);
  // Wake up to retransmit what is still unanswered then.
  if (chunks.busy()) pump_at_ = std::min(pump_at_, now + std::min(chunks.rto(), kThrottleWait));
}

void BlobFetcher::OnChunk(const wire::BlobDigest& digest, uint64_t generation, size_t chunk,
                          uint8_t attempt, const rpc::RpcResult& result) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end() || found->second->generation != generation) return;
  Fetching& fetching = *found->second;
  ChunkWindow& chunks = fetching.chunks;
  const transport::TimePoint now = result.now;
  // Only the attempt that holds the window place frees it; a late answer to an attempt that
  // was given up still delivers its bytes.
  const bool live = chunks.TakeAnswer(chunk, attempt);
  if (chunks.has(chunk)) return Pump(now, digest);
  const wire::Message* reply = result.status == rpc::RpcStatus::kReplied ? result.reply : nullptr;
  if (reply == nullptr) {  // timed out: ask again, before anything new
    if (live) chunks.Retry(chunk);
    return Pump(now, digest);
  }
  // Karn: time only answers no retransmission could have caused.
  if (live && attempt == 1) chunks.SampleRtt(result.rtt);
  if (const auto* error = std::get_if<wire::ErrorBody>(&reply->body)) {
    if (error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kRateLimited)) {
      // The holder is busy or verifying us, not gone: ask again shortly (it does not count as
      // an attempt, but the fetch's deadline still runs).
      if (const transport::Duration waited = chunks.NoteThrottled(now);
          waited > config_.holder_wait_max) {
        return DropHolder(now, digest, HolderFailure::kTimeout,
                          "asked to wait for " + std::to_string(WholeSeconds(waited)) +
                              " s with no chunk sent (" + error->message + ")");
      }
      if (live) chunks.RetryUncounted(chunk);
      pump_at_ = std::min(pump_at_, now + kThrottleWait);
      return;
    }
    return DropHolder(now, digest, HolderFailure::kNotHeld, error->message);
  }
  const auto* data = std::get_if<wire::BlobDataBody>(&reply->body);
  const uint64_t offset = static_cast<uint64_t>(chunk) * wire::kBlobChunkBytesMax;
  if (data == nullptr || data->digest != digest || data->offset != offset) {
    return DropHolder(now, digest, HolderFailure::kTruncated, "answered another request");
  }
  if (data->size != fetching.size) {
    return DropHolder(now, digest, HolderFailure::kTruncated,
                      "says the blob has " + std::to_string(data->size) +
                          " bytes; the record says " + std::to_string(fetching.size));
  }
  const uint64_t expected = std::min<uint64_t>(wire::kBlobChunkBytesMax, fetching.size - offset);
  if (data->bytes.size() != expected) {
    return DropHolder(now, digest, HolderFailure::kTruncated,
                      "chunk at " + std::to_string(offset) + " has " +
                          std::to_string(data->bytes.size()) + " of " + std::to_string(expected) +
                          " bytes");
  }
  std::copy(data->bytes.begin(), data->bytes.end(),
            fetching.buffer.begin() + static_cast<std::ptrdiff_t>(offset));
  chunks.Arrived(chunk);
  ++stats_.chunks_fetched;
  if (chunks.complete()) return Complete(now, digest);
  Pump(now, digest);
}

void BlobFetcher::DropHolder(transport::TimePoint now, const wire::BlobDigest& digest,
                             HolderFailure failure, std::string detail) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end() || !found->second->transferring()) return;
  Fetching& fetching = *found->second;
  ++stats_.holder_failures[static_cast<size_t>(failure)];
  fetching.attempts.push_back(
      HolderAttempt{fetching.holder.id, fetching.holder.endpoint, failure, std::move(detail)});
  fetching.buffer.clear();
  fetching.buffer.shrink_to_fit();
  NextHolder(now, digest);
}

void BlobFetcher::Complete(transport::TimePoint now, const wire::BlobDigest& digest) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end() || !found->second->transferring()) return;
  Fetching& fetching = *found->second;
  assert(fetching.buffer.size() == fetching.size);  // every chunk was copied into place
  wire::BlobDigest actual{};
  wire::Sha256Into(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(fetching.buffer.data()),
                               fetching.buffer.size()),
      actual);
  if (actual != digest) {
    bad_holders_.Note(now, digest, fetching.holder.id);
    return DropHolder(now, digest, HolderFailure::kCorrupt,
                      "its " + std::to_string(fetching.size) + " bytes hash to " +
                          ShortHexOf(actual) + "..., not " + ShortHexOf(digest) + "...");
  }
  FetchOutcome outcome;
  outcome.status = FetchOutcome::Status::kOk;
  outcome.holder = fetching.holder.id;
  outcome.attempts = fetching.attempts;
  outcome.bytes = std::make_shared<const std::string>(std::move(fetching.buffer));
  Finish(now, digest, std::move(outcome));
}

void BlobFetcher::Finish(transport::TimePoint now, const wire::BlobDigest& digest,
                         FetchOutcome outcome) {
  auto found = fetches_.find(digest);
  if (found == fetches_.end()) return;
  outcome.finished = now;
  // `digest` may be the key erased below: cancel first.
  if (locator_) locator_->Cancel(digest);
  std::unique_ptr<Fetching> fetching = std::move(found->second);
  fetches_.erase(found);
  switch (outcome.status) {
    case FetchOutcome::Status::kOk:
      ++stats_.fetches_ok;
      break;
    case FetchOutcome::Status::kNoHolder:
      ++stats_.fetches_no_holder;
      break;
    case FetchOutcome::Status::kFailed:
      ++stats_.fetches_failed;
      break;
    case FetchOutcome::Status::kBusy:
    case FetchOutcome::Status::kTooLarge:
      ++stats_.fetches_refused;
      break;
  }
  for (FetchCallback& waiter : fetching->waiters) waiter(outcome);
}

void BlobFetcher::PumpAll(transport::TimePoint now) {
  std::vector<wire::BlobDigest> running;
  for (const auto& [digest, fetching] : fetches_) running.push_back(digest);
  for (const wire::BlobDigest& digest : running) Pump(now, digest);
}

void BlobFetcher::PumpIfDue(transport::TimePoint now) {
  if (pump_at_ > now) return;
  pump_at_ = transport::kTimeNever;
  PumpAll(now);
}

void BlobFetcher::OnTick(transport::TimePoint now) {
  std::vector<wire::BlobDigest> late;
  for (const auto& [digest, fetching] : fetches_) {
    if (fetching->deadline <= now) late.push_back(digest);
  }
  for (const wire::BlobDigest& digest : late) {
    auto found = fetches_.find(digest);
    if (found == fetches_.end()) continue;
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::kFailed;
    outcome.attempts = found->second->attempts;
    outcome.error = "no holder delivered the bytes within " +
                    std::to_string(WholeSeconds(config_.fetch_timeout)) + " s";
    Finish(now, digest, std::move(outcome));
  }
  // Transfers a full request table held back are sent now.
  PumpAll(now);
}

void BlobFetcher::Sweep(transport::TimePoint now) { bad_holders_.Sweep(now); }

void BlobFetcher::Shutdown() {
  while (!fetches_.empty()) {
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::kFailed;
    outcome.error = "the node is shutting down";
    Finish(transport::kTimeZero, fetches_.begin()->first, std::move(outcome));
  }
  assert(!locator_ || locator_->running() == 0);
}

}  // namespace skillnode::kademlia::blobs

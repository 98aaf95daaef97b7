// RecordPull (record_pull.h): references resolved from a copy at hand or pulled from their
// sender, then verified.
#include "kademlia/store/reader/record_pull.h"

#include <cassert>
#include <string>
#include <utility>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::store {
namespace {

// The fetcher's once-a-second work (deadlines, sends held back by a full request table).
constexpr transport::Duration kTick = transport::Seconds(1);

blobs::BlobConfig PullConfig(const DhtConfig& config) {
  blobs::BlobConfig out;
  out.fetches_max = config.record_pulls_max;
  out.fetch_bytes_max = kRecordEncodedSizeMax;
  out.fetch_timeout = config.record_pull_timeout;
  return out;
}

// Whether `record` is the encoding `reference` names.
bool Names(const wire::RecordReference& reference, const SignedRecord& record) {
  if (record.encoded.size() != reference.size) return false;
  wire::BlobDigest digest{};
  wire::Sha256Into(record.encoded, digest);
  return digest == reference.digest;
}

}  // namespace

RecordPull::RecordPull(Node& node, const DhtConfig& config, RecordVerifier& verifier,
                       const ValueStore& store, const RecordOutbox& outbox, DhtStats& stats)
    : config_(config),
      verifier_(verifier),
      store_(store),
      outbox_(outbox),
      stats_(stats),
      fetcher_(node, PullConfig(config), blob_stats_) {
  assert(config.record_pulls_max > 0);
}

RecordPull::~RecordPull() {
  // The fetcher ends its fetches as it goes; nobody is told of them any more.
  waiting_.clear();
}

std::optional<transport::Result<SignedRecordPtr>> RecordPull::Resolve(
    const wire::WireRecord& wire) {
  if (!wire.reference) return verifier_.Verify(wire);
  const wire::RecordReference& reference = *wire.reference;
  if (reference.size <= kRecordInlineSizeMax || reference.size > kRecordEncodedSizeMax) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "a reference to a record of " + std::to_string(reference.size) +
                               " bytes: one of at most " + std::to_string(kRecordInlineSizeMax) +
                               " travels inline, and none has more than " +
                               std::to_string(kRecordEncodedSizeMax));
  }
  // A copy this node verified or holds, under the very signature.
  for (const SignedRecordPtr& copy :
       {verifier_.Known(wire.signature), store_.HeldWith(wire.signature)}) {
    if (copy != nullptr && Names(reference, *copy)) {
      ++stats_.references_resolved_here;
      return copy;
    }
  }
  // The bytes this node serves under the digest: the reference's signature is checked on them.
  if (const SignedRecordPtr served = outbox_.Find(reference.digest)) {
    ++stats_.references_resolved_here;
    if (served->signature == wire.signature) return served;
    return verifier_.Verify(wire::WireRecord(served->encoded, wire.signature));
  }
  return std::nullopt;
}

bool RecordPull::Pull(transport::TimePoint now, const wire::WireRecord& wire,
                      const wire::WireContact& sender, PullCallback done) {
  assert(wire.reference && done);  // Resolve handles inline records
  const wire::BlobDigest& digest = wire.reference->digest;
  auto joined = waiting_.find(digest);
  const bool full = joined != waiting_.end() ? joined->second.size() >= kPullWaitersMax
                                             : fetcher_.running() >= config_.record_pulls_max;
  if (full) {
    ++stats_.record_pulls_refused;
    return false;
  }
  if (joined == waiting_.end()) {
    ++stats_.record_pulls_started;
    joined = waiting_.emplace(digest, std::vector<Waiter>{}).first;
  }
  joined->second.push_back(Waiter{wire.signature, std::move(done)});
  // Every FetchFrom's callback comes: the first takes the waiters, the others find none. The
  // sender of a pull already running becomes its next holder to ask.
  fetcher_.FetchFrom(
      now, digest, wire.reference->size, sender,
      [this, digest](const blobs::FetchOutcome& outcome) { OnFetched(digest, outcome); });
  // Refusals at once are ruled out above (the count) and by Resolve (the size).
  assert(waiting_.contains(digest));
  next_tick_ = std::min(next_tick_, now + kTick);
  return true;
}

void RecordPull::OnFetched(const wire::BlobDigest& digest, const blobs::FetchOutcome& outcome) {
  auto found = waiting_.find(digest);
  if (found == waiting_.end()) return;
  const std::vector<Waiter> waiters = std::move(found->second);
  waiting_.erase(found);
  if (outcome.status != blobs::FetchOutcome::Status::kOk) {
    ++stats_.record_pulls_failed;
    const transport::Result<SignedRecordPtr> failed = transport::Fail(
        transport::ErrorCode::kRefused, "the record's bytes were not pulled: " + outcome.error);
    for (const Waiter& waiter : waiters) waiter.done(outcome.finished, failed);
    return;
  }
  ++stats_.records_pulled;
  const std::vector<uint8_t> bytes(outcome.bytes->begin(), outcome.bytes->end());
  for (const Waiter& waiter : waiters) {
    // The bytes hash to the digest (the fetcher checked); the signature is the reference's own.
    auto verified = verifier_.Verify(wire::WireRecord(bytes, waiter.signature));
    if (!verified) ++stats_.records_pulled_invalid;
    waiter.done(outcome.finished, verified);
  }
}

void RecordPull::OnTimer(transport::TimePoint now) {
  fetcher_.PumpIfDue(now);
  if (now < next_tick_) return;
  fetcher_.OnTick(now);
  fetcher_.Sweep(now);
  next_tick_ = fetcher_.running() > 0 ? now + kTick : transport::kTimeNever;
}

transport::TimePoint RecordPull::NextDeadline() const {
  return std::min(next_tick_, fetcher_.pump_at());
}

}  // namespace skillnode::kademlia::store

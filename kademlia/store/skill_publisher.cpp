// SkillPublisher (skill_publisher.h): the lookups and STOREs of a publish, the republish
// schedule, and the signing again of this node's own records as their window runs out.
#include "kademlia/store/skill_publisher.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

#include "kademlia/store/skill_dht_internal.h"

namespace skillnode::kademlia::store {

using skill_dht_internal::BelongsUnder;

// Counts the outstanding lookups and stores of one Publish; the last one calls `done`.
struct SkillPublisher::PublishState {
  PublishResult result;
  size_t pending = 0;
  PublishCallback done;

  void Start() { ++pending; }
  void Finish() {
    assert(pending > 0);  // each Start is finished exactly once
    if (--pending == 0 && done) done(result);
  }
};

SkillPublisher::SkillPublisher(Node& node, const DhtConfig& config, ValueStore& store,
                               const RecordWindow& window, RecordOutbox& outbox,
                               terms::TermHolder& term_holder, DhtStats& stats,
                               StoredHereCallback on_stored)
    : node_(node),
      config_(config),
      store_(store),
      window_(window),
      outbox_(outbox),
      stats_(stats),
      on_stored_(std::move(on_stored)),
      term_publisher_(node, config, term_holder, stats) {}

void SkillPublisher::Publish(transport::TimePoint now, const SignedRecord& record,
                             PublishCallback done, std::vector<IndexTerm> terms) {
  Place(now, record, std::move(done), std::move(terms),
        std::min(config_.first_republish_delay, config_.republish_interval));
}

void SkillPublisher::Place(transport::TimePoint now, const SignedRecord& record,
                           PublishCallback done, std::vector<IndexTerm> terms,
                           transport::Duration next_in) {
  ++stats_.publishes_started;
  const transport::Duration ttl = transport::Seconds(record.record.ttl_seconds);
  if (record.record.tombstone) terms.clear();  // a tombstone buries what its identity had
  // One copy for the timer, the lookups below and this node's own store.
  SignedRecordPtr shared = store_.HeldWith(record.signature);
  if (shared == nullptr || !(*shared == record))
    shared = std::make_shared<const SignedRecord>(record);
  SetPublished(Published{
      shared, std::move(terms), now + next_in,
      record.record.tombstone ? now + ttl : window_.LocalTimeOf(now, NotAfterMs(record.record))});
  auto state = std::make_shared<PublishState>();
  state->done = std::move(done);
  const auto keys = RecordKeys(record.record);
  state->result.keys = keys.size();
  state->Start();  // held until every lookup below has started
  for (const Key& key : keys) {
    state->Start();
    // A node lookup that waits for the r holders and ends with the lookup_closest closest.
    LookupOptions lookup;
    lookup.slow_retries = node_.config().lookup_slow_retries;
    lookup.slow_retry_rank = config_.replication;
    lookup.closest_wanted = config_.lookup_closest;
    const bool started = node_.StartLookup(now, key, std::move(lookup),
                                           [this, key, shared, state](const LookupResult& closest) {
                                             StoreOn(closest.finished, key, closest, shared, state);
                                             state->Finish();
                                           });
    if (!started) {
      ++state->result.failed;
      state->Finish();
    }
  }
  // The pointers of this version (records of our own only), after the record's own lookups have
  // started, so that a record without terms publishes exactly as it did before the index.
  term_publisher_.Publish(now, record, published_.at(IdentityOf(record.record)).terms);
  state->Finish();
}

void SkillPublisher::StoreOn(transport::TimePoint now, const Key& key, const LookupResult& closest,
                             const SignedRecordPtr& shared,
                             const std::shared_ptr<PublishState>& state) {
  const SignedRecord& record = *shared;
  const uint32_t lifetime = record.record.ttl_seconds;
  size_t copies = 0;
  // We are one of the r closest ourselves when fewer than r others are closer: keep a copy.
  const size_t closer_than_us = static_cast<size_t>(
      std::count_if(closest.closest.begin(), closest.closest.end(),
                    [&](const Contact& c) { return CloserTo(key, c.id, node_.id()); }));
  if (closer_than_us < config_.replication) {
    // The keys come from RecordKeys: the record belongs under each (what HandleStore checks).
    assert(BelongsUnder(record.record, key));
    const auto put = store_.Put(key, shared, transport::Address(), now,
                                window_.HeldFor(now, record.record, transport::Seconds(lifetime)));
    if (put.refusal == StoreRefusal::kNone) {
      if (put.changed) on_stored_(now, key, record, put.record);
      ++copies;
      ++state->result.stored;
    } else {
      ++state->result.refused;
    }
  }
  for (size_t i = 0; i < closest.closest.size() && copies < config_.replication; ++i) {
    if (closest.tokens[i].empty()) continue;
    const Contact& c = closest.closest[i];
    ++copies;
    state->Start();
    // Inline, or a reference whose bytes the outbox serves to the holder that pulls them.
    const bool sent = node_.Request(
        now, c.endpoint, c.id,
        wire::StoreBody{key, closest.tokens[i], outbox_.ToWire(now, shared), lifetime},
        [this, state](const rpc::RpcResult& result) {
          if (result.status != rpc::RpcStatus::kReplied) {
            ++state->result.failed;
          } else if (std::holds_alternative<wire::StoredBody>(result.reply->body)) {
            ++state->result.stored;
          } else {
            ++state->result.refused;
            const auto* error = std::get_if<wire::ErrorBody>(&result.reply->body);
            if (error != nullptr &&
                error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kOutsideWindow)) {
              ++stats_.publishes_outside_window;
            }
          }
          state->Finish();
        });
    if (!sent) {
      ++state->result.failed;
      state->Finish();
    }
  }
}

void SkillPublisher::Forget(const RecordIdentity& identity) {
  auto it = published_.find(identity);
  if (it == published_.end()) return;
  published_due_.erase({it->second.Due(), identity});
  published_.erase(it);
  term_publisher_.Forget(identity);
}

void SkillPublisher::SetPublished(Published published) {
  const RecordIdentity identity = IdentityOf(published.record->record);
  auto it = published_.find(identity);
  if (it != published_.end()) {
    published_due_.erase({it->second.Due(), identity});
    it->second = std::move(published);
  } else {
    it = published_.emplace(identity, std::move(published)).first;
  }
  published_due_.insert({it->second.Due(), identity});
}

void SkillPublisher::OnTimer(transport::TimePoint now) {
  RepublishDue(now);
  term_publisher_.OnTimer(now);
}

void SkillPublisher::RepublishDue(transport::TimePoint now) {
  // Published records in the order of their next event; only those due are visited.
  std::vector<std::pair<SignedRecord, std::vector<IndexTerm>>> due;
  while (!published_due_.empty() && published_due_.begin()->first <= now) {
    const RecordIdentity identity = published_due_.begin()->second;
    published_due_.erase(published_due_.begin());
    auto it = published_.find(identity);
    assert(it != published_.end());  // published_due_ lists exactly the published records
    const SkillRecord& fields = it->second.record->record;
    // Our own live records are signed again rather than dropped, even after a long pause.
    const bool ours = !fields.tombstone && fields.publisher == node_.identity().public_key();
    if (it->second.until <= now && !ours) {
      published_.erase(it);
      term_publisher_.Forget(identity);
    } else {
      due.emplace_back(*it->second.record, it->second.terms);  // Publish below sets its next event
    }
  }
  for (auto& [record, terms] : due) {
    // Signed again: its pointers are signed again from the new version (TermPublisher).
    Place(now, Refreshed(now, std::move(record)), nullptr, std::move(terms),
          config_.republish_interval);
  }
}

SignedRecord SkillPublisher::Refreshed(transport::TimePoint now, SignedRecord record) {
  const SkillRecord& fields = record.record;
  if (fields.tombstone || fields.publisher != node_.identity().public_key()) return record;
  const uint64_t wall_now = window_.WallMs(now);
  if (!RecordWindow::EndsSoon(wall_now, fields, config_.republish_interval)) return record;
  SkillRecord again = fields;
  again.timestamp_ms = wall_now;
  again.sequence = std::max(fields.sequence + 1, wall_now);
  auto resigned = SignRecord(std::move(again), node_.identity(), node_.signatures());
  // The same fields validated when first signed; only the clock moved.
  if (!resigned) return record;
  ++stats_.records_resigned;
  if (resigned_) resigned_(*resigned);
  return std::move(*resigned);
}

}  // namespace skillnode::kademlia::store

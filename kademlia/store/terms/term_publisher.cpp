// TermPublisher (term_publisher.h): which pointers a version of a record makes, and each
// pointer's job: its shard found, its STOREs sent, and on to the next shard when all are full.
#include "kademlia/store/terms/term_publisher.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "kademlia/store/terms/shard_search.h"

namespace skillnode::kademlia::store::terms {

// One pointer on its way to a shard: found by a search (kSearch), stored at a known shard and
// moved up when that is full (kAt), or a tombstone pointer stored where its term was (kBury).
struct TermPublisher::Job {
  enum class Mode : uint8_t { kSearch, kAt, kBury };
  RecordIdentity identity;
  SignedTermPointer pointer;
  Mode mode = Mode::kSearch;
  bool handed_on = false;  // another publisher's pointer this node displaced (HandOn)
  uint32_t shard = 0;      // kAt, kBury: the shard stored at first
  ShardSearch search;
  std::optional<LookupResult> room;  // kSearch: the lookup of the lowest shard seen with room
  // The STOREs of the round at one shard: not yet answered, and what the others came to.
  size_t pending = 0;
  size_t answered = 0;
  size_t stored = 0;
  size_t key_full = 0;
};

TermPublisher::TermPublisher(Node& node, const DhtConfig& config, TermHolder& holder,
                             DhtStats& stats)
    : node_(node), config_(config), holder_(holder), stats_(stats) {
  assert(config_.term_jobs_per_second > 0 && config_.term_jobs_burst >= 1);
}

void TermPublisher::Publish(transport::TimePoint now, const SignedRecord& record,
                            std::span<const IndexTerm> terms) {
  const SkillRecord& fields = record.record;
  if (fields.publisher != node_.identity().public_key()) return;  // only our own are signed
  const RecordIdentity identity = IdentityOf(fields);
  auto it = places_.find(identity);
  if (fields.tombstone) {
    if (it == places_.end()) return;
    Bury(record, it->second);
  } else {
    if (terms.empty() && it == places_.end()) return;  // nothing indexed, nothing to bury
    if (it == places_.end()) it = places_.emplace(identity, Places()).first;
    PublishLive(record, terms, it->second);
  }
  if (it->second.empty()) places_.erase(it);
  Pump(now);
}

void TermPublisher::PublishLive(const SignedRecord& record, std::span<const IndexTerm> terms,
                                Places& places) {
  const uint64_t sequence = record.record.sequence;
  const size_t count = std::min(terms.size(), config_.term_pointers_per_record_max);
  // Every pointer of the version carries the profile of its terms (the most distinctive first).
  std::vector<std::pair<std::string_view, uint32_t>> profiled;
  for (const IndexTerm& term : terms.first(count)) {
    if (profiled.size() == kTermProfileTermsMax) break;
    profiled.emplace_back(term.term, term.weight_centi);
  }
  const TermProfile profile = TermProfile::Of(profiled);
  std::set<std::string_view> carried;
  for (const IndexTerm& term : terms.first(count)) {
    if (!carried.insert(term.term).second) continue;  // named twice: one pointer
    auto [at, fresh] = places.try_emplace(term.term);
    Place& place = at->second;
    std::optional<uint32_t> shard;  // none: searched for
    const bool same_version = !fresh && place.sequence == sequence;
    if (same_version && place.placement == Placement::kGivenUp) continue;
    if (place.placement == Placement::kPlaced || place.placement == Placement::kBuried) {
      // A refresh goes where the pointer is; a pointer signed again first tries one lower.
      shard = same_version || place.shard == 0 ? place.shard : place.shard - 1;
    }
    const uint32_t weight = std::clamp<uint32_t>(term.weight_centi, 1, kTermWeightCentiMax);
    if (!Enqueue(record, term.term, weight, profile, shard)) {
      if (fresh) places.erase(at);
      continue;
    }
    if (!shard) place.placement = Placement::kSearching;
    place.sequence = sequence;
  }
  // Terms this version dropped: buried until the window of the pointer they had has ended.
  for (auto it = places.begin(); it != places.end();) {
    Place& place = it->second;
    const bool keep =
        !carried.contains(it->first) && (place.placement == Placement::kPlaced ||
                                         (place.placement == Placement::kBuried &&
                                          record.record.timestamp_ms <= place.buried_until_ms));
    if (carried.contains(it->first)) {
      ++it;
    } else if (!keep) {
      it = places.erase(it);
    } else {
      if (place.placement == Placement::kPlaced) place.buried_until_ms = NotAfterMs(record.record);
      Enqueue(record, it->first, 0, std::nullopt, place.shard);
      place.placement = Placement::kBuried;
      place.sequence = sequence;
      ++it;
    }
  }
}

void TermPublisher::Bury(const SignedRecord& record, Places& places) {
  for (auto it = places.begin(); it != places.end();) {
    Place& place = it->second;
    if (place.placement != Placement::kPlaced && place.placement != Placement::kBuried) {
      it = places.erase(it);  // no shard holds a pointer of it
      continue;
    }
    Enqueue(record, it->first, 0, std::nullopt, place.shard);
    place.placement = Placement::kBuried;
    place.sequence = record.record.sequence;
    place.buried_until_ms = std::max(place.buried_until_ms, NotAfterMs(record.record));
    ++it;
  }
}

bool TermPublisher::Enqueue(const SignedRecord& record, std::string_view term,
                            uint32_t weight_centi, const std::optional<TermProfile>& profile,
                            std::optional<uint32_t> shard) {
  const bool tombstone = !profile.has_value();
  if (QueueFull()) return false;
  const SkillRecord& fields = record.record;
  TermPointer pointer;
  pointer.term = std::string(term);
  pointer.record_key = SkillKey(fields.skill_id);
  pointer.agent_id = fields.agent_id;
  pointer.skill_id = fields.skill_id;
  if (!tombstone && fields.descriptor) {
    pointer.name = fields.descriptor->name;
    pointer.description = DescriptionPrefix(fields.descriptor->description);
  }
  if (!tombstone) pointer.terms = *profile;
  pointer.weight_centi = tombstone ? 0 : weight_centi;
  pointer.timestamp_ms = fields.timestamp_ms;
  pointer.sequence = fields.sequence;
  pointer.ttl_seconds = fields.ttl_seconds;
  pointer.tombstone = tombstone;
  // Fails only for a term the text analysis should never make (too long, a '#' or a space).
  auto signed_pointer = SignTermPointer(std::move(pointer), node_.identity(), node_.signatures());
  if (!signed_pointer) return false;
  auto job = std::make_shared<Job>();
  job->identity = IdentityOf(fields);
  job->pointer = std::move(*signed_pointer);
  job->mode = tombstone ? Job::Mode::kBury : shard ? Job::Mode::kAt : Job::Mode::kSearch;
  assert(!tombstone || shard);  // a tombstone pointer goes where its term was
  job->shard = shard.value_or(0);
  queued_.push_back(std::move(job));
  return true;
}

void TermPublisher::HandOn(transport::TimePoint now, const DisplacedPointer& displaced) {
  const TermPointer& pointer = displaced.pointer.pointer;
  assert(!pointer.tombstone);  // a tombstone that leaves buries nothing farther up
  if (displaced.shard + 1 >= kTermShardsMax) return;
  const std::vector<Contact> closest = node_.routing_table().Closest(displaced.key, 1);
  if (!closest.empty() && CloserTo(displaced.key, closest.front().id, node_.id())) return;
  if (QueueFull()) return;
  auto job = std::make_shared<Job>();
  job->identity = IdentityOf(pointer);
  job->pointer = displaced.pointer;
  job->mode = Job::Mode::kAt;
  job->handed_on = true;
  job->shard = displaced.shard + 1;
  queued_.push_back(std::move(job));
  ++stats_.term_pointers_handed_on;
  Pump(now);
}

bool TermPublisher::QueueFull() {
  if (queued_.size() < config_.term_jobs_queued_max) return false;
  ++stats_.term_jobs_dropped;
  return true;
}

void TermPublisher::Pump(transport::TimePoint now) {
  if (pumping_) return;
  pumping_ = true;
  while (running_ < config_.term_jobs_running_max && !queued_.empty() &&
         pace_.Take(now, config_.term_jobs_per_second, config_.term_jobs_burst)) {
    std::shared_ptr<Job> job = std::move(queued_.front());
    queued_.pop_front();
    ++running_;
    const uint32_t first = job->mode == Job::Mode::kSearch ? job->search.probe() : job->shard;
    if (!Locate(now, job, first)) {
      --running_;  // the node runs as many lookups as it may: the next republish tries again
      ++stats_.term_jobs_dropped;
    }
  }
  pumping_ = false;
}

transport::TimePoint TermPublisher::NextDeadline() const {
  if (queued_.empty() || running_ >= config_.term_jobs_running_max) return transport::kTimeNever;
  return pace_.NextToken(config_.term_jobs_per_second);
}

bool TermPublisher::Locate(transport::TimePoint now, const std::shared_ptr<Job>& job,
                           uint32_t shard) {
  const Key key = TermKey(job->pointer.pointer.term, shard);
  // What each answering holder holds under the key (`tt`, and `lw` when full), for the search.
  auto fullness = std::make_shared<std::map<NodeId, ShardFullness>>();
  LookupOptions lookup;
  lookup.request = [key](const Key&) { return wire::FindValueBody{key, 0, {}}; };
  lookup.on_reply = [fullness](transport::TimePoint, const Contact& from,
                               const wire::Message& reply) {
    if (const auto* values = std::get_if<wire::ValuesBody>(&reply.body)) {
      (*fullness)[from.id] = ShardFullness{values->total, values->entry_floor};
    }
    return false;
  };
  lookup.slow_retries = node_.config().lookup_slow_retries;
  lookup.slow_retry_rank = config_.replication;
  lookup.closest_wanted = config_.lookup_closest;
  return node_.StartLookup(now, key, std::move(lookup),
                           [this, job, shard, fullness](const LookupResult& closest) {
                             ShardFullness seen;
                             if (!closest.closest.empty()) {
                               const auto it = fullness->find(closest.closest.front().id);
                               if (it != fullness->end()) seen = it->second;
                             }
                             OnLocated(job, shard, closest, seen);
                           });
}

bool TermPublisher::ShardFullness::Takes(uint32_t weight_centi) const {
  if (total < kTermPointersPerKeyMax) return true;
  // A full key still takes a pointer heavier than its lightest (TermTable); a holder that does
  // not say how light that is (an earlier version) is full for every newcomer.
  return entry_floor.has_value() && weight_centi > *entry_floor;
}

void TermPublisher::OnLocated(const std::shared_ptr<Job>& job, uint32_t shard,
                              const LookupResult& closest, const ShardFullness& seen) {
  const transport::TimePoint now = closest.finished;
  if (job->mode != Job::Mode::kSearch) {
    StoreAt(now, job, shard, closest);
    return;
  }
  assert(job->search.probe() == shard);
  const bool full = !seen.Takes(job->pointer.pointer.weight_centi);
  job->search.OnProbed(full);
  if (!full) job->room = closest;  // the lowest shard seen with room: where it goes when found
  switch (job->search.state()) {
    case ShardSearch::State::kAllFull:
      ++stats_.terms_given_up;
      Finish(now, job, Placement::kGivenUp, 0);
      return;
    case ShardSearch::State::kProbing:
      if (!Locate(now, job, job->search.probe())) Finish(now, job, std::nullopt, 0);
      return;
    case ShardSearch::State::kFound: {
      assert(job->room.has_value());
      job->mode = Job::Mode::kAt;
      const LookupResult room = std::move(*job->room);
      job->room.reset();
      StoreAt(now, job, job->search.found(), room);
      return;
    }
  }
}

void TermPublisher::StoreAt(transport::TimePoint now, const std::shared_ptr<Job>& job,
                            uint32_t shard, const LookupResult& closest) {
  const Key key = TermKey(job->pointer.pointer.term, shard);
  job->shard = shard;
  job->answered = job->stored = job->key_full = 0;
  job->pending = 1;  // held until every STORE below has been sent
  size_t copies = 0;
  // We are one of the r closest ourselves when fewer than r others are closer: keep a copy.
  const size_t closer_than_us = static_cast<size_t>(
      std::count_if(closest.closest.begin(), closest.closest.end(),
                    [&](const Contact& c) { return CloserTo(key, c.id, node_.id()); }));
  if (closer_than_us < config_.replication) {
    const TermRefusal refusal = holder_.KeepOwn(now, key, job->pointer);
    ++copies;
    ++job->answered;
    job->stored += refusal == TermRefusal::kNone;
    job->key_full += refusal == TermRefusal::kKeyFull;
  }
  const wire::WireRecord wire_pointer(job->pointer.encoded, job->pointer.signature);
  for (size_t i = 0; i < closest.closest.size() && copies < config_.replication; ++i) {
    if (closest.tokens[i].empty()) continue;
    const Contact& c = closest.closest[i];
    ++copies;
    ++job->pending;
    const bool sent = node_.Request(
        now, c.endpoint, c.id,
        wire::StoreBody{key, closest.tokens[i], wire_pointer, job->pointer.pointer.ttl_seconds},
        [this, job, shard](const rpc::RpcResult& result) {
          if (result.status == rpc::RpcStatus::kReplied) {
            ++job->answered;
            const auto* error = std::get_if<wire::ErrorBody>(&result.reply->body);
            job->stored += std::holds_alternative<wire::StoredBody>(result.reply->body);
            job->key_full +=
                error != nullptr &&
                error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kTermKeyFull);
          }
          assert(job->pending > 0);
          if (--job->pending == 0) OnStored(result.now, job, shard);
        });
    if (!sent) --job->pending;
  }
  if (--job->pending == 0) OnStored(now, job, shard);
}

void TermPublisher::OnStored(transport::TimePoint now, const std::shared_ptr<Job>& job,
                             uint32_t shard) {
  if (job->mode == Job::Mode::kBury) {
    // Refused where it buries nothing (a full key): there is nothing of its there to remove.
    if (job->stored > 0) ++stats_.term_pointers_buried;
    Finish(now, job, Placement::kBuried, shard);
    return;
  }
  const bool all_full = job->answered > 0 && job->key_full == job->answered;
  if (!all_full) {
    if (job->stored > 0)
      ++(job->handed_on ? stats_.term_hand_ons_placed : stats_.term_pointers_published);
    // Nobody answered: where it was (a new term is searched for again at the next republish).
    Finish(now, job, job->stored > 0 ? std::optional(Placement::kPlaced) : std::nullopt, shard);
    return;
  }
  if (shard + 1 >= kTermShardsMax) {
    if (!job->handed_on) ++stats_.terms_given_up;
    Finish(now, job, Placement::kGivenUp, 0);
    return;
  }
  if (!job->handed_on) ++stats_.term_shard_moves;
  if (!Locate(now, job, shard + 1)) Finish(now, job, std::nullopt, 0);
}

void TermPublisher::Finish(transport::TimePoint now, const std::shared_ptr<Job>& job,
                           std::optional<Placement> placement, uint32_t shard) {
  assert(running_ > 0);  // every job started is finished once
  --running_;
  auto it = places_.find(job->identity);
  if (placement && it != places_.end()) {
    auto at = it->second.find(job->pointer.pointer.term);
    // A later version's pointer (or burial) of the term is not overwritten by an older job.
    if (at != it->second.end() && at->second.sequence <= job->pointer.pointer.sequence) {
      at->second.placement = *placement;
      at->second.shard = shard;
    }
  }
  Pump(now);
}

std::optional<uint32_t> TermPublisher::ShardOf(const RecordIdentity& identity,
                                               std::string_view term) const {
  const auto it = places_.find(identity);
  if (it == places_.end()) return std::nullopt;
  const auto at = it->second.find(term);
  if (at == it->second.end()) return std::nullopt;
  const Placement placement = at->second.placement;
  if (placement != Placement::kPlaced && placement != Placement::kBuried) return std::nullopt;
  return at->second.shard;
}

}  // namespace skillnode::kademlia::store::terms

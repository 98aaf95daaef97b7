// SkillDht's holder side (STORE and FIND_VALUE), publishing, and timers. Replica hand-off and
// repair are in skill_dht_handoff.cpp, the get path in skill_dht_get.cpp, the listen feature in
// skill_dht_listen.cpp and validity windows in skill_dht_window.cpp; helpers shared with the
// get path and hand-off are in skill_dht_internal.h.
#include "kademlia/store/skill_dht.h"

#include <algorithm>
#include <string>
#include <utility>

#include "kademlia/store/skill_dht_internal.h"

namespace skillnode::kademlia {
namespace {

using skill_dht_internal::BelongsUnder;
using skill_dht_internal::SecondsLeft;
using skill_dht_internal::ToWire;

// msgpack framing of one record in a VALUES page: a fixarray byte and two bin16 headers.
constexpr size_t kRecordEntryOverhead = 1 + 3 + 3;
// The records array header may grow from one byte (fixarray) to three (array16).
constexpr size_t kArrayHeaderSlack = 2;
// The "lf" key and its array header, and one lifetime (a uint32 at most).
constexpr size_t kLifetimesFrameSize = 3 + 3;
constexpr size_t kLifetimeEntrySizeMax = 5;

// A header as large as any reply's, to measure how many records fit in a page.
Header LargestReplyHeader() {
  Header header;
  header.proof = Signature{};
  header.observed = Endpoint(*Address::Parse("ffff::ffff"), 65535);
  header.txid = UINT64_MAX;
  header.network_id = UINT32_MAX;
  return header;
}

ErrorReplyCode CodeFor(StoreRefusal refusal) {
  switch (refusal) {
    case StoreRefusal::kStale:
      return ErrorReplyCode::kStale;
    case StoreRefusal::kQuotaKey:
      return ErrorReplyCode::kQuotaKey;
    case StoreRefusal::kQuotaIp:
      return ErrorReplyCode::kQuotaIp;
    default:
      return ErrorReplyCode::kQuotaTotal;
  }
}

}  // namespace

SkillDht::SkillDht(Node& node, const DhtConfig& config, WallClock wall_clock)
    : node_(node),
      config_(config),
      wall_clock_(std::move(wall_clock)),
      store_(config.limits),
      verified_(config.verified_records_max, node.hash_key()) {
  node_.SetRequestHandler(this);
}

SkillDht::~SkillDht() { node_.SetRequestHandler(nullptr); }

std::optional<Body> SkillDht::OnRequest(TimePoint now, const Endpoint& from,
                                        const Message& request) {
  if (const auto* find = std::get_if<FindValueBody>(&request.body)) {
    return HandleFindValue(now, from, *find);
  }
  if (const auto* store = std::get_if<StoreBody>(&request.body)) {
    return HandleStore(now, from, *store);
  }
  if (const auto* listen = std::get_if<ListenBody>(&request.body)) {
    return HandleListen(now, from, request.header.sender_id, *listen);
  }
  if (const auto* push = std::get_if<PushBody>(&request.body)) return HandlePush(now, *push);
  return std::nullopt;
}

Body SkillDht::HandleFindValue(TimePoint now, const Endpoint& from, const FindValueBody& find) {
  ++stats_.find_value_served;
  ValuesBody values;
  values.token = node_.tokens().For(from.address());
  const size_t total = store_.Count(find.target);
  const auto page = store_.Page(find.target, find.cursor, kRecordsPerReplyMax);
  values.total = static_cast<uint32_t>(total);
  // One encode of the page's frame (with the widest cursor and total), then arithmetic: each
  // record adds an array header, two bin headers, its bytes and its signature.
  ValuesBody frame = values;
  frame.next = UINT32_MAX;
  frame.total = UINT32_MAX;
  const size_t frame_size = Encode(Message{LargestReplyHeader(), frame}).value().size();
  size_t room = kDatagramSizeMax - frame_size - kArrayHeaderSlack - kLifetimesFrameSize;
  size_t next = find.cursor;
  for (const StoredRecord* held : page) {
    const SignedRecord& record = *held->value;
    const size_t cost = kRecordEntryOverhead + record.encoded.size() + record.signature.size() +
                        kLifetimeEntrySizeMax;
    if (cost > room) {
      // A record that cannot fit even alone is skipped rather than blocking the key.
      if (values.records.empty()) ++next;
      break;
    }
    room -= cost;
    values.records.push_back(ToWire(record));
    values.lifetimes.push_back(SecondsLeft(*held, now));
    ++next;
  }
  if (next < total) values.next = static_cast<uint32_t>(next);
  // Closer contacts fill what room is left; EncodeFitting drops the farthest that do not fit.
  for (const Contact& c :
       node_.routing_table().Closest(find.target, node_.config().routing.bucket_size)) {
    if (c.endpoint != from) values.nodes.push_back(WireContact{c.id, c.endpoint});
  }
  return values;
}

Body SkillDht::Refuse(ErrorReplyCode code, const std::string& why) {
  ++stats_.store_refused[static_cast<size_t>(code)];
  return ErrorBody{static_cast<uint16_t>(code), why.substr(0, kErrorTextSizeMax)};
}

Result<SignedRecordPtr> SkillDht::Verify(const WireRecord& wire) {
  const uint64_t checked = verified_.misses();
  auto record = verified_.Verify(wire.encoded, wire.signature, node_.signatures());
  ++(verified_.misses() != checked ? stats_.records_verified : stats_.records_verified_again);
  return record;
}

Body SkillDht::HandleStore(TimePoint now, const Endpoint& from, const StoreBody& store) {
  if (!node_.tokens().Check(store.token, from.address())) {
    return Refuse(ErrorReplyCode::kBadToken, "write token missing, wrong or expired");
  }
  auto verified = Verify(store.record);
  if (!verified) {
    return Refuse(verified.error().code == ErrorCode::kCrypto ? ErrorReplyCode::kBadSignature
                                                              : ErrorReplyCode::kBadRecord,
                  verified.error().message);
  }
  if (policy_) {
    if (auto taken = policy_(**verified); !taken) {
      return Refuse(ErrorReplyCode::kUncertified, taken.error().message);
    }
  }
  const SignedRecord& record = **verified;
  if (auto inside = CheckWindow(now, record.record); !inside) {
    return Refuse(ErrorReplyCode::kOutsideWindow, inside.error().message);
  }
  if (!BelongsUnder(record.record, store.target)) {
    return Refuse(ErrorReplyCode::kWrongKey,
                  "the record does not belong under key " + store.target.ShortHex());
  }
  if (store.lifetime_seconds == 0 || store.lifetime_seconds > record.record.ttl_seconds) {
    return Refuse(ErrorReplyCode::kBadLifetime,
                  "lifetime " + std::to_string(store.lifetime_seconds) + " s is outside 1.." +
                      std::to_string(record.record.ttl_seconds) + " s");
  }
  const auto put = store_.Put(store.target, record, from.address(), now,
                              HeldFor(now, record.record, Seconds(store.lifetime_seconds)));
  if (put.refusal != StoreRefusal::kNone) {
    return Refuse(CodeFor(put.refusal), std::string(StoreRefusalName(put.refusal)));
  }
  ++stats_.stores_accepted;
  if (put.changed) {
    Notify(now, store.target, PushBody{store.target, store.record, std::nullopt}, put.record);
  }
  return StoredBody{};
}

// Counts the outstanding lookups and stores of one Publish; the last one calls `done`.
struct SkillDht::PublishState {
  PublishResult result;
  size_t pending = 0;
  PublishCallback done;

  void Start() { ++pending; }
  void Finish() {
    if (--pending == 0 && done) done(result);
  }
};

void SkillDht::Publish(TimePoint now, const SignedRecord& record, PublishCallback done) {
  ++stats_.publishes_started;
  const Duration ttl = Seconds(record.record.ttl_seconds);
  SetPublished(
      Published{record, now + config_.republish_interval,
                record.record.tombstone ? now + ttl : LocalTimeOf(now, NotAfterMs(record.record))});
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
                                           [this, key, record, state](const LookupResult& closest) {
                                             StoreOn(closest.finished, key, closest, record, state);
                                             state->Finish();
                                           });
    if (!started) {
      ++state->result.failed;
      state->Finish();
    }
  }
  state->Finish();
}

void SkillDht::StoreOn(TimePoint now, const Key& key, const LookupResult& closest,
                       const SignedRecord& record, const std::shared_ptr<PublishState>& state) {
  const uint32_t lifetime = record.record.ttl_seconds;
  size_t copies = 0;
  // We are one of the r closest ourselves when fewer than r others are closer: keep a copy.
  const size_t closer_than_us = static_cast<size_t>(
      std::count_if(closest.closest.begin(), closest.closest.end(),
                    [&](const Contact& c) { return CloserTo(key, c.id, node_.id()); }));
  if (closer_than_us < config_.replication) {
    const auto put =
        store_.Put(key, record, Address(), now, HeldFor(now, record.record, Seconds(lifetime)));
    if (put.refusal == StoreRefusal::kNone) {
      if (put.changed) Notify(now, key, PushBody{key, ToWire(record), std::nullopt}, put.record);
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
    const bool sent = node_.Request(
        now, c.endpoint, c.id, StoreBody{key, closest.tokens[i], ToWire(record), lifetime},
        [this, state](const RpcResult& result) {
          if (result.status != RpcStatus::kReplied) {
            ++state->result.failed;
          } else if (std::holds_alternative<StoredBody>(result.reply->body)) {
            ++state->result.stored;
          } else {
            ++state->result.refused;
            const auto* error = std::get_if<ErrorBody>(&result.reply->body);
            if (error != nullptr &&
                error->code == static_cast<uint16_t>(ErrorReplyCode::kOutsideWindow)) {
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

void SkillDht::Forget(const RecordIdentity& identity) {
  auto it = published_.find(identity);
  if (it == published_.end()) return;
  published_due_.erase({it->second.Due(), identity});
  published_.erase(it);
}

void SkillDht::SetPublished(Published published) {
  const RecordIdentity identity = IdentityOf(published.record.record);
  auto it = published_.find(identity);
  if (it != published_.end()) {
    published_due_.erase({it->second.Due(), identity});
    it->second = std::move(published);
  } else {
    it = published_.emplace(identity, std::move(published)).first;
  }
  published_due_.insert({it->second.Due(), identity});
}

void SkillDht::OnTimer(TimePoint now) {
  for (const auto& gone : store_.Expire(now)) {
    ++stats_.records_expired;
    Notify(now, gone.key,
           PushBody{gone.key, std::nullopt,
                    GoneRecord{gone.identity.publisher, gone.identity.agent_id,
                               gone.identity.skill_id, gone.sequence}},
           nullptr);
  }
  // Listeners whose subscription ran out without renewal.
  listeners_due_ = kTimeNever;
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    auto& list = it->second;
    const size_t before = list.size();
    std::erase_if(list, [now](const Listener& l) { return l.expires <= now; });
    listener_count_ -= before - list.size();
    for (const Listener& l : list) listeners_due_ = std::min(listeners_due_, l.expires);
    it = list.empty() ? listeners_.erase(it) : std::next(it);
  }
  std::vector<uint64_t> renew;
  for (const auto& [id, subscription] : subscriptions_) {
    if (!subscription.renewing && subscription.next_renewal <= now) renew.push_back(id);
  }
  for (uint64_t id : renew) Renew(now, id);
  renewals_due_ = kTimeNever;
  for (const auto& [id, subscription] : subscriptions_) {
    if (!subscription.renewing) renewals_due_ = std::min(renewals_due_, subscription.next_renewal);
  }
  // Published records in the order of their next event; only those due are visited.
  std::vector<SignedRecord> due;
  while (!published_due_.empty() && published_due_.begin()->first <= now) {
    const RecordIdentity identity = published_due_.begin()->second;
    published_due_.erase(published_due_.begin());
    auto it = published_.find(identity);
    const SkillRecord& fields = it->second.record.record;
    // Our own live records are signed again rather than dropped, even after a long pause.
    const bool ours = !fields.tombstone && fields.publisher == node_.identity().public_key();
    if (it->second.until <= now && !ours) {
      published_.erase(it);
    } else {
      due.push_back(it->second.record);  // Publish below sets its next event
    }
  }
  for (SignedRecord& record : due) Publish(now, Refreshed(now, std::move(record)), nullptr);
}

TimePoint SkillDht::NextDeadline() const {
  TimePoint next = store_.NextExpiry();
  if (!published_due_.empty()) next = std::min(next, published_due_.begin()->first);
  return std::min({next, listeners_due_, renewals_due_});
}

}  // namespace skillnode::kademlia

// SkillDht (skill_dht.h): the holder side (FIND_VALUE, STORE, LISTEN and PUSH answered), the
// timers, and the wiring of the helpers that own the get path, publishing, hand-off and listen.
#include "kademlia/store/skill_dht.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "kademlia/store/holder/values_page.h"
#include "kademlia/store/skill_dht_internal.h"

namespace skillnode::kademlia::store {
namespace {

using skill_dht_internal::BelongsUnder;
using skill_dht_internal::SecondsLeft;

wire::ErrorReplyCode CodeFor(StoreRefusal refusal) {
  switch (refusal) {
    case StoreRefusal::kStale:
      return wire::ErrorReplyCode::kStale;
    case StoreRefusal::kQuotaKey:
      return wire::ErrorReplyCode::kQuotaKey;
    case StoreRefusal::kQuotaIp:
      return wire::ErrorReplyCode::kQuotaIp;
    default:
      return wire::ErrorReplyCode::kQuotaTotal;
  }
}

}  // namespace

SkillDht::SkillDht(Node& node, const DhtConfig& config, WallClock wall_clock)
    : node_(node),
      config_(config),
      store_(config.limits),
      window_(std::move(wall_clock), config.clock_skew),
      terms_(config.term_limits, window_, node.signatures()),
      verifier_(config.verified_records_max, node.hash_key(), node.signatures(), stats_),
      outbox_(node, config_, stats_),
      pull_(node, config_, verifier_, store_, outbox_, stats_),
      getter_(node, config_, store_, verifier_, window_, pull_, outbox_, stats_),
      term_getter_(node, config_, terms_.table(), window_, stats_),
      handoff_(node, config_, store_, terms_.table(), outbox_, stats_),
      listeners_(node, config_, store_, outbox_, stats_),
      subscriptions_(node, config_, getter_, stats_),
      publisher_(
          node, config_, store_, window_, outbox_, terms_, stats_,
          [this](transport::TimePoint now, const Key& key, const SignedRecord&,
                 const SignedRecordPtr& held) {
            Notify(now, key, wire::PushBody{key, outbox_.ToWire(now, held), std::nullopt}, held);
          }) {
  node_.SetRequestHandler(this);
}

SkillDht::~SkillDht() { node_.SetRequestHandler(nullptr); }

std::optional<wire::Body> SkillDht::OnRequest(transport::TimePoint now,
                                              const transport::Endpoint& from,
                                              const wire::Message& request) {
  if (const auto* find = std::get_if<wire::FindValueBody>(&request.body)) {
    return HandleFindValue(now, from, *find);
  }
  if (const auto* store = std::get_if<wire::StoreBody>(&request.body)) {
    return HandleStore(now, from, request.header.sender_id, *store);
  }
  if (const auto* listen = std::get_if<wire::ListenBody>(&request.body)) {
    return HandleListen(now, from, request.header.sender_id, *listen);
  }
  if (const auto* push = std::get_if<wire::PushBody>(&request.body)) {
    return HandlePush(now, from, request.header.sender_id, *push);
  }
  // The bytes of a large record this node sent a reference to (others: the blob service's).
  if (const auto* get = std::get_if<wire::BlobGetBody>(&request.body)) {
    return outbox_.Serve(now, from, request, *get);
  }
  return std::nullopt;
}

wire::Body SkillDht::HandleFindValue(transport::TimePoint now, const transport::Endpoint& from,
                                     const wire::FindValueBody& find) {
  ++stats_.find_value_served;
  wire::ValuesBody values;
  values.token = node_.tokens().For(from.address());
  if (terms_.Holds(find.target)) {
    ++stats_.term_pages_served;
    terms_.Answer(now, find, values);
  } else {
    AnswerRecords(now, find, values);
  }
  // Closer contacts fill what room is left; EncodeFitting drops the farthest that do not fit.
  for (const routing::PeerRecord* c :
       node_.routing_table().ClosestRecords(find.target, node_.config().routing.bucket_size)) {
    if (c->endpoint != from) values.nodes.push_back(wire::WireContact{c->id, c->endpoint});
  }
  return values;
}

void SkillDht::AnswerRecords(transport::TimePoint now, const wire::FindValueBody& find,
                             wire::ValuesBody& values) {
  const size_t total = store_.Count(find.target);
  const auto page = store_.Page(find.target, find.cursor, wire::kRecordsPerReplyMax);
  values.total = static_cast<uint32_t>(total);
  ValuesPage room(values);
  size_t next = find.cursor;
  for (const StoredRecord* held : page) {
    const SignedRecord& record = *held->value;
    const bool fits = record.encoded.size() <= kRecordInlineSizeMax
                          ? room.TakeInline(record.encoded.size())
                          : room.TakeReference();
    if (!fits) {
      // A record that cannot fit even alone is skipped rather than blocking the key.
      if (values.records.empty()) ++next;
      break;
    }
    values.records.push_back(outbox_.ToWire(now, held->value));
    values.lifetimes.push_back(SecondsLeft(*held, now));
    ++next;
  }
  if (next < total) values.next = static_cast<uint32_t>(next);
}

wire::Body SkillDht::Refuse(wire::ErrorReplyCode code, const std::string& why) {
  ++stats_.store_refused[static_cast<size_t>(code)];
  return wire::ErrorBody{static_cast<uint16_t>(code), why.substr(0, wire::kErrorTextSizeMax)};
}

wire::Body SkillDht::HandleStore(transport::TimePoint now, const transport::Endpoint& from,
                                 const NodeId& sender, const wire::StoreBody& store) {
  if (!node_.tokens().Check(store.token, from.address())) {
    return Refuse(wire::ErrorReplyCode::kBadToken, "write token missing, wrong or expired");
  }
  if (!store.record.is_reference() && IsTermPointerEncoding(store.record.encoded)) {
    std::optional<terms::DisplacedPointer> displaced;
    if (auto refused = terms_.Admit(now, from.address(), store, &displaced)) {
      return Refuse(refused->code, refused->why);
    }
    ++stats_.term_stores_accepted;
    if (displaced) publisher_.HandOn(now, *displaced);
    return wire::StoredBody{};
  }
  if (!store.record.reference) {
    return AdmitStore(now, from.address(), store, verifier_.Verify(store.record));
  }
  if (auto resolved = pull_.Resolve(store.record)) {
    return AdmitStore(now, from.address(), store, *resolved);
  }
  const bool pulling =
      pull_.Pull(now, store.record, wire::WireContact{sender, from},
                 [this, source = from.address(), store](
                     transport::TimePoint at, const transport::Result<SignedRecordPtr>& record) {
                   AdmitStore(at, source, store, record);  // answered STORED when the pull began
                 });
  if (!pulling) {
    return Refuse(wire::ErrorReplyCode::kPullsFull,
                  "this node pulls as many records as it may at once; send it again later");
  }
  return wire::StoredBody{};
}

wire::Body SkillDht::AdmitStore(transport::TimePoint now, const transport::Address& source,
                                const wire::StoreBody& store,
                                const transport::Result<SignedRecordPtr>& verified) {
  if (!verified) {
    return Refuse(verified.error().code == transport::ErrorCode::kCrypto
                      ? wire::ErrorReplyCode::kBadSignature
                      : wire::ErrorReplyCode::kBadRecord,
                  verified.error().message);
  }
  if (verifier_.has_policy()) {
    if (auto taken = verifier_.Admit(**verified); !taken) {
      return Refuse(wire::ErrorReplyCode::kUncertified, taken.error().message);
    }
  }
  const SignedRecord& record = **verified;
  if (auto inside = window_.Check(now, record.record); !inside) {
    return Refuse(wire::ErrorReplyCode::kOutsideWindow, inside.error().message);
  }
  if (!BelongsUnder(record.record, store.target)) {
    return Refuse(wire::ErrorReplyCode::kWrongKey,
                  "the record does not belong under key " + store.target.ShortHex());
  }
  if (store.lifetime_seconds == 0 || store.lifetime_seconds > record.record.ttl_seconds) {
    return Refuse(wire::ErrorReplyCode::kBadLifetime,
                  "lifetime " + std::to_string(store.lifetime_seconds) + " s is outside 1.." +
                      std::to_string(record.record.ttl_seconds) + " s");
  }
  const auto put =
      store_.Put(store.target, *verified, source, now,
                 window_.HeldFor(now, record.record, transport::Seconds(store.lifetime_seconds)));
  if (put.refusal != StoreRefusal::kNone) {
    return Refuse(CodeFor(put.refusal), std::string(StoreRefusalName(put.refusal)));
  }
  ++stats_.stores_accepted;
  if (put.changed) {
    Notify(now, store.target,
           wire::PushBody{store.target, outbox_.ToWire(now, put.record), std::nullopt}, put.record);
  }
  return wire::StoredBody{};
}

wire::Body SkillDht::HandleListen(transport::TimePoint now, const transport::Endpoint& from,
                                  const NodeId& id, const wire::ListenBody& listen) {
  const auto granted = listeners_.Add(now, from, id, listen);
  if (!granted) return Refuse(wire::ErrorReplyCode::kListenersFull, "no room for another listener");
  return wire::ListeningBody{*granted};
}

wire::Body SkillDht::HandlePush(transport::TimePoint now, const transport::Endpoint& from,
                                const NodeId& sender, const wire::PushBody& push) {
  ++stats_.pushes_received;
  if (!push.record) {
    subscriptions_.Deliver(push.target, nullptr, push.gone);
    return wire::PushAckBody{};
  }
  if (!push.record->reference) return AdmitPush(now, push, verifier_.Verify(*push.record));
  if (auto resolved = pull_.Resolve(*push.record)) return AdmitPush(now, push, *resolved);
  const bool pulling = pull_.Pull(
      now, *push.record, wire::WireContact{sender, from},
      [this, push](transport::TimePoint at, const transport::Result<SignedRecordPtr>& record) {
        AdmitPush(at, push, record);  // acknowledged when the pull began
      });
  if (!pulling) {
    return Refuse(wire::ErrorReplyCode::kPullsFull, "pushed record not pulled: pulls are full");
  }
  return wire::PushAckBody{};
}

wire::Body SkillDht::AdmitPush(transport::TimePoint now, const wire::PushBody& push,
                               const transport::Result<SignedRecordPtr>& verified) {
  if (!verified || !BelongsUnder((*verified)->record, push.target)) {
    return Refuse(verified ? wire::ErrorReplyCode::kWrongKey : wire::ErrorReplyCode::kBadRecord,
                  "pushed record refused");
  }
  if (auto inside = window_.Check(now, (*verified)->record); !inside) {
    ++stats_.records_outside_window;
    return Refuse(wire::ErrorReplyCode::kOutsideWindow, inside.error().message);
  }
  if (!verifier_.Admit(**verified)) {
    ++stats_.records_uncertified;
    return Refuse(wire::ErrorReplyCode::kUncertified, "pushed record's publisher is not certified");
  }
  subscriptions_.Deliver(push.target, *verified, push.gone);
  return wire::PushAckBody{};
}

void SkillDht::Notify(transport::TimePoint now, const Key& key, const wire::PushBody& push,
                      const SignedRecordPtr& record) {
  assert(push.target == key);
  // Our own subscriptions learn a change to our own store here: no holder pushes it to us.
  subscriptions_.Deliver(key, record, push.gone);
  listeners_.Push(now, push);
}

void SkillDht::OnContactAdded(transport::TimePoint now, const Contact& contact) {
  subscriptions_.OnContactAdded(now, contact);
  handoff_.OnContactAdded(now, contact);
  if (config_.outranked_pointer_life > transport::Duration::zero()) {
    for (const Key& key : handoff_.OutrankedBy(contact)) {
      stats_.term_pointers_outranked += terms_.Shorten(key, now + config_.outranked_pointer_life);
    }
  }
}

void SkillDht::OnContactEvicted(transport::TimePoint now, const NodeId& gone) {
  handoff_.OnContactEvicted(now, gone);
}

void SkillDht::Publish(transport::TimePoint now, const SignedRecord& record, PublishCallback done,
                       std::vector<IndexTerm> terms) {
  publisher_.Publish(now, record, std::move(done), std::move(terms));
}

void SkillDht::Forget(const RecordIdentity& identity) { publisher_.Forget(identity); }

bool SkillDht::Get(transport::TimePoint now, const Key& key, const GetOptions& options,
                   GetCallback done) {
  return getter_.Get(now, key, options, std::move(done));
}

bool SkillDht::GetTerm(transport::TimePoint now, std::string_view term,
                       const terms::TermGetOptions& options, terms::TermGetCallback done) {
  return term_getter_.Get(now, term, options, std::move(done));
}

uint64_t SkillDht::Listen(transport::TimePoint now, const Key& key, ListenCallback on_change,
                          const GetResult* fresh) {
  return subscriptions_.Listen(now, key, std::move(on_change), fresh);
}

void SkillDht::Unlisten(uint64_t subscription) { subscriptions_.Unlisten(subscription); }

std::vector<SignedRecordPtr> SkillDht::Observe(uint64_t subscription,
                                               std::span<const SignedRecordPtr> records) {
  return subscriptions_.Observe(subscription, records);
}

std::vector<SignedRecord> SkillDht::ListenView(uint64_t subscription) const {
  return subscriptions_.ListenView(subscription);
}

void SkillDht::OnTimer(transport::TimePoint now) {
  for (const auto& gone : store_.Expire(now)) {
    ++stats_.records_expired;
    Notify(now, gone.key,
           wire::PushBody{gone.key, std::nullopt,
                          wire::GoneRecord{gone.identity.publisher, gone.identity.agent_id,
                                           gone.identity.skill_id, gone.sequence}},
           nullptr);
  }
  stats_.term_pointers_expired += terms_.Expire(now).size();
  listeners_.Expire(now);
  subscriptions_.RenewDue(now);
  publisher_.OnTimer(now);
  pull_.OnTimer(now);
}

transport::TimePoint SkillDht::NextDeadline() const {
  return std::min({store_.NextExpiry(), terms_.NextExpiry(), publisher_.NextDeadline(),
                   listeners_.NextDeadline(), subscriptions_.NextDeadline(), pull_.NextDeadline()});
}

}  // namespace skillnode::kademlia::store

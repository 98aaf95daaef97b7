// ReplicaHandoff (replica_handoff.h): which held keys a newcomer or an eviction concerns, and
// the FIND_NODE and STOREs that hand their records over.
#include "kademlia/store/holder/replica_handoff.h"

#include <algorithm>
#include <cassert>
#include <iterator>

#include "kademlia/store/skill_dht_internal.h"

namespace skillnode::kademlia::store {

using skill_dht_internal::BelongsUnder;
using skill_dht_internal::SecondsLeft;

ReplicaHandoff::ReplicaHandoff(Node& node, const DhtConfig& config, const ValueStore& store,
                               const terms::TermTable& terms, RecordOutbox& outbox, DhtStats& stats)
    : node_(node), config_(config), store_(store), terms_(terms), outbox_(outbox), stats_(stats) {}

std::vector<Key> ReplicaHandoff::HeldKeysBetween(const Key& first, const Key& last,
                                                 size_t max) const {
  std::vector<Key> keys = store_.KeysBetween(first, last, max);
  if (terms_.keys() == 0) return keys;  // no pointers held: the records' keys alone, as before
  const std::vector<Key> term_keys = terms_.KeysBetween(first, last, max);
  std::vector<Key> merged;
  std::set_union(keys.begin(), keys.end(), term_keys.begin(), term_keys.end(),
                 std::back_inserter(merged));
  if (merged.size() > max) merged.resize(max);
  return merged;
}

std::optional<std::pair<Key, Key>> ReplicaHandoff::RangeOf(const Contact& contact) const {
  // One contiguous range of the ordered store.
  const int d = node_.id().CommonPrefixLength(contact.id);
  if (d >= Key::kBits) return std::nullopt;
  Key first = contact.id, last = contact.id;
  for (int bit = d + 1; bit < Key::kBits; ++bit) {
    if (first.Bit(bit)) first = first.WithBitFlipped(bit);
    if (!last.Bit(bit)) last = last.WithBitFlipped(bit);
  }
  return std::pair{first, last};
}

void ReplicaHandoff::OnContactAdded(transport::TimePoint now, const Contact& contact) {
  const auto range = RangeOf(contact);
  if (!range) return;
  for (const Key& key : HeldKeysBetween(range->first, range->second, config_.handoff_keys_max)) {
    // Every holder of the key sees the newcomer; only the closest of them hands it over, so it
    // gets one copy, not r (the Kademlia paper's rule). We are that one when no contact but the
    // newcomer is closer to the key than we are.
    if (CloserOtherThan(key, contact.id)) continue;
    HandOffVia(now, contact, key);
  }
}

std::vector<Key> ReplicaHandoff::OutrankedBy(const Contact& contact) const {
  std::vector<Key> outranked;
  const auto range = RangeOf(contact);
  if (!range) return outranked;
  const size_t k = node_.config().routing.bucket_size;
  for (const Key& key : HeldKeysBetween(range->first, range->second, config_.handoff_keys_max)) {
    const std::vector<Contact> closest = node_.routing_table().Closest(key, k);
    // Closest is ordered nearest first: k known and the farthest of them closer than us.
    if (closest.size() == k && CloserTo(key, closest.back().id, node_.id())) {
      outranked.push_back(key);
    }
  }
  return outranked;
}

bool ReplicaHandoff::CloserOtherThan(const Key& key, const NodeId& excluded) const {
  for (const Contact& c : node_.routing_table().Closest(key, 2)) {
    if (c.id != excluded) return CloserTo(key, c.id, node_.id());
  }
  return false;
}

void ReplicaHandoff::OnContactEvicted(transport::TimePoint now, const NodeId& gone) {
  // For each held key, the r closest nodes we know, counting us, are its holders as far as we
  // can tell. If `gone` was closer to the key than the farthest of them, it was a holder, and
  // that farthest one moved up into the r in its place: it gets a copy, from the closest
  // surviving holder alone (each holder sees the same, and would otherwise send it too).
  const size_t r = config_.replication;
  if (r < 2) return;
  Key lowest, highest;
  highest.mutable_bytes().fill(0xff);
  size_t handed = 0;
  for (const Key& key : HeldKeysBetween(lowest, highest, config_.repair_keys_max)) {
    if (handed == config_.handoff_keys_max) break;
    const std::vector<Contact> closest = node_.routing_table().Closest(key, r);
    if (closest.size() < r) continue;  // too few nodes known for anyone to have moved up
    // r others closer than us: we are not a holder by our own count; the holders repair.
    if (CloserTo(key, closest.back().id, node_.id())) continue;
    // The holders now: us and the r - 1 closest others. If the farthest of them is not us and
    // `gone` was closer than it, it has just moved up.
    const Contact& moved_up = closest[r - 2];
    if (!CloserTo(key, node_.id(), moved_up.id) || !CloserTo(key, gone, moved_up.id)) continue;
    // Every surviving holder sees the same; only the closest of them sends the copy.
    if (CloserTo(key, closest.front().id, node_.id())) continue;
    ++stats_.repair_keys;
    ++handed;
    HandOffVia(now, moved_up, key);
  }
}

void ReplicaHandoff::HandOffVia(transport::TimePoint now, const Contact& contact, const Key& key) {
  // A FIND_NODE to the contact earns the write token the STOREs need.
  node_.Request(now, contact.endpoint, contact.id, wire::FindNodeBody{key},
                [this, contact, key](const rpc::RpcResult& result) {
                  if (result.status != rpc::RpcStatus::kReplied) return;
                  if (const auto* nodes = std::get_if<wire::NodesBody>(&result.reply->body)) {
                    HandOff(result.now, contact, key, nodes->token);
                  }
                });
}

void ReplicaHandoff::HandOff(transport::TimePoint now, const Contact& contact, const Key& key,
                             const std::vector<uint8_t>& token) {
  if (token.empty()) return;
  size_t sent = 0;
  for (const StoredRecord* held : store_.Get(key)) {
    if (sent++ == config_.handoff_records_max || held->expires_at <= now) break;
    ++stats_.handoff_records;
    // The store holds a record only under the keys it belongs under (HandleStore checks).
    assert(BelongsUnder(held->value->record, key));
    node_.Request(
        now, contact.endpoint, contact.id,
        wire::StoreBody{key, token, outbox_.ToWire(now, held->value), SecondsLeft(*held, now)},
        nullptr);
  }
  // A term key's pointers (a key holds records or pointers: their hashes never meet).
  for (const terms::StoredPointer* held : terms_.Page(key, 0, config_.handoff_records_max)) {
    if (held->expires_at <= now) continue;
    ++stats_.term_handoff_pointers;
    node_.Request(now, contact.endpoint, contact.id,
                  wire::StoreBody{key, token, wire::WireRecord{held->encoded, held->signature},
                                  terms::SecondsLeft(*held, now)},
                  nullptr);
  }
}

}  // namespace skillnode::kademlia::store

#include "kademlia/store/terms/term_table.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <iterator>
#include <optional>
#include <utility>

namespace skillnode::kademlia::store::terms {

std::string_view TermRefusalName(TermRefusal refusal) {
  switch (refusal) {
    case TermRefusal::kNone:
      return "none";
    case TermRefusal::kStale:
      return "stale";
    case TermRefusal::kNotTermKey:
      return "not_term_key";
    case TermRefusal::kKeyFull:
      return "key_full";
    case TermRefusal::kQuotaIp:
      return "quota_ip";
    case TermRefusal::kQuotaTotal:
      return "quota_total";
    case TermRefusal::kCount:
      break;
  }
  return "unknown";
}

uint32_t SecondsLeft(const StoredPointer& held, transport::TimePoint now) {
  const auto left = std::chrono::duration_cast<std::chrono::seconds>(held.expires_at - now);
  return static_cast<uint32_t>(
      std::clamp<int64_t>(left.count(), 1, std::max<uint32_t>(1, held.ttl_seconds)));
}

SignedTermPointer StoredPointer::Signed() const {
  transport::Result<TermPointer> pointer = DecodeTermPointer(encoded);
  // Only bytes that verified are stored, and decoding them again gives the same fields.
  assert(pointer);
  return SignedTermPointer{encoded, signature, std::move(pointer).value()};
}

bool StoredPointer::Passes(std::span<const uint16_t> with_terms) const {
  if (with_terms.empty()) return true;
  // A tombstone has neither weight nor profile; a live pointer without a profile (from a
  // publisher of an earlier version) cannot show that it holds the terms.
  if (profile_bytes == 0) return weight_centi == 0;
  return TermProfile::HoldsAll(profile(), with_terms);
}

namespace {

// Where `pointer`'s profile lies in its canonical encoding of `size` bytes: the profile's bin
// is the last element but the unknown trailing ones (EncodeTermPointer), so its bytes end
// where those begin.
std::pair<uint16_t, uint16_t> ProfileSpan(const TermPointer& pointer, size_t size) {
  const size_t length = pointer.terms.bytes().size();
  const size_t end = size - pointer.unknown_trailing.encoded.size();
  assert(length <= end && end <= size && size <= UINT16_MAX);
  return {static_cast<uint16_t>(end - length), static_cast<uint16_t>(length)};
}

}  // namespace

TermTable::TermTable(const TermTableLimits& limits) : limits_(limits) {
  assert(limits_.pointers_per_key_max > 0);
  assert(limits_.per_ip_share_max > 0 && limits_.per_ip_share_max <= 1);
}

std::optional<TermTable::IdentityHash> TermTable::Displaced(const KeyEntry& entry,
                                                            uint32_t weight) const {
  if (entry.pointers.size() < limits_.pointers_per_key_max) return std::nullopt;
  // The lightest weight is last; of its pointers, the lowest identity goes first.
  const uint32_t lightest = entry.by_weight.back()->second.weight_centi;
  if (weight <= lightest) return std::nullopt;
  // Of the lightest weight's pointers, the lowest identity: the first of them in page order.
  auto first_lightest = std::partition_point(
      entry.by_weight.begin(), entry.by_weight.end(),
      [lightest](const Held* held) { return held->second.weight_centi > lightest; });
  return (*first_lightest)->first;
}

std::vector<const TermTable::Held*>::iterator TermTable::PageSlot(KeyEntry& entry, uint32_t weight,
                                                                  const IdentityHash& id) {
  return std::lower_bound(entry.by_weight.begin(), entry.by_weight.end(), weight,
                          [&id](const Held* held, uint32_t w) {
                            return HeavierFirst(held->second.weight_centi, held->first, w, id);
                          });
}

void TermTable::NoteExpiry(const Key& key, KeyEntry& entry, transport::TimePoint at) {
  if (at >= entry.earliest_expiry) return;
  if (entry.earliest_expiry != transport::kTimeNever) {
    key_expiry_.erase({entry.earliest_expiry, key});
  }
  entry.earliest_expiry = at;
  key_expiry_.insert({at, key});
}

TermTable::PutResult TermTable::Put(const Key& key, const SignedTermPointer& value,
                                    const transport::Address& source, transport::TimePoint now,
                                    transport::Duration lifetime) {
  const TermPointer& pointer = value.pointer;
  if (!TermShardOf(pointer.term, key)) return {TermRefusal::kNotTermKey};
  const IdentityHash id = SlotIdentity(IdentityOf(pointer));
  const size_t size = value.encoded.size() + value.signature.size();
  auto key_it = keys_.find(key);
  const StoredPointer* held = nullptr;
  if (key_it != keys_.end()) {
    auto it = key_it->second.pointers.find(id);
    if (it != key_it->second.pointers.end()) held = &it->second;
  }
  if (held != nullptr) {
    const uint64_t held_sequence = held->sequence;
    if (pointer.sequence < held_sequence ||
        (pointer.sequence == held_sequence &&
         (held->encoded != value.encoded || held->signature != value.signature))) {
      return {TermRefusal::kStale};
    }
    if (pointer.sequence == held_sequence) {
      // A republish of the same pointer: extend its life, nothing else changes.
      // Its key's earliest expiry stays: never later than the pointers' ends.
      StoredPointer& same = key_it->second.pointers.at(id);
      same.expires_at = std::max(same.expires_at, now + lifetime);
      return {TermRefusal::kNone};
    }
  }
  std::optional<IdentityHash> displaced;
  if (held == nullptr && key_it != keys_.end()) {
    displaced = Displaced(key_it->second, pointer.weight_centi);
    if (!displaced && key_it->second.pointers.size() >= limits_.pointers_per_key_max) {
      return {TermRefusal::kKeyFull};
    }
  }
  const size_t held_size = held != nullptr ? held->bytes : 0;
  const size_t displaced_size = displaced ? key_it->second.pointers.at(*displaced).bytes : 0;
  const auto ip_max =
      static_cast<size_t>(static_cast<double>(limits_.bytes_total_max) * limits_.per_ip_share_max);
  const size_t ip_bytes =
      bytes_from(source) - (held != nullptr && held->source == source ? held_size : 0);
  if (!source.IsUnspecified() && ip_bytes + size > ip_max) return {TermRefusal::kQuotaIp};
  PutResult result{TermRefusal::kNone, true};
  const size_t after = bytes_ - held_size - displaced_size + size;
  if (after > limits_.bytes_total_max) {
    // The evictions may take the held version or the displaced pointer themselves.
    const uint64_t before = evicted_;
    const std::optional<StoreSlot> replaced =
        held != nullptr ? std::optional<StoreSlot>(StoreSlot{key, id}) : std::nullopt;
    const std::optional<StoreSlot> lightest =
        displaced ? std::optional<StoreSlot>(StoreSlot{key, *displaced}) : std::nullopt;
    const bool room = EvictForRoom(after - limits_.bytes_total_max, source, {replaced, lightest});
    result.evicted += evicted_ - before;
    if (!room) return {TermRefusal::kQuotaTotal, false, result.evicted};
  }
  if (held != nullptr && Holds(key, id)) Erase(key, id);
  if (displaced && Holds(key, *displaced)) {
    const StoredPointer& leaving = keys_.at(key).pointers.at(*displaced);
    if (leaving.weight_centi > 0) result.displaced = leaving;
    Erase(key, *displaced);
    ++displaced_;
    ++result.evicted;
  }
  KeyEntry& entry = keys_[key];
  const auto [profile_at, profile_bytes] = ProfileSpan(pointer, value.encoded.size());
  const auto [stored, added] = entry.pointers.emplace(
      id, StoredPointer{value.encoded, value.signature, pointer.sequence, pointer.weight_centi,
                        pointer.ttl_seconds, now, now + lifetime, static_cast<uint32_t>(size),
                        profile_at, profile_bytes, source});
  assert(added);
  (void)added;
  assert(std::ranges::equal(stored->second.profile(), pointer.terms.bytes()));
  entry.by_weight.insert(PageSlot(entry, pointer.weight_centi, id), &*stored);
  assert(entry.pointers.size() == entry.by_weight.size());
  assert(entry.pointers.size() <= limits_.pointers_per_key_max);
  ++pointers_;
  bytes_ += size;
  shares_.Add(source, StoreSlot{key, id}, now, size);
  NoteExpiry(key, entry, now + lifetime);
  return result;
}

bool TermTable::Holds(const Key& key, const IdentityHash& id) const {
  auto it = keys_.find(key);
  return it != keys_.end() && it->second.pointers.contains(id);
}

bool TermTable::EvictForRoom(size_t needed, const transport::Address& newcomer,
                             std::initializer_list<std::optional<StoreSlot>> leaving) {
  return shares_.EvictFor(needed, newcomer, leaving, [this](const StoreSlot& slot) {
    const auto& [key, id] = slot;
    const size_t bytes = keys_.at(key).pointers.at(id).bytes;
    Erase(key, id);
    ++evicted_;
    return bytes;
  });
}

void TermTable::Erase(const Key& key, const IdentityHash& id) {
  auto key_it = keys_.find(key);
  assert(key_it != keys_.end());
  KeyEntry& entry = key_it->second;
  auto it = entry.pointers.find(id);
  assert(it != entry.pointers.end());
  const StoredPointer& stored = it->second;
  shares_.Remove(stored.source, StoreSlot{key, id}, stored.stored_at, stored.bytes);
  auto slot = PageSlot(entry, stored.weight_centi, id);
  assert(slot != entry.by_weight.end() && *slot == &*it);
  entry.by_weight.erase(slot);
  bytes_ -= stored.bytes;
  --pointers_;
  entry.pointers.erase(it);
  if (entry.pointers.empty()) {
    key_expiry_.erase({entry.earliest_expiry, key});
    keys_.erase(key_it);
  }
}

std::vector<const StoredPointer*> TermTable::Page(const Key& key, size_t cursor, size_t max,
                                                  std::span<const uint16_t> with_terms) const {
  std::vector<const StoredPointer*> out;
  auto it = keys_.find(key);
  if (it == keys_.end()) return out;
  const KeyEntry& entry = it->second;
  // Heaviest first; among equal weights, identity order (the set's own order).
  if (with_terms.empty()) {
    if (cursor >= entry.by_weight.size()) return out;
    const size_t end = std::min(entry.by_weight.size(), cursor + max);
    out.reserve(end - cursor);
    for (size_t at = cursor; at < end; ++at) out.push_back(&entry.by_weight[at]->second);
    return out;
  }
  // The filtered sequence: a walk over at most pointers_per_key_max pointers.
  size_t passed = 0;
  for (const Held* held : entry.by_weight) {
    if (out.size() == max) break;
    if (!held->second.Passes(with_terms)) continue;
    if (passed++ >= cursor) out.push_back(&held->second);
  }
  return out;
}

size_t TermTable::Count(const Key& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? 0 : it->second.pointers.size();
}

std::optional<uint32_t> TermTable::EntryFloor(const Key& key) const {
  auto it = keys_.find(key);
  if (it == keys_.end() || it->second.pointers.size() < limits_.pointers_per_key_max) {
    return std::nullopt;
  }
  assert(!it->second.by_weight.empty());
  return it->second.by_weight.back()->second.weight_centi;
}

size_t TermTable::Shorten(const Key& key, transport::TimePoint until) {
  auto it = keys_.find(key);
  if (it == keys_.end()) return 0;
  size_t shortened = 0;
  for (auto& [id, held] : it->second.pointers) {
    if (held.expires_at <= until) continue;
    held.expires_at = until;
    ++shortened;
  }
  if (shortened > 0) NoteExpiry(key, it->second, until);
  return shortened;
}

std::vector<TermTable::Expired> TermTable::Expire(transport::TimePoint now) {
  std::vector<Expired> expired;
  while (!key_expiry_.empty() && key_expiry_.begin()->first <= now) {
    const Key key = key_expiry_.begin()->second;
    key_expiry_.erase(key_expiry_.begin());
    KeyEntry& entry = keys_.at(key);
    entry.earliest_expiry = transport::kTimeNever;
    // The key's pointers whose time is up go; the earliest end of the rest is looked at next.
    std::vector<IdentityHash> due;
    transport::TimePoint next = transport::kTimeNever;
    for (const auto& [id, held] : entry.pointers) {
      if (held.expires_at <= now) {
        due.push_back(id);
      } else {
        next = std::min(next, held.expires_at);
      }
    }
    for (const IdentityHash& id : due) {
      const StoredPointer& held = entry.pointers.at(id);
      expired.push_back(Expired{key, IdentityOf(held.Signed().pointer), held.sequence});
      Erase(key, id);  // the last one erases the key's entry
    }
    if (next != transport::kTimeNever) NoteExpiry(key, keys_.at(key), next);
  }
  return expired;
}

transport::TimePoint TermTable::NextExpiry() const {
  return key_expiry_.empty() ? transport::kTimeNever : key_expiry_.begin()->first;
}

std::vector<Key> TermTable::KeysBetween(const Key& first, const Key& last, size_t max) const {
  std::vector<Key> out;
  for (auto it = keys_.lower_bound(first); it != keys_.end() && it->first <= last; ++it) {
    if (out.size() == max) break;
    out.push_back(it->first);
  }
  return out;
}

}  // namespace skillnode::kademlia::store::terms

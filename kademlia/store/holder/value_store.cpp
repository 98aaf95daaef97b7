#include "kademlia/store/holder/value_store.h"

#include <algorithm>
#include <cassert>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::store {
namespace {

// The first record under a key whose identity hash is not below `id` (a key's records are
// sorted by it).
template <typename Records>
auto LowerBoundIn(Records& records, const Key& id) {
  return std::lower_bound(records.begin(), records.end(), id,
                          [](const auto& held, const Key& wanted) { return held.first < wanted; });
}

}  // namespace

std::string_view StoreRefusalName(StoreRefusal refusal) {
  switch (refusal) {
    case StoreRefusal::kNone:
      return "none";
    case StoreRefusal::kStale:
      return "stale";
    case StoreRefusal::kQuotaKey:
      return "quota_key";
    case StoreRefusal::kQuotaIp:
      return "quota_ip";
    case StoreRefusal::kQuotaTotal:
      return "quota_total";
    case StoreRefusal::kCount:
      break;
  }
  return "unknown";
}

ValueStore::PutResult ValueStore::Put(const Key& key, const SignedRecord& value,
                                      const transport::Address& source, transport::TimePoint now,
                                      transport::Duration lifetime) {
  return Put(key, value, nullptr, source, now, lifetime);
}

ValueStore::PutResult ValueStore::Put(const Key& key, const SignedRecordPtr& value,
                                      const transport::Address& source, transport::TimePoint now,
                                      transport::Duration lifetime) {
  assert(value != nullptr);
  return Put(key, *value, value, source, now, lifetime);
}

ValueStore::PutResult ValueStore::Put(const Key& key, const SignedRecord& value,
                                      const SignedRecordPtr& given,
                                      const transport::Address& source, transport::TimePoint now,
                                      transport::Duration lifetime) {
  const IdentityHash id = SlotIdentity(IdentityOf(value.record));
  const size_t size = value.encoded.size() + value.signature.size();
  auto key_it = keys_.find(key);
  const StoredRecord* held = nullptr;
  if (key_it != keys_.end()) {
    auto it = key_it->second.Find(id);
    if (it != key_it->second.records.end()) held = &it->second;
  }
  if (held != nullptr) {
    const uint64_t held_sequence = held->value->record.sequence;
    if (value.record.sequence < held_sequence ||
        (value.record.sequence == held_sequence && !(*held->value == value))) {
      return {StoreRefusal::kStale, false};
    }
    if (value.record.sequence == held_sequence) {
      // A republish of the same record: extend its life, nothing else changes.
      StoredRecord& same = key_it->second.Find(id)->second;
      const transport::TimePoint expires = std::max(same.expires_at, now + lifetime);
      by_expiry_.erase({same.expires_at, Slot{key, id}});
      same.expires_at = expires;
      by_expiry_.insert({expires, Slot{key, id}});
      return {StoreRefusal::kNone, false};
    }
  }
  const size_t held_size = held != nullptr ? held->bytes : 0;
  const size_t key_records = key_it == keys_.end() ? 0 : key_it->second.records.size();
  const size_t key_bytes = key_it == keys_.end() ? 0 : key_it->second.bytes;
  if ((held == nullptr && key_records >= limits_.records_per_key_max) ||
      key_bytes - held_size + size > limits_.bytes_per_key_max) {
    return {StoreRefusal::kQuotaKey, false};
  }
  const auto ip_max =
      static_cast<size_t>(static_cast<double>(limits_.bytes_total_max) * limits_.per_ip_share_max);
  const size_t ip_bytes =
      bytes_from(source) - (held != nullptr && held->source == source ? held_size : 0);
  // The node's own records (no source address) are bounded by its registry's limits instead.
  if (!source.IsUnspecified() && ip_bytes + size > ip_max) return {StoreRefusal::kQuotaIp, false};
  if (bytes_ - held_size + size > limits_.bytes_total_max &&
      !EvictForRoom(bytes_ - held_size + size - limits_.bytes_total_max, source,
                    {held != nullptr ? std::optional<Slot>(Slot{key, id}) : std::nullopt})) {
    return {StoreRefusal::kQuotaTotal, false};
  }
  // The evictions may have taken the held version itself.
  if (held != nullptr && Holds(key, id)) Erase(key, id);
  KeyEntry& entry = keys_[key];
  StoredRecord stored{Share(value, given), source, now, now + lifetime, size};
  SignedRecordPtr held_now = stored.value;
  entry.records.emplace(entry.LowerBound(id), id, std::move(stored));
  entry.bytes += size;
  ++records_;
  ++changes_;
  bytes_ += size;
  shares_.Add(source, Slot{key, id}, now, size);
  by_expiry_.insert({now + lifetime, Slot{key, id}});
  return {StoreRefusal::kNone, true, std::move(held_now)};
}

ValueStore::KeyEntry::Records::iterator ValueStore::KeyEntry::LowerBound(const IdentityHash& id) {
  return LowerBoundIn(records, id);
}

ValueStore::KeyEntry::Records::iterator ValueStore::KeyEntry::Find(const IdentityHash& id) {
  const auto it = LowerBoundIn(records, id);
  return it != records.end() && it->first == id ? it : records.end();
}

ValueStore::KeyEntry::Records::const_iterator ValueStore::KeyEntry::Find(
    const IdentityHash& id) const {
  const auto it = LowerBoundIn(records, id);
  return it != records.end() && it->first == id ? it : records.end();
}

bool ValueStore::Holds(const Key& key, const IdentityHash& id) const {
  auto it = keys_.find(key);
  return it != keys_.end() && it->second.Find(id) != it->second.records.end();
}

bool ValueStore::EvictForRoom(size_t needed, const transport::Address& newcomer,
                              std::initializer_list<std::optional<StoreSlot>> leaving) {
  return shares_.EvictFor(needed, newcomer, leaving, [this](const StoreSlot& slot) {
    const auto& [key, id] = slot;
    const size_t bytes = keys_.at(key).Find(id)->second.bytes;
    Erase(key, id);
    ++evicted_;
    return bytes;
  });
}

SignedRecordPtr ValueStore::HeldWith(const Signature& signature) const {
  auto found = shared_.find(signature);
  return found == shared_.end() ? nullptr : found->second.record.lock();
}

SignedRecordPtr ValueStore::Share(const SignedRecord& value, const SignedRecordPtr& given) {
  Shared& shared = shared_[value.signature];
  SignedRecordPtr record = shared.record.lock();
  // The same signature over other bytes cannot verify; a caller that skipped verification
  // still gets its own copy rather than another record's.
  if (record == nullptr || !(*record == value)) {
    record = given != nullptr ? given : std::make_shared<const SignedRecord>(value);
    if (shared.holders == 0) shared.record = record;
  }
  ++shared.holders;
  return record;
}

void ValueStore::Erase(const Key& key, const IdentityHash& id) {
  auto key_it = keys_.find(key);
  assert(key_it != keys_.end());
  auto it = key_it->second.Find(id);
  assert(it != key_it->second.records.end());
  const StoredRecord& stored = it->second;
  by_expiry_.erase({stored.expires_at, Slot{key, id}});
  shares_.Remove(stored.source, Slot{key, id}, stored.stored_at, stored.bytes);
  key_it->second.bytes -= stored.bytes;
  bytes_ -= stored.bytes;
  --records_;
  ++changes_;
  if (auto shared = shared_.find(stored.value->signature);
      shared != shared_.end() && --shared->second.holders == 0) {
    shared_.erase(shared);
  }
  key_it->second.records.erase(it);
  if (key_it->second.records.empty()) keys_.erase(key_it);
}

std::vector<const StoredRecord*> ValueStore::Get(const Key& key) const {
  std::vector<const StoredRecord*> out;
  auto it = keys_.find(key);
  if (it == keys_.end()) return out;
  out.reserve(it->second.records.size());
  for (const auto& [id, stored] : it->second.records) out.push_back(&stored);
  return out;
}

std::vector<const StoredRecord*> ValueStore::Page(const Key& key, size_t cursor, size_t max) const {
  std::vector<const StoredRecord*> out;
  auto it = keys_.find(key);
  if (it == keys_.end() || cursor >= it->second.records.size()) return out;
  auto record = it->second.records.begin() + static_cast<std::ptrdiff_t>(cursor);
  for (; record != it->second.records.end() && out.size() < max; ++record) {
    out.push_back(&record->second);
  }
  return out;
}

size_t ValueStore::Count(const Key& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? 0 : it->second.records.size();
}

std::vector<ValueStore::Expired> ValueStore::Expire(transport::TimePoint now) {
  std::vector<Expired> expired;
  while (!by_expiry_.empty() && by_expiry_.begin()->first <= now) {
    const auto [key, id] = by_expiry_.begin()->second;
    const SkillRecord& record = keys_.at(key).Find(id)->second.value->record;
    expired.push_back(Expired{key, IdentityOf(record), record.sequence});
    Erase(key, id);
  }
  return expired;
}

transport::TimePoint ValueStore::NextExpiry() const {
  return by_expiry_.empty() ? transport::kTimeNever : by_expiry_.begin()->first;
}

std::vector<Key> ValueStore::KeysBetween(const Key& first, const Key& last, size_t max) const {
  std::vector<Key> out;
  for (auto it = keys_.lower_bound(first); it != keys_.end() && it->first <= last; ++it) {
    if (out.size() == max) break;
    out.push_back(it->first);
  }
  return out;
}

std::vector<Key> ValueStore::Keys() const {
  std::vector<Key> out;
  out.reserve(keys_.size());
  for (const auto& [key, entry] : keys_) out.push_back(key);
  return out;
}

}  // namespace skillnode::kademlia::store

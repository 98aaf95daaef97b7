#include "kademlia/store/holder/source_shares.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <vector>

namespace skillnode::kademlia::store {

Key SlotIdentity(const RecordIdentity& identity) {
  // Length-prefixed so that ("ab", "c") and ("a", "bc") differ.
  std::vector<uint8_t> input(identity.publisher.begin(), identity.publisher.end());
  for (const std::string* part : {&identity.agent_id, &identity.skill_id}) {
    input.push_back(static_cast<uint8_t>(part->size()));
    input.insert(input.end(), part->begin(), part->end());
  }
  return Key::Sha256(input);
}

void SourceShares::Add(const transport::Address& source, const StoreSlot& slot,
                       transport::TimePoint stored_at, size_t bytes) {
  const bool added = by_age_[source].insert({stored_at, slot}).second;
  assert(added && "a slot is added once");
  (void)added;
  bytes_[source] += bytes;
}

void SourceShares::Remove(const transport::Address& source, const StoreSlot& slot,
                          transport::TimePoint stored_at, size_t bytes) {
  auto ages = by_age_.find(source);
  assert(ages != by_age_.end());
  const size_t erased = ages->second.erase({stored_at, slot});
  assert(erased == 1 && "only a slot that was added leaves");
  (void)erased;
  if (ages->second.empty()) by_age_.erase(ages);
  auto held = bytes_.find(source);
  assert(held != bytes_.end() && held->second >= bytes);
  held->second -= bytes;
  if (held->second == 0) bytes_.erase(held);
}

size_t SourceShares::BytesFrom(const transport::Address& source) const {
  auto it = bytes_.find(source);
  return it == bytes_.end() ? 0 : it->second;
}

std::optional<StoreSlot> SourceShares::EvictionCandidate(const transport::Address& newcomer) const {
  const transport::Address* heaviest = nullptr;
  size_t most = 0;
  for (const auto& [address, bytes] : bytes_) {
    if (bytes > most) {
      most = bytes;
      heaviest = &address;
    }
  }
  if (heaviest == nullptr || *heaviest == newcomer) return std::nullopt;
  return by_age_.at(*heaviest).begin()->second;
}

bool SourceShares::EvictFor(size_t needed, const transport::Address& newcomer,
                            std::initializer_list<std::optional<StoreSlot>> leaving,
                            const std::function<size_t(const StoreSlot&)>& evict) {
  size_t freed = 0;
  while (freed < needed) {
    const std::optional<StoreSlot> slot = EvictionCandidate(newcomer);
    if (!slot) return false;
    const bool counted = std::find(leaving.begin(), leaving.end(), slot) != leaving.end();
    const size_t bytes = evict(*slot);
    assert(EvictionCandidate(newcomer) != slot && "evict removes the value it is given");
    if (!counted) freed += bytes;
  }
  return true;
}

}  // namespace skillnode::kademlia::store

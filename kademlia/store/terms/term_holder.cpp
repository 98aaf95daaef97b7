#include "kademlia/store/terms/term_holder.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "kademlia/store/holder/values_page.h"

namespace skillnode::kademlia::store::terms {
namespace {

wire::ErrorReplyCode CodeFor(TermRefusal refusal) {
  switch (refusal) {
    case TermRefusal::kStale:
      return wire::ErrorReplyCode::kStale;
    case TermRefusal::kNotTermKey:
      return wire::ErrorReplyCode::kWrongKey;
    case TermRefusal::kKeyFull:
      return wire::ErrorReplyCode::kTermKeyFull;
    case TermRefusal::kQuotaIp:
      return wire::ErrorReplyCode::kQuotaIp;
    default:
      return wire::ErrorReplyCode::kQuotaTotal;
  }
}

}  // namespace

TermHolder::TermHolder(const TermTableLimits& limits, const RecordWindow& window,
                       const SignatureScheme& signatures)
    : table_(limits), window_(window), signatures_(signatures) {}

void TermHolder::Answer(transport::TimePoint now, const wire::FindValueBody& find,
                        wire::ValuesBody& values) const {
  values.total = static_cast<uint32_t>(table_.Count(find.target));
  // Filtered: the page and its cursor walk the pointers that pass alone, and "tm" says how
  // many: one walk of the key's pointers (at most pointers_per_key_max) gives both.
  std::vector<const StoredPointer*> passing;
  std::span<const StoredPointer* const> listed;
  size_t total = values.total;
  if (find.with_terms.empty()) {
    // A publisher's probe reads it: a full key still takes a pointer heavier than this.
    values.entry_floor = table_.EntryFloor(find.target);
    passing = table_.Page(find.target, find.cursor, wire::kRecordsPerReplyMax);
    listed = passing;
  } else {
    std::vector<uint16_t> hashes = find.with_terms;
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    passing = table_.Page(find.target, 0, values.total, hashes);
    total = passing.size();
    values.matched = static_cast<uint32_t>(total);
    listed = std::span(passing).subspan(std::min<size_t>(find.cursor, total));
    listed = listed.first(std::min(listed.size(), wire::kRecordsPerReplyMax));
  }
  ValuesPage room(values);
  size_t next = find.cursor;
  for (const StoredPointer* held : listed) {
    // Every pointer is under kTermPointerEncodedSizeMax, so a page always takes one.
    if (!room.TakeInline(held->encoded.size())) break;
    values.records.emplace_back(held->encoded, held->signature);
    values.lifetimes.push_back(SecondsLeft(*held, now));
    ++next;
  }
  if (next < total) values.next = static_cast<uint32_t>(next);
}

std::optional<TermStoreRefusal> TermHolder::Admit(transport::TimePoint now,
                                                  const transport::Address& source,
                                                  const wire::StoreBody& store,
                                                  std::optional<DisplacedPointer>* displaced) {
  if (store.record.is_reference()) {
    return TermStoreRefusal{wire::ErrorReplyCode::kBadRecord,
                            "a term pointer travels inline, never as a reference"};
  }
  auto verified = VerifyTermPointer(store.record.encoded, store.record.signature, signatures_);
  if (!verified) {
    return TermStoreRefusal{verified.error().code == transport::ErrorCode::kCrypto
                                ? wire::ErrorReplyCode::kBadSignature
                                : wire::ErrorReplyCode::kBadRecord,
                            "term pointer: " + verified.error().message};
  }
  const TermPointer& pointer = verified->pointer;
  if (auto inside = window_.Check(now, pointer); !inside) {
    return TermStoreRefusal{wire::ErrorReplyCode::kOutsideWindow, inside.error().message};
  }
  if (store.lifetime_seconds == 0 || store.lifetime_seconds > pointer.ttl_seconds) {
    return TermStoreRefusal{wire::ErrorReplyCode::kBadLifetime,
                            "lifetime " + std::to_string(store.lifetime_seconds) +
                                " s is outside 1.." + std::to_string(pointer.ttl_seconds) + " s"};
  }
  const auto put =
      table_.Put(store.target, *verified, source, now,
                 window_.HeldFor(now, pointer, transport::Seconds(store.lifetime_seconds)));
  if (put.refusal == TermRefusal::kNone) {
    if (put.displaced && displaced != nullptr) {
      // Held under a shard of the term, or the Put would have refused it (kNotTermKey).
      const std::optional<uint32_t> shard = TermShardOf(pointer.term, store.target);
      assert(shard.has_value());
      *displaced = DisplacedPointer{store.target, *shard, put.displaced->Signed()};
    }
    return std::nullopt;
  }
  std::string why(TermRefusalName(put.refusal));
  if (put.refusal == TermRefusal::kKeyFull) {
    why = "term key full: " + std::to_string(table_.Count(store.target)) +
          " pointers, none lighter than this one";
  } else if (put.refusal == TermRefusal::kNotTermKey) {
    why =
        "the pointer's term '" + pointer.term + "' has no shard at key " + store.target.ShortHex();
  }
  return TermStoreRefusal{CodeFor(put.refusal), why};
}

TermRefusal TermHolder::KeepOwn(transport::TimePoint now, const Key& key,
                                const SignedTermPointer& pointer) {
  const transport::Duration lifetime = transport::Seconds(pointer.pointer.ttl_seconds);
  return table_
      .Put(key, pointer, transport::Address(), now, window_.HeldFor(now, pointer.pointer, lifetime))
      .refusal;
}

}  // namespace skillnode::kademlia::store::terms

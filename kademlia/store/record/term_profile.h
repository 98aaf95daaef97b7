// TermProfile: a record's indexed terms as each of its term pointers summarises them
// (docs/protocol.md "Keyword index", the pointer's `terms` field): every term the record is
// indexed under, as the first two bytes of the term's shard-0 key (TermKey) and its weight in
// tenths, sorted by that hash.
//
// Why: a reader intersects a query's terms from their pointer lists, and a common term's list is
// read only in part. With the profile, one pointer of the rarest term says whether its record
// holds the query's other terms, and about how heavily, so that the intersection and the order
// in which candidates are fetched need no more of the common terms' lists. Two bytes of hash are
// enough: a false match (one chance in about 2,000 for a record of 32 terms) costs one record
// fetch, and the fetched record is checked in full.
//
// Three bytes per term (hash big-endian, then weight), at most kTermProfileTermsMax terms: a
// skill of 32 terms adds 96 bytes to each pointer. Terms whose hashes collide keep one entry,
// the heavier weight. A plain value; no I/O.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_TERM_PROFILE_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_TERM_PROFILE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/result.h"

namespace skillnode::kademlia::store {

// Terms one profile holds: the publisher's bound on a skill's pointers
// (DhtConfig::term_pointers_per_record_max and the text analysis' terms_per_skill_max, 32).
constexpr size_t kTermProfileTermsMax = 32;
constexpr size_t kTermProfileEntryBytes = 3;
constexpr size_t kTermProfileBytesMax = kTermProfileTermsMax * kTermProfileEntryBytes;
// A weight in tenths, 1..255: 0.1 to 25.5. BM25's saturation makes weights past a few equal in
// a ranking, so the clamp loses nothing a reader uses.
constexpr uint32_t kTermProfileWeightTenthsMax = 255;

class TermProfile {
 public:
  TermProfile() = default;

  // The profile of `terms`, (term, weight in hundredths) pairs: each weight rounded to tenths and
  // clamped to 1..kTermProfileWeightTenthsMax. Asserts at most kTermProfileTermsMax terms.
  static TermProfile Of(std::span<const std::pair<std::string_view, uint32_t>> terms);
  // The hash a profile holds `term` under: the first two bytes of TermKey(term), big-endian.
  static uint16_t HashOf(std::string_view term);
  // Checks the bytes of an encoded profile: a whole number of entries, at most
  // kTermProfileTermsMax, hashes strictly increasing, no weight 0. The error says which.
  [[nodiscard]] static transport::Result<TermProfile> FromBytes(std::span<const uint8_t> bytes);

  // The weight, in hundredths, of the record's term whose hash is `hash`, if it has one.
  std::optional<uint32_t> WeightCenti(uint16_t hash) const;
  // Whether the profile holds a term under every one of `hashes` (true for none): what a holder
  // of a term's pointers filters a reader's page by (FIND_VALUE's "wf", docs/protocol.md
  // "Filtered reads"). `bytes` is an encoding FromBytes accepted; the member reads its own.
  static bool HoldsAll(std::span<const uint8_t> bytes, std::span<const uint16_t> hashes);
  bool HoldsAll(std::span<const uint16_t> hashes) const { return HoldsAll(bytes_, hashes); }
  std::span<const uint8_t> bytes() const { return bytes_; }
  size_t size() const { return bytes_.size() / kTermProfileEntryBytes; }
  bool empty() const { return bytes_.empty(); }
  bool operator==(const TermProfile&) const = default;

 private:
  explicit TermProfile(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}

  std::vector<uint8_t> bytes_;  // the encoding: kTermProfileEntryBytes per term
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_TERM_PROFILE_H_

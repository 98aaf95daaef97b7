// TermProfile (term_profile.h): a record's terms as 16-bit hashes and weights in tenths.
#include "kademlia/store/record/term_profile.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <string>

#include "kademlia/store/record/term_pointer.h"

namespace skillnode::kademlia::store {
namespace {

uint16_t HashAt(std::span<const uint8_t> bytes, size_t entry) {
  const size_t at = entry * kTermProfileEntryBytes;
  return static_cast<uint16_t>((bytes[at] << 8) | bytes[at + 1]);
}

// The entry of `bytes` whose hash is `hash`, or where it would go (entries sorted by hash).
size_t EntryOf(std::span<const uint8_t> bytes, uint16_t hash) {
  size_t low = 0;
  size_t high = bytes.size() / kTermProfileEntryBytes;
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    if (HashAt(bytes, mid) < hash) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

}  // namespace

uint16_t TermProfile::HashOf(std::string_view term) {
  const Key key = TermKey(term);
  return static_cast<uint16_t>((key.bytes()[0] << 8) | key.bytes()[1]);
}

TermProfile TermProfile::Of(std::span<const std::pair<std::string_view, uint32_t>> terms) {
  assert(terms.size() <= kTermProfileTermsMax);
  std::map<uint16_t, uint8_t> weights;  // by hash: the encoding's order
  for (const auto& [term, weight_centi] : terms) {
    const uint32_t tenths =
        std::clamp<uint32_t>((weight_centi + 5) / 10, 1, kTermProfileWeightTenthsMax);
    uint8_t& weight = weights[HashOf(term)];
    weight = std::max(weight, static_cast<uint8_t>(tenths));
  }
  std::vector<uint8_t> bytes;
  bytes.reserve(weights.size() * kTermProfileEntryBytes);
  for (const auto& [hash, weight] : weights) {
    bytes.push_back(static_cast<uint8_t>(hash >> 8));
    bytes.push_back(static_cast<uint8_t>(hash & 0xff));
    bytes.push_back(weight);
  }
  return TermProfile(std::move(bytes));
}

transport::Result<TermProfile> TermProfile::FromBytes(std::span<const uint8_t> bytes) {
  if (bytes.size() % kTermProfileEntryBytes != 0) {
    return transport::Fail(transport::ErrorCode::kParse,
                           std::to_string(bytes.size()) + " bytes are not whole entries of " +
                               std::to_string(kTermProfileEntryBytes));
  }
  const size_t entries = bytes.size() / kTermProfileEntryBytes;
  if (entries > kTermProfileTermsMax) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        std::to_string(entries) + " terms, more than " + std::to_string(kTermProfileTermsMax));
  }
  for (size_t i = 0; i < entries; ++i) {
    if (i > 0 && HashAt(bytes, i) <= HashAt(bytes, i - 1)) {
      return transport::Fail(transport::ErrorCode::kParse,
                             "term " + std::to_string(i) + "'s hash is not above the one before");
    }
    if (bytes[i * kTermProfileEntryBytes + 2] == 0) {
      return transport::Fail(transport::ErrorCode::kParse,
                             "term " + std::to_string(i) + " has weight 0");
    }
  }
  return TermProfile(std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

std::optional<uint32_t> TermProfile::WeightCenti(uint16_t hash) const {
  const size_t entry = EntryOf(bytes_, hash);
  if (entry == size() || HashAt(bytes_, entry) != hash) return std::nullopt;
  return uint32_t{bytes_[entry * kTermProfileEntryBytes + 2]} * 10;
}

bool TermProfile::HoldsAll(std::span<const uint8_t> bytes, std::span<const uint16_t> hashes) {
  assert(bytes.size() % kTermProfileEntryBytes == 0);
  const size_t entries = bytes.size() / kTermProfileEntryBytes;
  return std::all_of(hashes.begin(), hashes.end(), [bytes, entries](uint16_t hash) {
    const size_t entry = EntryOf(bytes, hash);
    return entry < entries && HashAt(bytes, entry) == hash;
  });
}

}  // namespace skillnode::kademlia::store

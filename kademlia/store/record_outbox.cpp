// RecordOutbox (record_outbox.h): records to wire form, references remembered and served.
#include "kademlia/store/record_outbox.h"

#include <algorithm>
#include <cassert>
#include <memory>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia::store {
namespace {

wire::BlobDigest Sha256Of(const std::vector<uint8_t>& bytes) {
  wire::BlobDigest digest{};
  wire::Sha256Into(bytes, digest);
  return digest;
}

bool TravelsInline(const SignedRecord& record) {
  return record.encoded.size() <= kRecordInlineSizeMax;
}

}  // namespace

RecordOutbox::RecordOutbox(Node& node, const DhtConfig& config, DhtStats& stats)
    : config_(config), stats_(stats), chunks_(node, *this, blobs::BlobConfig{}, blob_stats_) {
  assert(config_.record_outbox_max > 0);  // a reference needs room for its record
}

wire::WireRecord RecordOutbox::ToWire(transport::TimePoint now, const SignedRecordPtr& record) {
  assert(record != nullptr);
  if (TravelsInline(*record)) return wire::WireRecord(record->encoded, record->signature);
  Expire(now);
  const auto known = DigestOf(record->signature);
  return Refer(now, known ? *known : Sha256Of(record->encoded), record);
}

wire::WireRecord RecordOutbox::ToWire(transport::TimePoint now, const SignedRecord& record) {
  if (TravelsInline(record)) return wire::WireRecord(record.encoded, record.signature);
  Expire(now);
  if (const auto known = DigestOf(record.signature)) {
    const SignedRecordPtr held = entries_.at(*known).record;
    return Refer(now, *known, held);
  }
  return Refer(now, Sha256Of(record.encoded), std::make_shared<const SignedRecord>(record));
}

wire::WireRecord RecordOutbox::Refer(transport::TimePoint now, const wire::BlobDigest& digest,
                                     const SignedRecordPtr& record) {
  if (auto found = entries_.find(digest); found != entries_.end()) {
    by_until_.erase({found->second.until, digest});
  } else {
    if (entries_.size() >= config_.record_outbox_max) Erase(by_until_.begin()->second);
    entries_[digest].record = record;
    by_signature_[record->signature] = digest;
  }
  Entry& entry = entries_.at(digest);
  entry.until = now + config_.record_serve_time;
  by_until_.insert({entry.until, digest});
  assert(entries_.size() == by_until_.size() && entries_.size() <= config_.record_outbox_max);
  ++stats_.references_sent;
  wire::RecordReference reference;
  reference.digest = digest;
  reference.size = static_cast<uint32_t>(record->encoded.size());
  return wire::WireRecord::Referring(reference, record->signature);
}

std::optional<wire::Body> RecordOutbox::Serve(transport::TimePoint now,
                                              const transport::Endpoint& from,
                                              const wire::Message& request,
                                              const wire::BlobGetBody& get) {
  Expire(now);
  if (!entries_.contains(get.digest)) return std::nullopt;
  return chunks_.Serve(now, from, request, get);
}

SignedRecordPtr RecordOutbox::Find(const wire::BlobDigest& digest) const {
  auto found = entries_.find(digest);
  return found == entries_.end() ? nullptr : found->second.record;
}

std::optional<uint64_t> RecordOutbox::SizeOf(const wire::BlobDigest& digest) {
  auto found = entries_.find(digest);
  if (found == entries_.end()) return std::nullopt;
  return found->second.record->encoded.size();
}

std::vector<uint8_t> RecordOutbox::Read(const wire::BlobDigest& digest, uint64_t offset,
                                        size_t length) {
  auto found = entries_.find(digest);
  if (found == entries_.end()) return {};
  const std::vector<uint8_t>& bytes = found->second.record->encoded;
  if (offset > bytes.size()) return {};
  const size_t from = static_cast<size_t>(offset);
  const size_t to = from + std::min(length, bytes.size() - from);
  return std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(from),
                              bytes.begin() + static_cast<std::ptrdiff_t>(to));
}

std::optional<wire::BlobDigest> RecordOutbox::DigestOf(const Signature& signature) const {
  auto found = by_signature_.find(signature);
  if (found == by_signature_.end()) return std::nullopt;
  return found->second;
}

void RecordOutbox::Expire(transport::TimePoint now) {
  while (!by_until_.empty() && by_until_.begin()->first <= now) Erase(by_until_.begin()->second);
}

void RecordOutbox::Erase(const wire::BlobDigest& digest) {
  auto found = entries_.find(digest);
  assert(found != entries_.end());  // by_until_ lists exactly the entries
  by_until_.erase({found->second.until, digest});
  by_signature_.erase(found->second.record->signature);
  entries_.erase(found);
}

}  // namespace skillnode::kademlia::store

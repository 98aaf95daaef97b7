#include "node/formats/format_records.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <utility>

#include "discovery/query.h"

namespace skillnode::node::formats {
namespace {

using kademlia::store::RecordFormat;
using kademlia::store::RecordIdentity;
using kademlia::store::SkillRecord;

bool ListedIn(const SkillRecord& record, RecordFormat format) {
  const auto formats = kademlia::store::FormatsOf(record);
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

}  // namespace

FormatRecords::FormatRecords(kademlia::store::SkillDht* dht, const discovery::Registry& registry,
                             const kademlia::Identity& identity, DomainClaimsFn claims)
    : dht_(dht), registry_(registry), identity_(identity), claims_(std::move(claims)) {}

void FormatRecords::ClaimDomains(std::vector<ListedRecord>& records) const {
  if (!claims_) return;
  for (ListedRecord& listed : records) {
    if (!listed.record.publisher_domains.empty()) listed.domain_claims = claims_(listed.record);
  }
}

std::vector<ListedRecord> FormatRecords::Own(RecordFormat format, bool include_private) const {
  discovery::SkillQuery query;
  query.format = format;
  std::vector<ListedRecord> out;
  for (SkillRecord& record : registry_.Find(query)) {
    if (discovery::IsPrivate(record) && !include_private) continue;
    out.push_back(ListedRecord{.record = std::move(record), .source = RecordSource::kLocal});
  }
  return out;
}

void FormatRecords::SignUnsigned(std::vector<ListedRecord>& records) const {
  for (ListedRecord& listed : records) {
    if (listed.signature || listed.source != RecordSource::kLocal ||
        listed.record.publisher != identity_.public_key() || discovery::IsPrivate(listed.record)) {
      continue;
    }
    // The registry signed exactly this record with this identity when it published it.
    auto signed_record = kademlia::store::SignRecord(listed.record, identity_);
    if (!signed_record) continue;
    listed.encoded = std::move(signed_record->encoded);
    listed.signature = signed_record->signature;
  }
}

std::vector<ListedRecord> FormatRecords::Merge(
    std::vector<ListedRecord> own, std::span<const kademlia::store::SignedRecordPtr> found,
    RecordFormat format, bool include_private) {
  std::map<RecordIdentity, ListedRecord> newest;
  for (ListedRecord& listed : own) {
    const RecordIdentity identity = kademlia::store::IdentityOf(listed.record);
    newest.insert_or_assign(identity, std::move(listed));
  }
  for (const auto& signed_record : found) {
    assert(signed_record != nullptr);
    const SkillRecord& record = signed_record->record;
    if (!record.tombstone && !ListedIn(record, format)) continue;
    if (!include_private && discovery::IsPrivate(record)) continue;
    const RecordIdentity identity = kademlia::store::IdentityOf(record);
    auto it = newest.find(identity);
    if (it != newest.end() && it->second.record.sequence > record.sequence) continue;
    if (it != newest.end() && it->second.record.sequence == record.sequence) {
      // This node's own registration: the same version, whose signed form the DHT holds.
      if (!it->second.signature) {
        it->second.encoded = signed_record->encoded;
        it->second.signature = signed_record->signature;
      }
      continue;
    }
    newest.insert_or_assign(identity, ListedRecord{.record = record,
                                                   .source = RecordSource::kDht,
                                                   .encoded = signed_record->encoded,
                                                   .signature = signed_record->signature});
  }
  std::vector<ListedRecord> out;
  out.reserve(newest.size());
  for (auto& [identity, listed] : newest) out.push_back(std::move(listed));
  return out;
}

void FormatRecords::Gather(transport::TimePoint now, RecordFormat format, bool include_private,
                           GatherCallback done) const {
  std::vector<ListedRecord> own = Own(format, include_private);
  if (dht_ == nullptr) {
    std::vector<ListedRecord> records = Merge(std::move(own), {}, format, include_private);
    SignUnsigned(records);
    ClaimDomains(records);
    return done(Gathered{.outcome = Gathered::Outcome::kLocalOnly, .records = std::move(records)});
  }
  auto shared_done = std::make_shared<GatherCallback>(std::move(done));
  const bool started = dht_->Get(
      now, kademlia::store::FormatKey(format), kademlia::store::GetOptions{},
      [this, alive = std::weak_ptr<int>(alive_), own = std::move(own), format, include_private,
       shared_done](const kademlia::store::GetResult& result) mutable {
        if (alive.expired() || *shared_done == nullptr) return;
        auto callback = std::move(*shared_done);
        *shared_done = nullptr;
        std::vector<ListedRecord> records =
            Merge(std::move(own), result.records, format, include_private);
        SignUnsigned(records);
        ClaimDomains(records);
        callback(Gathered{.outcome = Gathered::Outcome::kComplete, .records = std::move(records)});
      });
  if (!started && *shared_done != nullptr) {
    auto callback = std::move(*shared_done);
    *shared_done = nullptr;
    callback(Gathered{.outcome = Gathered::Outcome::kBusy});
  }
}

}  // namespace skillnode::node::formats

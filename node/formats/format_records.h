// FormatRecords: gathers the records one agent-ecosystem format lists (docs/formats.md), over
// the whole network: this node's own registrations and a DHT get of the format's key,
// SHA256("format:" + f) (kademlia/store/record/skill_record.h RecordKeys, FormatsOf).
//
// Why a DHT get of its own and not the Searcher: the listings show what the Searcher's answers
// drop. The MCP Registry API carries each record's signature and signed bytes (the provenance
// a reader can check), and lists unpublished servers as "deleted" (include_deleted,
// updated_since); the Searcher answers records without signatures and leaves tombstones out.
// A get returns both, verified (signature, validity window, the node's record policy).
//
// Records merge to the newest version per identity (publisher, agentId, skillId); this node's
// registration wins a tie (it is the same version, and takes the signature of the DHT's copy).
// An own public record the DHT did not answer is signed again here for its provenance: Ed25519
// signatures are deterministic, so this is the very signature its holders keep; only those are
// signed, so a node with many registrations signs few per request. Private registrations
// (never signed, never published) are listed only when asked for, unsigned.
//
// Driven by the daemon's loop; a get that ends after this is gone does nothing. Not
// thread-safe.
#ifndef SKILLNODE_NODE_FORMATS_FORMAT_RECORDS_H_
#define SKILLNODE_NODE_FORMATS_FORMAT_RECORDS_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "discovery/registry/registry.h"
#include "kademlia/identity.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht.h"
#include "node/formats/listed_record.h"
#include "transport/clock.h"

namespace skillnode::node::formats {

struct Gathered {
  enum class Outcome {
    kComplete,   // this node's registrations and the DHT's answer
    kLocalOnly,  // the DHT is disabled on this node: its registrations only
    kBusy,       // the node runs its maximum of lookups: nothing was gathered
  };
  Outcome outcome = Outcome::kComplete;
  // Newest per identity, tombstones included, in (skillId, agentId, publisher) order.
  std::vector<ListedRecord> records = {};
};
using GatherCallback = std::function<void(Gathered)>;
// The publisher domains a record claims with their states (publisher::PublisherDomains).
using DomainClaimsFn = std::function<nlohmann::json(const kademlia::store::SkillRecord&)>;

class FormatRecords {
 public:
  // `dht` null: the DHT is disabled. Every reference must outlive this.
  // `claims` (may be unset) fills each gathered record's domain_claims.
  FormatRecords(kademlia::store::SkillDht* dht, const discovery::Registry& registry,
                const kademlia::Identity& identity, DomainClaimsFn claims = {});
  FormatRecords(const FormatRecords&) = delete;
  FormatRecords& operator=(const FormatRecords&) = delete;

  // Calls `done` once (at once when there is no lookup to wait for; never when this is gone
  // before the lookup ends, at shutdown, where the request is answered 500 for it). Private
  // registrations are included only with `include_private`.
  void Gather(transport::TimePoint now, kademlia::store::RecordFormat format, bool include_private,
              GatherCallback done) const;

  // This node's registrations listed in `format`, unsigned.
  std::vector<ListedRecord> Own(kademlia::store::RecordFormat format, bool include_private) const;
  // Signs the public records of this node in `records` that have no signature yet.
  void SignUnsigned(std::vector<ListedRecord>& records) const;
  // Fills domain_claims of the records in `records` that claim publisher domains.
  void ClaimDomains(std::vector<ListedRecord>& records) const;

  // The merge (pure): `own` and the DHT's `found`, newest per identity, `own` winning ties
  // (with the found copy's signature); live records from the DHT that are not listed in
  // `format` and private ones without `include_private` are dropped.
  static std::vector<ListedRecord> Merge(std::vector<ListedRecord> own,
                                         std::span<const kademlia::store::SignedRecordPtr> found,
                                         kademlia::store::RecordFormat format,
                                         bool include_private);

 private:
  kademlia::store::SkillDht* dht_;
  const discovery::Registry& registry_;
  const kademlia::Identity& identity_;
  DomainClaimsFn claims_;
  // Gets that finish after this is gone find it expired and do nothing.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_NODE_FORMATS_FORMAT_RECORDS_H_

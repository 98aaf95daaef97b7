// Registry: the skills registered with this node (the node on their own host), kept published
// in the DHT while their heartbeats arrive.
//
// Register validates the fields (kademlia::ValidateRecord: limits and the seed's text format),
// answers with the seed's statuses (SUCCESS, DUPLICATE for the same content registered again,
// INVALID naming the field), signs the record with the node's identity and publishes it under
// all its DHT keys. A changed registration of the same (agentId, skillId) is an update: a new
// version with a higher sequence number replaces the old one everywhere.
//
// Each registration has one HealthMachine. Every change of its status is published at once (a
// new version of the record), so holders push it to their listeners; a registration whose
// heartbeats stop for `timeout` is unpublished with a tombstone (reason ERROR). Unregister
// publishes a tombstone with the given reason. UnregisterAll does so for every registration
// (the daemon's shutdown step).
//
// Access levels (skill-sharing §5.5): a registration whose descriptor says `access: private`
// never leaves this node: it is neither published to the DHT nor tombstoned there (its health
// and removal stay local), and observers learn of it with the record's access to filter on.
// An update that makes a published skill private publishes a tombstone (reason UPGRADE) for
// the public version. The descriptor's access must be empty, public, restricted or private.
//
// Index ids (skill-sharing §5.7): every registration has the id IndexId() gives it
// ("{agentId}.{skillId}-v{major}"); a registration whose id equals another registration's is
// refused INVALID naming both, so that one node's Skill Index never holds an id twice.
//
// Word search (docs/protocol.md "Keyword index"): every live version published goes with the
// terms of its name, description, capabilities, tags and scenes (index_terms.h, through the
// Analyzer and TermExtractor this owns), so that the DHT publishes its keyword index pointers.
//
// Lookups (Find, FindEntries, FindByIndexId) are its RegistryLookup's
// (discovery/registry/registry_lookup.h): the Registry files each registration there as it is
// registered, changed and removed, by the slot that holds its current version, and the lookup
// answers from its indexes (by capability, scene, skill id, index id, and by words through the
// same Analyzer, so that a search's free text is matched against the registrations holding its
// rarest term, not against every registration).
//
// Sequence numbers come from the injected wall clock (milliseconds), and are at least one more
// than the last one this node used, so a version published after a restart still replaces the
// one published before it. The DHT signs a live record again before its validity window ends
// (kademlia/store/skill_dht.h); the registration then holds that version.
//
// Driven by its owner: OnTimer(now) at NextDeadline(). No I/O of its own. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_H_
#define SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/health.h"
#include "discovery/index_terms.h"
#include "discovery/query.h"
#include "discovery/registry/registry_lookup.h"
#include "discovery/skill_entry.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/query_terms.h"
#include "discovery/text/term_extractor.h"
#include "kademlia/identity.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht.h"
#include "transport/clock.h"
#include "transport/result.h"

namespace skillnode::discovery {

struct RegistryConfig {
  HealthPolicy health;
  // How long holders keep a record after it is stored; the DHT republishes well inside it.
  uint32_t record_ttl_seconds = 3600;
  // Registrations this node accepts in all, and from one agent.
  size_t registrations_max = 50000;
  size_t registrations_per_agent_max = 1000;
  // The publisher's certificate (DER) put into every record; empty: none.
  std::vector<uint8_t> publisher_certificate;
  // The DNS names put into every record as its publisher's claims (provider.domains); readers
  // check each against the domain's publisher proof. Empty: none.
  std::vector<std::string> publisher_domains;
};

// The seed's acknowledgement statuses (spec §2.3).
enum class RegisterStatus { kSuccess, kDuplicate, kInvalid, kUnauthorized };
std::string_view RegisterStatusName(RegisterStatus status);

struct RegisterOutcome {
  RegisterStatus status = RegisterStatus::kInvalid;
  std::string message;
  std::string field;                    // kInvalid: the field at fault
  bool updated = false;                 // kSuccess: an existing registration changed
  kademlia::store::SkillRecord record;  // kSuccess / kDuplicate: the record as published
};

// What a change of a registration looks like to observers (watchers, the cache).
struct RegistryEvent {
  enum class Kind { kRegistered, kUpdated, kStatusChanged, kUnregistered, kExpired };
  Kind kind = Kind::kRegistered;
  kademlia::store::SkillRecord record;
  // kUpdated: the registration was private before this update.
  bool was_private = false;
};
using RegistryObserver = std::function<void(const RegistryEvent&)>;

using WallClockMs = std::function<uint64_t()>;

class Registry {
 public:
  Registry(kademlia::store::SkillDht& dht, const kademlia::Identity& publisher,
           const RegistryConfig& config, WallClockMs wall_clock_ms);
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // `fields` holds what the skill sent; status, timestamp, sequence, ttl, publisher and
  // tombstone are set here.
  RegisterOutcome Register(transport::TimePoint now, kademlia::store::SkillRecord fields);

  // A heartbeat with the status the skill reports. kNotFound for an unknown registration
  // (never registered, unregistered, or expired: it must register again).
  [[nodiscard]] transport::Result<kademlia::store::SkillRecord> Heartbeat(
      transport::TimePoint now, std::string_view agent_id, std::string_view skill_id,
      kademlia::store::SkillStatus status);

  // Publishes a tombstone and forgets the registration. kNotFound if there is none.
  [[nodiscard]] transport::Result<kademlia::store::SkillRecord> Unregister(
      transport::TimePoint now, std::string_view agent_id, std::string_view skill_id,
      kademlia::store::UnregisterReason reason);

  // Unregisters everything with `reason`; `done` runs once every tombstone's publish has
  // finished (at once when there is nothing to unregister).
  void UnregisterAll(transport::TimePoint now, kademlia::store::UnregisterReason reason,
                     std::function<void()> done);

  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  // The current records of every registration, in (skillId, agentId) order.
  std::vector<kademlia::store::SkillRecord> Records() const;
  // The current records that match `query`, found through the registration index (by
  // capability, scene or skill id) rather than by walking every registration, else in
  // (skillId, agentId) order.
  std::vector<kademlia::store::SkillRecord> Find(const SkillQuery& query) const {
    return lookup_.Find(query);
  }
  // The same, shared: each registration's current version as one immutable entry.
  std::vector<SkillEntryPtr> FindEntries(const SkillQuery& query) const {
    return lookup_.FindEntries(query);
  }
  // Those of FindEntries(query) whose words may hold `text` (a search's terms, analysed in
  // `language`), in the same order: every entry whose words match `text`
  // (text::QueryTerms::AllMatched over SkillEntry::Words) is among them, found through the word
  // postings when the query names no capability, scene or skill id. The caller matches the text
  // itself. `query.text` must be empty (the text is `text`).
  std::vector<SkillEntryPtr> FindEntries(const SkillQuery& query, const text::QueryTerms& text,
                                         std::string_view language) const {
    return lookup_.FindEntries(query, text, language);
  }
  // The registration whose index id is `id` (IndexId), or nullptr.
  const kademlia::store::SkillRecord* FindByIndexId(std::string_view id) const {
    return lookup_.FindByIndexId(id);
  }
  size_t size() const { return registrations_.size(); }
  // Grows with every change observers are told of.
  uint64_t changes() const { return changes_; }
  // Observers are called after every change, in the order added.
  void AddObserver(RegistryObserver observer) { observers_.push_back(std::move(observer)); }

  struct Stats {
    uint64_t registered = 0;
    uint64_t updated = 0;
    uint64_t duplicates = 0;
    uint64_t invalid = 0;
    uint64_t refused_full = 0;
    uint64_t heartbeats = 0;
    uint64_t heartbeats_unknown = 0;
    uint64_t status_changes = 0;
    uint64_t unregistered = 0;
    uint64_t expired = 0;
    uint64_t publish_failures = 0;  // versions that reached no holder at all
  };
  const Stats& stats() const { return stats_; }
  // Registrations by current status, indexed by kademlia::SkillStatus.
  std::array<size_t, 4> CountByStatus() const;

 private:
  using Id = std::pair<std::string, std::string>;  // (skillId, agentId)
  struct Registration {
    // The current version as published, shared with searches and caches; lookup_ reads it here.
    SkillEntryPtr entry;
    HealthMachine health;
    transport::TimePoint scheduled = transport::kTimeNever;  // its entry in due_
    const kademlia::store::SkillRecord& record() const { return entry->record(); }
  };
  // Signs and publishes a new version of `record` (a live one or a tombstone); a private
  // record only gets its new sequence and timestamp (it never leaves the node).
  void PublishVersion(transport::TimePoint now, kademlia::store::SkillRecord& record,
                      std::function<void()> done);
  // The same for a new version of a registration's own record, which becomes its entry.
  void PublishVersion(transport::TimePoint now, Registration& registration,
                      kademlia::store::SkillRecord record, std::function<void()> done);
  uint64_t NextSequence();
  void Notify(RegistryEvent::Kind kind, const kademlia::store::SkillRecord& record,
              bool was_private = false);
  // Checks what Register checks beyond ValidateRecord: the access level and the index id.
  bool CheckRegistration(const kademlia::store::SkillRecord& fields, RegisterOutcome& out) const;
  void Remove(transport::TimePoint now, std::map<Id, Registration>::iterator it,
              kademlia::store::UnregisterReason reason, RegistryEvent::Kind kind,
              std::function<void()> done);
  // Keeps due_ at the registration's next health deadline.
  void Schedule(std::map<Id, Registration>::iterator it);

  kademlia::store::SkillDht& dht_;
  const kademlia::Identity& publisher_;
  RegistryConfig config_;
  WallClockMs wall_clock_ms_;
  std::map<Id, Registration> registrations_;
  std::map<std::string, size_t, std::less<>> per_agent_;
  std::set<std::pair<transport::TimePoint, Id>> due_;  // (next health deadline, registration)
  // The text analysis of the terms each published version is indexed under, and of the words
  // lookup_ files registrations under.
  text::Analyzer analyzer_;
  text::TermExtractor extractor_;
  // Every registration in registrations_, by the slot of its entry (map values never move);
  // it walks registrations_ for the queries its indexes do not fit.
  RegistryLookup lookup_;
  std::vector<RegistryObserver> observers_;
  uint64_t last_sequence_ = 0;
  uint64_t last_timestamp_ = 0;  // of the last version signed here: timestamps never go back
  uint64_t changes_ = 0;
  Stats stats_;
};

// True when two registrations carry the same content (what the skill sent; status, sequence
// and timestamps aside): registering it again is a DUPLICATE.
bool SameContent(const kademlia::store::SkillRecord& a, const kademlia::store::SkillRecord& b);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_H_

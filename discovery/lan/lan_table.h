// LanTable: the skills this node has heard of on the LAN from other hosts (SKILL_REGISTER,
// kept fresh by SKILL_HEARTBEAT and SKILL_STATUS, removed at once by SKILL_UNREGISTER), each
// forgotten `entry_timeout` after it was last heard. Keyed by (agentId, skillId): a skill heard
// from its agent and from that agent's node is one entry. At most `entries_max` entries; one
// more is refused and counted (the table never grows past its bound, whatever the LAN sends).
//
// Pure: the caller passes `now`. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_TABLE_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "discovery/lan/lan_message.h"
#include "discovery/query.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::discovery::lan {

class LanTable {
 public:
  LanTable(transport::Duration entry_timeout, size_t entries_max)
      : entry_timeout_(entry_timeout), entries_max_(entries_max) {}

  enum class Upsert { kAdded, kRefreshed, kChanged, kFull };
  // A SKILL_REGISTER heard from `from`.
  Upsert Put(transport::TimePoint now, const Register& message, const transport::Endpoint& from);
  // A SKILL_HEARTBEAT or SKILL_STATUS: false when the skill is not in the table (its
  // registration has not been heard yet) or the status is not one of the four.
  bool Touch(transport::TimePoint now, const std::string& agent_id, const std::string& skill_id,
             const std::string& status);
  bool Remove(const std::string& agent_id, const std::string& skill_id);
  // Forgets what has not been heard for entry_timeout; returns how many.
  size_t Expire(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  // The live entries matching `query`, as records (no publisher: the LAN does not sign them
  // as the DHT does), in (skillId, agentId) order, at most `limit`.
  std::vector<kademlia::store::SkillRecord> Find(const SkillQuery& query, size_t limit) const;
  size_t size() const { return entries_.size(); }
  uint64_t refused_full() const { return refused_full_; }
  // Counts every change of what Find() could answer (added, changed, removed, expired).
  uint64_t changes() const { return changes_; }

 private:
  using Id = std::pair<std::string, std::string>;  // (skillId, agentId)
  struct Entry {
    kademlia::store::SkillRecord record;
    transport::Endpoint from;
    transport::TimePoint expires = transport::kTimeNever;
  };
  void Renew(transport::TimePoint now, std::map<Id, Entry>::iterator it);

  transport::Duration entry_timeout_;
  size_t entries_max_;
  std::map<Id, Entry> entries_;
  std::set<std::pair<transport::TimePoint, Id>> expiry_;
  uint64_t refused_full_ = 0;
  uint64_t changes_ = 0;
};

// The record a SKILL_REGISTER describes (status HEALTHY; no publisher, sequence or TTL).
kademlia::store::SkillRecord RecordOf(const Register& message);

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_TABLE_H_

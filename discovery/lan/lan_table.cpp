#include "discovery/lan/lan_table.h"

namespace skillnode::discovery::lan {

kademlia::store::SkillRecord RecordOf(const Register& message) {
  kademlia::store::SkillRecord record;
  record.agent_id = message.agent_id;
  record.skill_id = message.skill_id;
  record.version = message.version;
  record.skill_type = message.skill_type;
  record.endpoint = message.endpoint;
  record.capabilities = message.capabilities;
  record.scenes = message.scenes;
  record.status = kademlia::store::SkillStatus::kHealthy;
  record.timestamp_ms = message.timestamp_ms;
  return record;
}

void LanTable::Renew(transport::TimePoint now, std::map<Id, Entry>::iterator it) {
  expiry_.erase({it->second.expires, it->first});
  it->second.expires = now + entry_timeout_;
  expiry_.insert({it->second.expires, it->first});
}

LanTable::Upsert LanTable::Put(transport::TimePoint now, const Register& message,
                               const transport::Endpoint& from) {
  const Id id{message.skill_id, message.agent_id};
  kademlia::store::SkillRecord record = RecordOf(message);
  auto it = entries_.find(id);
  if (it == entries_.end()) {
    if (entries_.size() >= entries_max_) {
      ++refused_full_;
      return Upsert::kFull;
    }
    it = entries_.emplace(id, Entry{std::move(record), from, transport::kTimeNever}).first;
    ++changes_;
    Renew(now, it);
    return Upsert::kAdded;
  }
  record.status = it->second.record.status;  // a registration says nothing of health
  const bool changed = record.version != it->second.record.version ||
                       record.skill_type != it->second.record.skill_type ||
                       record.endpoint != it->second.record.endpoint ||
                       record.capabilities != it->second.record.capabilities ||
                       record.scenes != it->second.record.scenes;
  if (!(record == it->second.record)) ++changes_;
  it->second.record = std::move(record);
  it->second.from = from;
  Renew(now, it);
  return changed ? Upsert::kChanged : Upsert::kRefreshed;
}

bool LanTable::Touch(transport::TimePoint now, const std::string& agent_id,
                     const std::string& skill_id, const std::string& status) {
  auto it = entries_.find(Id{skill_id, agent_id});
  if (it == entries_.end()) return false;
  auto parsed = kademlia::store::ParseSkillStatus(status);
  if (!parsed) return false;
  if (it->second.record.status != *parsed) ++changes_;
  it->second.record.status = *parsed;
  Renew(now, it);
  return true;
}

bool LanTable::Remove(const std::string& agent_id, const std::string& skill_id) {
  auto it = entries_.find(Id{skill_id, agent_id});
  if (it == entries_.end()) return false;
  expiry_.erase({it->second.expires, it->first});
  entries_.erase(it);
  ++changes_;
  return true;
}

size_t LanTable::Expire(transport::TimePoint now) {
  size_t expired = 0;
  while (!expiry_.empty() && expiry_.begin()->first <= now) {
    entries_.erase(expiry_.begin()->second);
    expiry_.erase(expiry_.begin());
    ++expired;
  }
  changes_ += expired;
  return expired;
}

transport::TimePoint LanTable::NextDeadline() const {
  return expiry_.empty() ? transport::kTimeNever : expiry_.begin()->first;
}

std::vector<kademlia::store::SkillRecord> LanTable::Find(const SkillQuery& query,
                                                         size_t limit) const {
  std::vector<kademlia::store::SkillRecord> out;
  for (const auto& [id, entry] : entries_) {
    if (out.size() >= limit) break;
    if (Matches(query, entry.record)) out.push_back(entry.record);
  }
  return out;
}

}  // namespace skillnode::discovery::lan

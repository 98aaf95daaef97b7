#include "discovery/capabilities/capability_snapshot.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "discovery/ascii.h"
#include "discovery/query.h"
#include "discovery/semver.h"

namespace skillnode::discovery::capabilities {
namespace {

using kademlia::store::SkillRecord;

size_t TextBytes(const Fragments& fragments) {
  size_t bytes = 0;
  for (const Fragment& fragment : fragments) bytes += fragment.text.size();
  return bytes;
}

// True when version `a` is higher than `b`: by semver precedence where both parse, a valid
// version above an invalid one, else by text.
bool HigherVersion(const std::string& a, const std::string& b) {
  auto va = SemVer::Parse(a);
  auto vb = SemVer::Parse(b);
  if (va && vb) return CompareSemVer(*va, *vb) > 0;
  if (va || vb) return va.has_value();
  return a > b;
}

// Facts of one agent over the records a view shows.
class FactsBuilder {
 public:
  void Add(const SkillRecord& record) {
    if (!present_) {
      facts_.agent_id = record.agent_id;
      facts_.version = record.version;
    } else if (HigherVersion(record.version, facts_.version)) {
      facts_.version = record.version;
    }
    facts_.health = std::max(facts_.health, HealthOf(record.status));
    // The newest registration's endpoint names the agent's base URL.
    if (!present_ || record.timestamp_ms > facts_.last_heartbeat_ms) {
      facts_.last_heartbeat_ms = record.timestamp_ms;
      facts_.base_url = BaseUrlOf(record.endpoint);
    }
    present_ = true;
  }
  bool present() const { return present_; }
  const AgentFacts& facts() const { return facts_; }

 private:
  bool present_ = false;
  AgentFacts facts_;
};

// The records taken, by agent, then (reasoner first, id); the first of an (agentId, skillId)
// wins and tombstones are skipped. At most `items_max` are taken; `truncated` says if more
// were given.
struct Taken {
  const search::Found* found;
  bool reasoner;
};
using TakenByAgent = std::map<std::string, std::map<std::pair<bool, std::string>, Taken>>;
TakenByAgent Take(const std::vector<search::Found>& records, size_t items_max, size_t& items,
                  bool& truncated) {
  TakenByAgent by_agent;
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const search::Found& found : records) {
    const SkillRecord& record = found.record();
    if (record.tombstone || !seen.emplace(record.agent_id, record.skill_id).second) continue;
    if (items == items_max) {
      truncated = true;
      continue;
    }
    const bool reasoner = record.skill_type == kReasonerType;
    by_agent[record.agent_id].emplace(std::pair{!reasoner, record.skill_id},
                                      Taken{&found, reasoner});
    ++items;
  }
  return by_agent;
}

CapabilityAgent BuildAgent(const std::string& agent_id,
                           const std::map<std::pair<bool, std::string>, Taken>& taken) {
  CapabilityAgent agent;
  agent.agent_id = agent_id;
  std::array<FactsBuilder, 2> facts;
  for (const auto& [key, item_taken] : taken) {
    const SkillRecord& record = item_taken.found->record();
    CapabilityItem item;
    item.reasoner = item_taken.reasoner;
    item.is_private = IsPrivate(record);
    item.id_lower = AsciiLower(record.skill_id);
    item.tags_begin = static_cast<uint32_t>(agent.tags_lower.size());
    if (record.descriptor) {
      for (const std::string& tag : record.descriptor->tags)
        agent.tags_lower.push_back(AsciiLower(tag));
    }
    item.tags_end = static_cast<uint32_t>(agent.tags_lower.size());
    agent.found.push_back(*item_taken.found);
    agent.has_lan = agent.has_lan || item_taken.found->source == Source::kLan;
    agent.bytes += item.id_lower.size();
    for (size_t view = 0; view < 2; ++view) {
      if (item.is_private && view == 0) continue;
      facts[view].Add(record);
      ++(item.reasoner ? agent.views[view].reasoners : agent.views[view].skills);
    }
    agent.items.push_back(std::move(item));
  }
  for (size_t view = 0; view < 2; ++view) {
    AgentView& v = agent.views[view];
    v.present = facts[view].present();
    if (!v.present) continue;
    v.health = facts[view].facts().health;
    v.json_head = AgentJsonHead(facts[view].facts());
    v.xml_head = AgentXmlHead(facts[view].facts());
    agent.bytes += v.json_head.size() + v.xml_head.size();
  }
  return agent;
}

}  // namespace

CapabilitySnapshot CapabilitySnapshot::Build(const std::vector<search::Found>& records,
                                             uint64_t built_at_ms) {
  CapabilitySnapshot out;
  out.discovered_at_ = Rfc3339(built_at_ms);
  const TakenByAgent by_agent = Take(records, kSnapshotItemsMax, out.items_, out.truncated_);
  out.agents_.reserve(by_agent.size());
  for (const auto& [agent_id, taken] : by_agent) {
    out.agents_.push_back(BuildAgent(agent_id, taken));
    out.bytes_ += out.agents_.back().bytes;
  }
  return out;
}

void CapabilitySnapshot::ReplaceAgents(const std::vector<search::Found>& records,
                                       const std::vector<std::string>& agent_ids, uint64_t now_ms) {
  discovered_at_ = Rfc3339(now_ms);
  // Take the old agents out first, so that the item limit counts what stays.
  for (const std::string& id : agent_ids) {
    auto it = std::lower_bound(
        agents_.begin(), agents_.end(), id,
        [](const CapabilityAgent& agent, const std::string& key) { return agent.agent_id < key; });
    if (it == agents_.end() || it->agent_id != id) continue;
    items_ -= it->items.size();
    bytes_ -= it->bytes;
    agents_.erase(it);
  }
  const TakenByAgent by_agent = Take(records, kSnapshotItemsMax, items_, truncated_);
  for (const auto& [agent_id, taken] : by_agent) {
    if (std::find(agent_ids.begin(), agent_ids.end(), agent_id) == agent_ids.end()) {
      items_ -= taken.size();  // not asked for: left as it is
      continue;
    }
    CapabilityAgent agent = BuildAgent(agent_id, taken);
    bytes_ += agent.bytes;
    auto at = std::lower_bound(
        agents_.begin(), agents_.end(), agent_id,
        [](const CapabilityAgent& a, const std::string& key) { return a.agent_id < key; });
    agents_.insert(at, std::move(agent));
  }
}

const ItemText& CapabilityAgent::Text(size_t i) const {
  if (texts_.empty()) {
    texts_.reserve(items.size());
    for (size_t j = 0; j < items.size(); ++j) {
      const ItemText& text =
          texts_.emplace_back(ItemFragments(found[j].record(), found[j].source, items[j].reasoner));
      text_bytes_ += TextBytes(text.json) + TextBytes(text.xml) + TextBytes(text.compact);
    }
  }
  return texts_[i];
}

size_t CapabilitySnapshot::bytes() const {
  size_t total = bytes_;
  for (const CapabilityAgent& agent : agents_) total += agent.text_bytes();
  return total;
}

std::vector<std::string> CapabilitySnapshot::LanAgentIds() const {
  std::vector<std::string> out;
  for (const CapabilityAgent& agent : agents_) {
    if (agent.has_lan) out.push_back(agent.agent_id);
  }
  return out;
}

const CapabilityAgent* CapabilitySnapshot::Find(std::string_view agent_id) const {
  auto it = std::lower_bound(
      agents_.begin(), agents_.end(), agent_id,
      [](const CapabilityAgent& agent, std::string_view id) { return agent.agent_id < id; });
  return it != agents_.end() && it->agent_id == agent_id ? &*it : nullptr;
}

}  // namespace skillnode::discovery::capabilities

// CapabilitySnapshot: what GET /api/v1/discovery/capabilities answers from, built once from
// records and then only read (the route's read-through cache holds one).
//
// Agents (every registration with one agentId) are kept sorted by agent_id, so `?agent=X` is
// a binary search. Each agent holds its items, reasoners (skillType "reasoner") first, then
// skills, each by id, with the fragments of capability_format.h and the lowercased id and
// tags the filters match against. Access (skill-sharing §5.5): each item knows whether it is
// private, and each agent has two views, one without its private items (for a request without
// a valid token) and one with them, each with its own header (health, version, base_url,
// last_heartbeat over what that view shows), so an anonymous answer tells nothing of a private
// skill, not even through its agent's header. An agent whose items are all private has no
// anonymous view.
//
// ReplaceAgents rebuilds a few agents in place (a registry change touches one agent), so a
// change costs that agent's items, not the whole snapshot's.
//
// Records are taken in the order given; a later record of an (agentId, skillId) already taken
// is dropped, so the caller lists its best source first (this node's registrations, then
// records found in the network, then the LAN's). Tombstones are skipped. At most
// kSnapshotItemsMax items are kept (truncated() says when more were given). Pure.
#ifndef SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_SNAPSHOT_H_
#define SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_SNAPSHOT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/capabilities/capability_filter.h"
#include "discovery/capabilities/capability_format.h"
#include "discovery/search/searcher.h"

namespace skillnode::discovery::capabilities {

// Items one snapshot holds at most: every registration this node accepts (RegistryConfig's
// registrations_max, 50,000) plus a LAN table's worth.
constexpr size_t kSnapshotItemsMax = 60'000;

// The skillType that makes a registration a reasoner; any other is a skill.
constexpr std::string_view kReasonerType = "reasoner";

// What the filters look at, kept small and together (a filtered request reads every item's;
// the text is read only for the items shown).
struct CapabilityItem {
  bool reasoner = false;
  bool is_private = false;
  uint32_t tags_begin = 0;  // [tags_begin, tags_end) in the agent's tags_lower
  uint32_t tags_end = 0;
  std::string id_lower;
};

struct AgentView {
  bool present = false;  // the view shows at least one item
  Health health = Health::kInactive;
  size_t reasoners = 0;
  size_t skills = 0;
  std::string json_head;
  std::string xml_head;
};

struct CapabilityAgent {
  std::string agent_id;
  std::vector<CapabilityItem> items;  // reasoners, then skills; each group by id
  std::vector<std::string> tags_lower;
  std::vector<search::Found> found;  // found[i] is items[i]'s record and source
  // [0]: without private items; [1]: with them.
  std::array<AgentView, 2> views;
  size_t bytes = 0;      // text held, the items' texts aside
  bool has_lan = false;  // an item came from the LAN table

  // Items[i]'s fragments. The texts of an agent's items are made when one is first shown
  // (then kept): a snapshot of 20,000 items is built in a few milliseconds, and only the
  // agents that answers show pay for their text.
  const ItemText& Text(size_t i) const;
  size_t text_bytes() const { return text_bytes_; }

 private:
  mutable std::vector<ItemText> texts_;
  mutable size_t text_bytes_ = 0;
};

class CapabilitySnapshot {
 public:
  CapabilitySnapshot() = default;
  // `built_at_ms`: the wall clock when the records were gathered (the answers' discovered_at).
  static CapabilitySnapshot Build(const std::vector<search::Found>& records, uint64_t built_at_ms);

  // Rebuilds the agents `agent_ids` from `records` (which hold theirs, best source first, as
  // for Build); an agent without records goes. `now_ms` becomes discovered_at.
  void ReplaceAgents(const std::vector<search::Found>& records,
                     const std::vector<std::string>& agent_ids, uint64_t now_ms);
  // The agents holding an item heard on the LAN.
  std::vector<std::string> LanAgentIds() const;

  const std::vector<CapabilityAgent>& agents() const { return agents_; }
  // The agent with this id, or nullptr.
  const CapabilityAgent* Find(std::string_view agent_id) const;
  const std::string& discovered_at() const { return discovered_at_; }
  size_t items() const { return items_; }
  // The text the snapshot holds, roughly (the cache_size_bytes metric).
  size_t bytes() const;
  bool truncated() const { return truncated_; }

 private:
  std::vector<CapabilityAgent> agents_;
  std::string discovered_at_;
  size_t items_ = 0;
  size_t bytes_ = 0;
  bool truncated_ = false;
};

}  // namespace skillnode::discovery::capabilities

#endif  // SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_SNAPSHOT_H_

// HealthHistory: the last health transitions of each skill registered with this node, for
// the web console's skill page (GET /ui/api/health-history?agentId=A&skillId=S).
//
// Fed by the registry's observer: registered, updated, status changed, unregistered and
// expired, each with the status and the wall-clock time. Bounded twice: node.ui.healthHistory
// transitions per skill (the oldest dropped first) and node.ui.healthHistorySkills skills (the
// skill whose last transition is oldest is forgotten first). Private registrations are never
// recorded: the route needs no token, so it must not tell that one exists. Loop thread only.
#ifndef SKILLNODE_NODE_UI_HEALTH_HISTORY_H_
#define SKILLNODE_NODE_UI_HEALTH_HISTORY_H_

#include <cstdint>
#include <list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/registry/registry.h"

namespace skillnode::node::ui {

class HealthHistory {
 public:
  HealthHistory(size_t transitions_max, size_t skills_max)
      : transitions_max_(transitions_max), skills_max_(skills_max) {}

  void Record(const discovery::RegistryEvent& event, uint64_t wall_ms);
  // {"agentId", "skillId", "transitions": [{"at", "status", "event"}...] oldest first,
  // "limit"}; null when nothing is recorded for that skill.
  nlohmann::json For(const std::string& agent_id, const std::string& skill_id) const;
  size_t skills() const { return skills_.size(); }

 private:
  using Key = std::pair<std::string, std::string>;  // (agentId, skillId)
  struct Transition {
    uint64_t at_ms;
    std::string status;
    const char* event;
  };
  struct Entry {
    // A few transitions (transitions_max): an array, not a deque, whose first block alone is
    // half a kilobyte for each of thousands of skills that mostly have one transition.
    std::vector<Transition> transitions;
    std::list<Key>::iterator order;  // its place in order_ (most recently changed last)
  };

  size_t transitions_max_;
  size_t skills_max_;
  std::map<Key, Entry> skills_;
  std::list<Key> order_;
};

}  // namespace skillnode::node::ui

#endif  // SKILLNODE_NODE_UI_HEALTH_HISTORY_H_

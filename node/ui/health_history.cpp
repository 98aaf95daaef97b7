#include "node/ui/health_history.h"

#include <cstddef>

#include "discovery/query.h"

namespace skillnode::node::ui {
namespace {

const char* EventName(discovery::RegistryEvent::Kind kind) {
  using Kind = discovery::RegistryEvent::Kind;
  switch (kind) {
    case Kind::kRegistered:
      return "registered";
    case Kind::kUpdated:
      return "updated";
    case Kind::kStatusChanged:
      return "status";
    case Kind::kUnregistered:
      return "unregistered";
    case Kind::kExpired:
      return "expired";
  }
  return "status";
}

}  // namespace

void HealthHistory::Record(const discovery::RegistryEvent& event, uint64_t wall_ms) {
  if (transitions_max_ == 0 || skills_max_ == 0) return;
  Key key{event.record.agent_id, event.record.skill_id};
  if (discovery::IsPrivate(event.record)) {
    // A registration that became private takes its public past with it.
    auto found = skills_.find(key);
    if (found != skills_.end()) {
      order_.erase(found->second.order);
      skills_.erase(found);
    }
    return;
  }
  auto found = skills_.find(key);
  if (found == skills_.end()) {
    if (skills_.size() >= skills_max_) {
      skills_.erase(order_.front());
      order_.pop_front();
    }
    order_.push_back(key);
    found = skills_.emplace(key, Entry{{}, std::prev(order_.end())}).first;
  } else {
    order_.splice(order_.end(), order_, found->second.order);
  }
  auto& transitions = found->second.transitions;
  transitions.push_back({wall_ms,
                         std::string(kademlia::store::SkillStatusName(event.record.status)),
                         EventName(event.kind)});
  if (transitions.size() > transitions_max_) {
    transitions.erase(
        transitions.begin(),
        transitions.begin() + static_cast<std::ptrdiff_t>(transitions.size() - transitions_max_));
  }
}

nlohmann::json HealthHistory::For(const std::string& agent_id, const std::string& skill_id) const {
  auto found = skills_.find(Key{agent_id, skill_id});
  if (found == skills_.end()) return nullptr;
  nlohmann::json transitions = nlohmann::json::array();
  for (const Transition& t : found->second.transitions) {
    transitions.push_back({{"at", t.at_ms}, {"status", t.status}, {"event", t.event}});
  }
  return {{"agentId", agent_id},
          {"skillId", skill_id},
          {"transitions", std::move(transitions)},
          {"limit", transitions_max_}};
}

}  // namespace skillnode::node::ui

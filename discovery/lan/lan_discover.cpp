// LanAgent's discovery half: answering SKILL_DISCOVER (spec section 3) and the search's LAN
// rounds. The rest of the agent is in lan_agent.cpp.
#include <algorithm>
#include <utility>

#include "discovery/lan/lan_agent.h"

namespace skillnode::discovery::lan {
namespace {

DiscoveredSkill DiscoveredOf(const kademlia::store::SkillRecord& record) {
  return DiscoveredSkill{record.skill_id, record.version, record.endpoint, record.capabilities,
                         record.scenes};
}

}  // namespace

void LanAgent::Answer(const Discover& discover, const transport::Endpoint& from) {
  SkillQuery query;
  // Each filter is one name, or empty for any (section 3.1).
  if (!discover.capability_filter.empty()) query.capabilities = {discover.capability_filter};
  if (!discover.scene_filter.empty()) query.scenes = {discover.scene_filter};
  if (!discover.type_filter.empty()) query.types = {discover.type_filter};
  std::vector<kademlia::store::SkillRecord> skills = registry_.Find(query);
  // Private skills are never answered on the LAN (docs/access.md).
  std::erase_if(skills,
                [](const kademlia::store::SkillRecord& record) { return IsPrivate(record); });
  if (skills.size() < config_.answer_skills_max) {
    for (auto& record : table_.Find(query, config_.answer_skills_max - skills.size())) {
      skills.push_back(std::move(record));
    }
  }
  if (skills.empty()) return;  // silence: another node may know
  ++stats_.discovers_answered;
  if (skills.size() > config_.answer_skills_max) skills.resize(config_.answer_skills_max);
  DiscoverResponse response;
  response.requester_id = discover.requester_id;
  response.timestamp_ms = wall_ms_();
  // Fill datagrams up to kLanSendMax (with room for a signature), never splitting a skill.
  constexpr size_t kSignatureRoom = 100;
  for (const auto& record : skills) {
    DiscoverResponse candidate = response;
    candidate.skills.push_back(DiscoveredOf(record));
    if (!Validate(candidate)) continue;  // a skill the seed's format cannot carry
    if (!response.skills.empty() && Encode(candidate).size() + kSignatureRoom > kLanSendMax) {
      Send(response, &from);
      response.skills.clear();
      candidate = response;
      candidate.skills.push_back(DiscoveredOf(record));
    }
    response = std::move(candidate);
  }
  if (!response.skills.empty()) Send(std::move(response), &from);
}

void LanAgent::OnResponse(const DiscoverResponse& response) {
  if (response.requester_id != requester_id_) return Drop("not_for_us");
  for (auto& [id, round] : rounds_) {
    SkillQuery query = round.query;
    // The seed's response carries no type: the responder filtered by it.
    const std::string type = query.types.size() == 1 ? query.types.front() : std::string();
    query.types.clear();
    for (const DiscoveredSkill& skill : response.skills) {
      kademlia::store::SkillRecord record;
      record.skill_id = skill.skill_id;
      record.version = skill.version;
      record.endpoint = skill.endpoint;
      record.capabilities = skill.capabilities;
      record.scenes = skill.scenes;
      record.skill_type = type;
      record.timestamp_ms = response.timestamp_ms;
      if (Matches(query, record)) round.found[{skill.skill_id, skill.endpoint}] = record;
    }
  }
}

std::vector<kademlia::store::SkillRecord> LanAgent::FindOnLan(const SkillQuery& query) const {
  return table_.Find(query, config_.answer_skills_max);
}

bool LanAgent::DiscoverOnLan(
    transport::TimePoint now, const SkillQuery& query,
    std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)> done) {
  if (!started_ || rounds_.size() >= config_.discovers_max) return false;
  Discover discover;
  discover.requester_id = requester_id_;
  // The seed's filters are one name each: ask for the first capability and scene (and the
  // type when there is one); the answers are filtered by the whole query when they arrive.
  discover.capability_filter = query.capabilities.empty() ? "" : query.capabilities.front();
  discover.scene_filter = query.scenes.empty() ? "" : query.scenes.front();
  discover.type_filter = query.types.size() == 1 ? query.types.front() : "";
  discover.timestamp_ms = wall_ms_();
  if (!Validate(discover)) return false;
  ++stats_.discover_rounds;
  Round& round = rounds_[next_round_++];
  round.query = query;
  round.deadline = now + config_.discover_window;
  round.done = std::move(done);
  Send(discover, nullptr);
  return true;
}

void LanAgent::FinishRounds(transport::TimePoint now, bool all) {
  std::vector<Round> due;
  for (auto it = rounds_.begin(); it != rounds_.end();) {
    if (all || it->second.deadline <= now) {
      due.push_back(std::move(it->second));
      it = rounds_.erase(it);
    } else {
      ++it;
    }
  }
  for (Round& round : due) {
    std::vector<kademlia::store::SkillRecord> records;
    for (auto& [id, record] : round.found) records.push_back(std::move(record));
    round.done(now, std::move(records));
  }
}

}  // namespace skillnode::discovery::lan

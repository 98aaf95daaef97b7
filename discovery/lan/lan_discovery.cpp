// LanDiscovery: answering SKILL_DISCOVER (spec section 3) and the search's LAN rounds.
#include "discovery/lan/lan_discovery.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::discovery::lan {
namespace {

// Room left in each response datagram for the signature the agent adds before sending.
constexpr size_t kSignatureRoom = 100;

DiscoveredSkill DiscoveredOf(const kademlia::store::SkillRecord& record) {
  return DiscoveredSkill{record.skill_id, record.version, record.endpoint, record.capabilities,
                         record.scenes};
}

}  // namespace

LanDiscovery::LanDiscovery(const LanDiscoveryConfig& config, std::string requester_id,
                           const Registry& registry, const LanTable& table)
    : config_(config), requester_id_(std::move(requester_id)), registry_(registry), table_(table) {
  // A response is matched to this node by its requester id: an empty one would match anyone's.
  assert(!requester_id_.empty());
}

std::vector<DiscoverResponse> LanDiscovery::Answer(const Discover& discover, uint64_t wall_ms) {
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
  if (skills.empty()) return {};  // silence: another node may know
  ++stats_.answered;
  if (skills.size() > config_.answer_skills_max) skills.resize(config_.answer_skills_max);
  std::vector<DiscoverResponse> out;
  DiscoverResponse response;
  response.requester_id = discover.requester_id;
  response.timestamp_ms = wall_ms;
  // Fill datagrams up to kLanSendMax (with room for a signature), never splitting a skill.
  for (const auto& record : skills) {
    DiscoverResponse candidate = response;
    candidate.skills.push_back(DiscoveredOf(record));
    if (!Validate(candidate)) continue;  // a skill the seed's format cannot carry
    if (!response.skills.empty() && Encode(candidate).size() + kSignatureRoom > kLanSendMax) {
      out.push_back(response);
      response.skills.clear();
      candidate = response;
      candidate.skills.push_back(DiscoveredOf(record));
    }
    response = std::move(candidate);
  }
  if (!response.skills.empty()) out.push_back(std::move(response));
  assert(std::all_of(out.begin(), out.end(),
                     [](const DiscoverResponse& r) { return !r.skills.empty(); }));
  return out;
}

std::vector<kademlia::store::SkillRecord> LanDiscovery::FindInTable(const SkillQuery& query) const {
  return table_.Find(query, config_.answer_skills_max);
}

std::optional<Discover> LanDiscovery::StartRound(transport::TimePoint now, const SkillQuery& query,
                                                 uint64_t wall_ms, Done done) {
  // FinishDue calls every round's callback.
  assert(done);
  if (rounds_.size() >= config_.discovers_max) return std::nullopt;
  Discover discover;
  discover.requester_id = requester_id_;
  // The seed's filters are one name each: ask for the first capability and scene (and the
  // type when there is one); the answers are filtered by the whole query when they arrive.
  discover.capability_filter = query.capabilities.empty() ? "" : query.capabilities.front();
  discover.scene_filter = query.scenes.empty() ? "" : query.scenes.front();
  discover.type_filter = query.types.size() == 1 ? query.types.front() : "";
  discover.timestamp_ms = wall_ms;
  if (!Validate(discover)) return std::nullopt;
  ++stats_.rounds_started;
  Round& round = rounds_[next_round_++];
  round.query = query;
  round.deadline = now + config_.discover_window;
  round.done = std::move(done);
  assert(rounds_.size() <= config_.discovers_max);
  return discover;
}

bool LanDiscovery::OnResponse(const DiscoverResponse& response) {
  if (response.requester_id != requester_id_) return false;
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
  return true;
}

void LanDiscovery::FinishDue(transport::TimePoint now) {
  // Taken out of rounds_ before any callback runs: a callback may start another round.
  std::vector<Round> due;
  for (auto it = rounds_.begin(); it != rounds_.end();) {
    if (it->second.deadline <= now) {
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

transport::TimePoint LanDiscovery::NextDeadline() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const auto& [id, round] : rounds_) next = std::min(next, round.deadline);
  return next;
}

}  // namespace skillnode::discovery::lan

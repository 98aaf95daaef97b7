// LanDiscovery: the query side of the LAN protocol (skill-discovery-protocol §3), for the
// LanAgent that owns it.
//
//   - Answers a SKILL_DISCOVER from this node's registrations and its LAN table, filtered as
//     §3.1 says (one name per filter), private skills left out, in as many
//     SKILL_DISCOVER_RESPONSEs as it takes to stay under kLanSendMax (never splitting a skill).
//   - Runs the search's SKILL_DISCOVER rounds: StartRound gives the SKILL_DISCOVER to send to
//     the group, each response for this node is filtered by the round's whole query, and at
//     the round's deadline FinishDue hands what was heard to the round's callback, once.
//
// It sends nothing: the agent signs and sends the messages it returns. Pure: the caller passes
// `now` and the wall clock. Reads the Registry and the LanTable it is given, which outlive it;
// not thread-safe.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_DISCOVERY_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_DISCOVERY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_table.h"
#include "discovery/query.h"
#include "discovery/registry/registry.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"

namespace skillnode::discovery::lan {

// The limits of the query side; the agent takes them from its LanConfig (same names there).
struct LanDiscoveryConfig {
  // How long a round waits for SKILL_DISCOVER_RESPONSEs.
  transport::Duration discover_window = transport::Millis(300);
  // Rounds waiting at once: one more is refused (the search goes on without the LAN round).
  size_t discovers_max = 64;
  // Skills one answer holds at most, over all its datagrams.
  size_t answer_skills_max = 256;
};

class LanDiscovery {
 public:
  using Done = std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)>;

  // `requester_id`: this node's name in its SKILL_DISCOVERs (and the responses meant for it).
  LanDiscovery(const LanDiscoveryConfig& config, std::string requester_id, const Registry& registry,
               const LanTable& table);
  LanDiscovery(const LanDiscovery&) = delete;
  LanDiscovery& operator=(const LanDiscovery&) = delete;

  // The SKILL_DISCOVER_RESPONSEs that answer `discover`, each holding whole skills; none when
  // nothing matches (silence: another node may know).
  std::vector<DiscoverResponse> Answer(const Discover& discover, uint64_t wall_ms);

  // The skills in the LAN table that match `query` (at most answer_skills_max).
  std::vector<kademlia::store::SkillRecord> FindInTable(const SkillQuery& query) const;

  // Starts a round for `query`: the SKILL_DISCOVER to send to the group, or nullopt when
  // discovers_max rounds are waiting or the query cannot be put in the seed's format. `done`
  // is called once, from FinishDue, with what was heard.
  std::optional<Discover> StartRound(transport::TimePoint now, const SkillQuery& query,
                                     uint64_t wall_ms, Done done);
  // Takes a SKILL_DISCOVER_RESPONSE into every waiting round; false when it answers another
  // requester.
  bool OnResponse(const DiscoverResponse& response);
  // Ends the rounds whose deadline is at or before `now`, calling their callbacks.
  void FinishDue(transport::TimePoint now);
  // The earliest deadline of a waiting round; kTimeNever when none waits.
  transport::TimePoint NextDeadline() const;

  size_t rounds_waiting() const { return rounds_.size(); }
  const std::string& requester_id() const { return requester_id_; }

  struct Stats {
    uint64_t answered = 0;        // SKILL_DISCOVERs that matched a skill
    uint64_t rounds_started = 0;  // SKILL_DISCOVER rounds of this node's searches
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Round {
    SkillQuery query;
    transport::TimePoint deadline = transport::kTimeNever;
    // What was heard, by (skillId, endpoint): a skill two nodes answered with is one.
    std::map<std::pair<std::string, std::string>, kademlia::store::SkillRecord> found;
    Done done;
  };

  LanDiscoveryConfig config_;
  std::string requester_id_;
  const Registry& registry_;
  const LanTable& table_;
  std::map<uint64_t, Round> rounds_;  // by start order: at most discovers_max
  uint64_t next_round_ = 1;
  Stats stats_;
};

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_DISCOVERY_H_

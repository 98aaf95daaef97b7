#include "node/api/skill_replicas_routes.h"

#include <cmath>
#include <optional>
#include <string>

#include "discovery/query.h"
#include "kademlia/identity.h"
#include "node/wall_clock.h"

namespace skillnode::node::api {
namespace {

nlohmann::json ReplicaJson(const kademlia::store::SignedRecord& signed_record,
                           const kademlia::store::RecordCopies& copies, uint64_t now_ms) {
  const kademlia::store::SkillRecord& record = signed_record.record;
  nlohmann::json holders = nlohmann::json::array();
  for (const kademlia::NodeId& holder : copies.holders) holders.push_back(holder.ToHex());
  nlohmann::json answer = {
      {"agentId", record.agent_id},
      {"provider", kademlia::NodeIdOf(record.publisher).ToHex()},
      {"version", record.version},
      {"sequence", record.sequence},
      {"ttlSeconds", record.ttl_seconds},
      {"copies", copies.holders.size() + (copies.held_here ? 1 : 0)},
      {"heldHere", copies.held_here},
      {"holders", std::move(holders)},
      {"secondsLeft", nullptr},
      {"expiresAt", nullptr},
  };
  if (copies.seconds_left) {
    answer["secondsLeft"] = *copies.seconds_left;
    answer["expiresAt"] = now_ms + uint64_t{*copies.seconds_left} * 1000;
  }
  return answer;
}

}  // namespace

void AddSkillReplicasRoute(Daemon& daemon, SkillService& skills) {
  daemon.router().Add(
      "GET", "/api/skills/{id}/replicas",
      [&daemon, &skills](const http::HttpRequest& request, http::Responder responder) {
        auth::AuthContext context;
        if (!skills.authenticator().Admit(request, responder, context)) return;
        if (!daemon.config().discovery.dht.enabled) {
          return responder.Error(503, "DHT_DISABLED", "the DHT is disabled on this node");
        }
        const std::string id = *request.Param("id");
        std::optional<std::string> agent = request.Query("agentId");
        if (agent && agent->empty()) agent.reset();  // "?agentId=": every provider
        kademlia::store::GetOptions options;
        options.copies = true;
        const bool started = daemon.dht().Get(
            daemon.Now(), kademlia::store::SkillKey(id), options,
            [responder, context, id, agent,
             replication = daemon.config().discovery.dht.replication_factor](
                const kademlia::store::GetResult& result) mutable {
              const uint64_t now_ms = WallClockMs();
              nlohmann::json replicas = nlohmann::json::array();
              for (size_t i = 0; i < result.records.size() && i < result.copies.size(); ++i) {
                const kademlia::store::SkillRecord& record = result.records[i]->record;
                if (record.tombstone || record.skill_id != id) continue;
                if (agent && record.agent_id != *agent) continue;
                if (!context.authenticated && discovery::IsPrivate(record)) continue;
                replicas.push_back(ReplicaJson(*result.records[i], result.copies[i], now_ms));
              }
              if (replicas.empty()) {
                nlohmann::json details = {{"skillId", id}};
                if (agent) details["agentId"] = *agent;
                return responder.Error(404, "DISC_002",
                                       "no record of skill " + id +
                                           (agent ? " of agent " + *agent : "") +
                                           " was found in the DHT",
                                       details);
              }
              responder.Json(200,
                             {{"skillId", id},
                              {"key", result.key.ToHex()},
                              {"replication", replication},
                              {"replicas", std::move(replicas)},
                              {"nodesAnswered", result.closest.size()},
                              {"messages", result.stats.messages},
                              {"durationMs",
                               std::round(transport::ToMillis(result.stats.duration) * 10) / 10}});
            });
        if (!started) {
          responder.Error(503, "BUSY", "too many lookups are running; try again",
                          {{"lookups_max", daemon.config().node.kademlia.lookups_max}});
        }
      });
}

}  // namespace skillnode::node::api

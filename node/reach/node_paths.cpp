// NodePaths (node_paths.h): GET /api/dht/path, the "punch" section and its metrics.
#include "node/reach/node_paths.h"

#include <string>
#include <utility>

namespace skillnode::node::reach {

using kademlia::reach::HolePuncher;

NodePaths::NodePaths(Daemon& daemon) : daemon_(daemon) {
  daemon_.router().Add("GET", "/api/dht/path",
                       [this](const http::HttpRequest& request, http::Responder responder) {
                         HandlePath(request, std::move(responder));
                       });
  daemon_.AddNodeInfo("punch", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
}

nlohmann::json NodePaths::ConnectionJson(const HolePuncher::Connection& connection) {
  nlohmann::json answer = {
      {"id", connection.id.ToHex()},
      {"path", std::string(kademlia::reach::PathName(connection.path))},
      {"endpoint", connection.endpoint ? nlohmann::json(connection.endpoint->ToString())
                                       : nlohmann::json(nullptr)},
      {"relay", nullptr},
      {"rttMs", nullptr},
  };
  if (connection.relay) {
    answer["relay"] = {{"id", connection.relay->id.ToHex()},
                       {"endpoint", connection.relay->endpoint.ToString()}};
  }
  if (connection.path != HolePuncher::Path::kUnreachable) {
    answer["rttMs"] = transport::ToMillis(connection.rtt);
  }
  return answer;
}

void NodePaths::HandlePath(const http::HttpRequest& request, http::Responder responder) {
  const auto text = request.Query("id");
  if (!text) {
    return responder.Error(400, "BAD_REQUEST",
                           "query parameter 'id' is required (a node id: 64 hex digits)",
                           {{"field", "id"}});
  }
  auto id = kademlia::NodeId::FromHex(*text);
  if (!id) {
    return responder.Error(400, "BAD_REQUEST", "id: " + id.error().message,
                           {{"field", "id"}, {"value", *text}});
  }
  if (!daemon_.config().discovery.dht.enabled) {
    return responder.Error(503, "DHT_DISABLED", "the DHT is disabled on this node");
  }
  if (*id == daemon_.node().id()) {
    return responder.Error(400, "BAD_REQUEST", "id: that is this node's own id",
                           {{"field", "id"}, {"value", *text}});
  }
  const bool started = daemon_.node().Connect(
      daemon_.Now(), *id, [responder](const HolePuncher::Connection& connection) mutable {
        responder.Json(200, ConnectionJson(connection));
      });
  if (!started) {
    responder.Error(503, "BUSY", "too many paths are being looked for; try again",
                    {{"connectsMax", daemon_.config().node.kademlia.punch.connects_max}});
  }
}

nlohmann::json NodePaths::Info() const {
  const kademlia::reach::PunchStats& stats = daemon_.node().puncher().stats();
  return {
      {"running", daemon_.node().puncher().running()},
      {"connects", stats.connects},
      {"direct", stats.direct},
      {"punched", stats.punched},
      {"relayed", stats.relayed},
      {"unreachable", stats.unreachable},
      {"punchesSent", stats.punches_sent},
      {"punchesFailed", stats.punches_failed},
      {"punchesAnswered", stats.punches_answered},
      {"punchesRefused", stats.punches_refused},
  };
}

void NodePaths::WriteMetrics(http::PrometheusWriter& out) const {
  const kademlia::reach::PunchStats& stats = daemon_.node().puncher().stats();
  const auto d = [](uint64_t value) { return static_cast<double>(value); };
  out.CounterBy("skillnode_connects_total",
                "Paths to nodes by id this node looked for (GET /api/dht/path), by the path found "
                "(docs/protocol.md Hole punching)",
                "path",
                {{"direct", d(stats.direct)},
                 {"punched", d(stats.punched)},
                 {"relayed", d(stats.relayed)},
                 {"unreachable", d(stats.unreachable)}});
  out.CounterBy("skillnode_punches_total",
                "PUNCHes: sent by this node through a client's relay, failed (no PUNCHED or no "
                "direct PONG after it), answered by this node as a client, refused past its rate",
                "result",
                {{"sent", d(stats.punches_sent)},
                 {"failed", d(stats.punches_failed)},
                 {"answered", d(stats.punches_answered)},
                 {"refused", d(stats.punches_refused)}});
}

}  // namespace skillnode::node::reach

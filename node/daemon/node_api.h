// NodeApi: the daemon's own HTTP routes, about the node itself: GET /health, GET /api/node,
// GET /metrics, GET /api/dht/lookup and GET /api/dht/contacts (docs/daemon.md). Owned by the
// Daemon, which hands it references to the parts it reports on; the other parts of the node add
// their sections to /api/node (AddInfo) and their families to /metrics (AddMetrics).
//
// GET /api/node names its fields in camelCase, as the rest of the HTTP API does (docs/api.md).
// Its fields, the daemon's own and the sections', were partly snake_case ("network_id",
// "uptime_s", "running_max", ...): this release (0.1.0) emits both names (kNodeInfoAliases,
// docs/daemon.md) and the next one drops the old names.
// Loop thread only.
#ifndef SKILLNODE_NODE_DAEMON_NODE_API_H_
#define SKILLNODE_NODE_DAEMON_NODE_API_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bootstrap/bootstrapper.h"
#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "node/config/config.h"
#include "node/daemon/config_reloader.h"
#include "node/daemon/https_listener.h"
#include "node/daemon/node_info_aliases.h"
#include "node/daemon/state_saver.h"
#include "node/http/http_metrics.h"
#include "node/http/http_server.h"
#include "node/http/prometheus.h"
#include "node/http/router.h"
#include "node/lan/dns_sd.h"
#include "node/state/data_dir.h"
#include "transport/uv/uv_env.h"

namespace skillnode::node::daemon {

// This build's version: GET /api/node, /metrics and the DNS-SD TXT record.
constexpr const char* kVersion = "0.1.0";

using NodeInfoSection = std::function<nlohmann::json()>;
using MetricsSection = std::function<void(http::PrometheusWriter&)>;

class NodeApi {
 public:
  // What the routes report on; every part outlives the NodeApi.
  struct Parts {
    const config::Config& config;  // the running configuration (a reload changes it in place)
    const state::DataDir& data_dir;
    transport::uv::UvEnv& env;
    kademlia::Node& node;
    kademlia::store::SkillDht& dht;
    const bootstrap::Bootstrapper& bootstrapper;
    const lan::DnsSdAdvertiser& dnssd;
    const http::HttpMetrics& http_metrics;
    const http::HttpServer& http;
    const HttpsListener& https;
    const StateSaver& saver;
    const ConfigReloader& reloader;
    transport::TimePoint started_at;
  };

  explicit NodeApi(Parts parts) : parts_(std::move(parts)) {}
  NodeApi(const NodeApi&) = delete;
  NodeApi& operator=(const NodeApi&) = delete;

  // Adds the routes above to `router`.
  void AddTo(http::Router& router);
  // Adds `key` to the GET /api/node object.
  void AddInfo(std::string key, NodeInfoSection section);
  // Appends families to GET /metrics.
  void AddMetrics(MetricsSection section) { metrics_sections_.push_back(std::move(section)); }

  // The HTTP API's address ("http://127.0.0.1:7070"; the HTTPS one when plain HTTP is off).
  std::string http_url() const;
  // The GET /api/node document and the GET /metrics text.
  nlohmann::json NodeInfo() const;
  std::string Metrics() const;

 private:
  nlohmann::json Addresses() const;
  nlohmann::json DhtInfo() const;
  void HandleLookup(const http::HttpRequest& request, http::Responder responder);

  const Parts parts_;
  std::vector<std::pair<std::string, NodeInfoSection>> info_sections_;
  std::vector<MetricsSection> metrics_sections_;
};

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_NODE_API_H_

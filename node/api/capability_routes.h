// CapabilityRoutes: GET /api/v1/discovery/capabilities (discovery-api-capabilities.md; docs/
// api.md "Capability discovery"): the agents, reasoners and skills this node knows, filtered,
// paged, in JSON, XML or compact form.
//
// Sources: the skills registered with this node (Registry, source "local") and its LAN table
// (the Searcher's LAN stage, "lan"), kept in a read-through snapshot
// (discovery/capabilities/capability_snapshot.h); every registry change (registration,
// update, heartbeat status change, unregistration, expiry) marks its agent, which the next
// request rebuilds in place, so a change is visible on the very next call and costs one
// agent's items; the LAN table is read again after kCapabilityCacheTtl. With capability=, scene=
// or q= (the word search's free text, this node's addition) the request goes through
// Searcher::Search instead (local, LAN, cache, DHT, SkillCenter), and each item says which stage
// found it; those answers are not kept here (the Searcher caches its own).
//
// Access (docs/access.md): the request is admitted through the Authenticator; without a valid
// token no private skill is counted or shown. Parameters are read once from the raw query; a
// bad or unknown one is answered 400 invalid_parameter naming it, what was sent and what is
// allowed, through Responder::Error. Loop thread only.
#ifndef SKILLNODE_NODE_API_CAPABILITY_ROUTES_H_
#define SKILLNODE_NODE_API_CAPABILITY_ROUTES_H_

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "discovery/capabilities/capability_render.h"
#include "discovery/capabilities/capability_snapshot.h"
#include "node/api/capability_metrics.h"
#include "node/daemon.h"
#include "node/skill_service.h"

namespace skillnode::node::api {

// How long a snapshot answers before what it holds of the LAN table is read again (§4.2: a
// 30-second TTL). Registry changes reach it at once, through the observer.
constexpr transport::Duration kCapabilityCacheTtl = transport::Seconds(30);
// Changed agents rebuilt in place at the next request; past this many the snapshot is dropped
// and built whole.
constexpr size_t kDirtyAgentsMax = 64;
// Filter selections kept for the snapshot (discovery/capabilities/capability_render.h); past
// this many they are all dropped. At most one pointer per agent each.
constexpr size_t kSelectionsMax = 64;

class CapabilityRoutes {
 public:
  // Adds the route, a registry observer and the metrics; `daemon` and `skills` must outlive it.
  CapabilityRoutes(Daemon& daemon, SkillService& skills);
  CapabilityRoutes(const CapabilityRoutes&) = delete;
  CapabilityRoutes& operator=(const CapabilityRoutes&) = delete;

 private:
  void Handle(const http::HttpRequest& request, http::Responder responder);
  // The network answer of a capability= / scene= / q= request (`text`: q, may be empty).
  void HandleThroughSearch(const discovery::capabilities::CapabilityRequest& parsed,
                           std::string text, bool authenticated, http::Responder responder,
                           size_t format, std::chrono::steady_clock::time_point started);
  // The cached snapshot: built when there is none; the agents changed since rebuilt in place
  // (and, past the TTL, those of the LAN table).
  const discovery::capabilities::CapabilitySnapshot& Snapshot();
  // This node's records (local first, then the LAN table's), of one agent or of all.
  std::vector<discovery::search::Found> Records(const std::optional<std::string>& agent_id) const;
  void Answer(http::Responder& responder,
              const discovery::capabilities::CapabilitySnapshot& snapshot,
              const discovery::capabilities::Selection& selection,
              const discovery::capabilities::CapabilityRequest& parsed, bool authenticated,
              size_t format, std::chrono::steady_clock::time_point started);

  Daemon& daemon_;
  SkillService& skills_;
  std::optional<discovery::capabilities::CapabilitySnapshot> snapshot_;
  transport::TimePoint snapshot_built_ = transport::kTimeZero;
  uint64_t lan_changes_ = 0;  // the LAN table's changes when its agents were last read
  std::set<std::string, std::less<>> dirty_;  // agents changed since the snapshot was built
  std::map<std::string, discovery::capabilities::Selection, std::less<>> selections_;
  CapabilityMetrics metrics_;
};

// The query string's (name, value) pairs, percent- and '+'-decoded; at most `pairs_max` + 1
// of them are read (the parser refuses more). nullopt (with the raw name in `bad`) for a
// malformed escape.
std::optional<std::vector<std::pair<std::string, std::string>>> DecodeQuery(std::string_view query,
                                                                            size_t pairs_max,
                                                                            std::string& bad);

// Takes this node's `q` (the word search's free text, query_text.h; not a parameter of the
// capability document) out of `params`, every copy of it, so that the document's parser never
// sees it: the first one's text checked (empty when absent or only white space), or the 400's
// details naming q. An unknown parameter's `allowed` list then needs q added: WithQ.
[[nodiscard]] tl::expected<std::string, discovery::capabilities::ParamError> TakeQueryText(
    std::vector<std::pair<std::string, std::string>>& params);
// `error` with "q" among its allowed parameters when it lists every known parameter.
discovery::capabilities::ParamError WithQ(discovery::capabilities::ParamError error);

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_CAPABILITY_ROUTES_H_

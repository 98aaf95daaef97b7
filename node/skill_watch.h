// SkillWatch: GET /api/v1/watch?scene=|capability=|skill=, a Server-Sent Events stream of the
// skills under one DHT key (a scene, a capability or a skill id), fed by DHT listen through the
// Searcher.
//
// Events: `ready` once ({"key", "scene"|"capability"|"skill"}), then `added`, `changed` and
// `removed`, each with the skill as GET /api/skills shows it (source "dht"; a removed one with
// its "reason"). The current skills arrive as `added` first. A comment line every 15 s keeps
// the connection visibly alive (node/http/event_stream.h). Without a valid bearer token no
// private skill is shown; with one, this node's private skills under the key are added to the
// stream from the registry (they never reach the DHT): at once, then as SkillService passes
// each registry change to OnRegistryEvent.
//
// Refusals: 400 BAD_REQUEST unless exactly one non-empty parameter is given; 503 BUSY when the
// node has its maximum of open streams (SearchConfig::watchers_max); an `error` event BUSY when
// it listens on its maximum of DHT keys.
//
// What a request and an event become is read by the pure functions below (unit-tested without
// a node). The class holds references to what SkillService owns, which must outlive it, and
// the authenticated streams it feeds (each also holds one of the searcher's watches, so there
// are at most watchers_max). Loop thread only.
#ifndef SKILLNODE_NODE_SKILL_WATCH_H_
#define SKILLNODE_NODE_SKILL_WATCH_H_

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "kademlia/key.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht_types.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"
#include "node/http/event_stream.h"
#include "node/http/http_message.h"
#include "node/http/responder.h"
#include "node/http/router.h"

namespace skillnode::node {

// What a stream watches: the skills of a scene, those with a capability, or one skill id.
enum class WatchKind { kScene, kCapability, kSkill };
std::string_view WatchKindName(WatchKind kind);  // "scene", "capability", "skill"

struct WatchTarget {
  WatchKind kind = WatchKind::kScene;
  std::string value;
  // The DHT key the skills under the target are published at.
  kademlia::Key Key() const;
  // Whether `record` is under the target (has the scene or capability, or is the skill).
  bool Covers(const kademlia::store::SkillRecord& record) const;
};

// A refused watch request: the message as answered, and the parameter its details name.
struct WatchRefusal {
  std::string field;
  std::string message;
};
// The one parameter of a watch request: scene=, capability= or skill=, not empty.
[[nodiscard]] tl::expected<WatchTarget, WatchRefusal> WatchTargetFromParams(
    const http::HttpRequest& request);

// One event of a watch stream: its name (added, changed, removed) and the skill's JSON.
struct WatchEvent {
  std::string_view name;
  nlohmann::json skill;
};
// A change under the watched DHT key as the stream shows it (source "dht", a removal with its
// reason, EXPIRED when the record expired or vanished); nullopt for a private skill on a
// stream without a valid token.
std::optional<WatchEvent> DhtWatchEvent(const kademlia::store::ListenEvent& event,
                                        bool authenticated);
// A registry change as authenticated streams show it (source "local"; an update that makes a
// skill private is `added`, an unregistration or expiry `removed` with its reason); nullopt
// unless the skill is private (the others reach the streams through the DHT).
std::optional<WatchEvent> PrivateWatchEvent(const discovery::RegistryEvent& event);

class SkillWatch {
 public:
  // Every reference must outlive this.
  SkillWatch(Daemon& daemon, discovery::Registry& registry, discovery::search::Searcher& searcher,
             auth::Authenticator& auth);
  SkillWatch(const SkillWatch&) = delete;
  SkillWatch& operator=(const SkillWatch&) = delete;

  // Adds GET /api/v1/watch to `router`; once.
  void AddRoutes(http::Router& router);
  // Sends a change of a private registration to the authenticated streams watching it.
  void OnRegistryEvent(const discovery::RegistryEvent& event);

 private:
  // An authenticated stream, fed this node's private skills under its target.
  struct PrivateWatch {
    WatchTarget target;
    std::shared_ptr<http::EventStream> stream;
  };

  void HandleWatch(const http::HttpRequest& request, http::Responder responder);
  // Adds `stream` to the authenticated streams and sends it the private skills under `target`;
  // `watch` (the searcher's) ends with it.
  void WatchPrivate(uint64_t watch, const WatchTarget& target,
                    const std::shared_ptr<http::EventStream>& stream);

  Daemon& daemon_;
  discovery::Registry& registry_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
  std::map<uint64_t, PrivateWatch> private_watches_;
  uint64_t next_private_watch_ = 1;
};

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SKILL_WATCH_H_

// GET /api/v1/watch: a Server-Sent Events stream of the skills under one DHT key (a scene, a
// capability or a skill id), fed by DHT listen through the Searcher.
//
// Events: `ready` once ({"key", "scene"|"capability"|"skill"}), then `added`, `changed` and
// `removed`, each with the skill as GET /api/skills shows it (source "dht"). The current skills
// arrive as `added` first. A comment line every 15 s keeps the connection visibly alive.
// Without a valid bearer token no private skill is shown; with one, this node's private skills
// under the key are added to the stream from the registry (they never reach the DHT).
#include <algorithm>

#include "node/skill_service.h"

namespace skillnode::node {
namespace {

// Whether `record` is under the watched scene, capability or skill id.
bool Under(const kademlia::store::SkillRecord& record, const std::string& kind,
           const std::string& value) {
  const auto has = [&value](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  if (kind == "scene") return has(record.scenes);
  if (kind == "capability") return has(record.capabilities);
  return record.skill_id == value;
}

}  // namespace

void SkillService::HandleWatch(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  std::optional<kademlia::Key> key;
  std::string kind, value;
  size_t given = 0;
  for (const char* name : {"scene", "capability", "skill"}) {
    auto text = request.Query(name);
    if (!text) continue;
    ++given;
    if (text->empty()) {
      return responder.Error(400, "BAD_REQUEST", std::string(name) + ": is empty",
                             {{"field", name}});
    }
    kind = name;
    value = *text;
  }
  if (given != 1) {
    return responder.Error(400, "BAD_REQUEST",
                           "give exactly one of the query parameters scene, capability, skill",
                           {{"field", "scene"}});
  }
  if (kind == "scene") key = kademlia::store::SceneKey(value);
  if (kind == "capability") key = kademlia::store::CapabilityKey(value);
  if (kind == "skill") key = kademlia::store::SkillKey(value);
  if (searcher_.watchers() >= discovery::search::SearchConfig{}.watchers_max) {
    return responder.Error(503, "BUSY", "this node has its maximum of open watch streams",
                           {{"watchers_max", discovery::search::SearchConfig{}.watchers_max}});
  }
  auto stream = std::make_shared<http::EventStream>(responder.StartEventStream());
  if (!stream->open()) return;
  stream->Send("ready", {{"key", key->ToHex()}, {kind, value}});
  const uint64_t watch = searcher_.Watch(
      daemon_.Now(), *key, [stream, context](const kademlia::store::ListenEvent& event) {
        // This node never publishes a private skill; one from elsewhere is hidden all the same.
        if (!context.authenticated && discovery::IsPrivate(event.record.record)) return;
        const char* name = event.kind == kademlia::store::ListenEvent::Kind::kAdded     ? "added"
                           : event.kind == kademlia::store::ListenEvent::Kind::kChanged ? "changed"
                                                                                        : "removed";
        nlohmann::json skill = discovery::SkillJson(event.record.record, discovery::Source::kDht);
        if (event.kind == kademlia::store::ListenEvent::Kind::kRemoved) {
          skill["reason"] = event.reason == kademlia::store::UnregisterReason::kNone
                                ? std::string_view("EXPIRED")
                                : kademlia::store::UnregisterReasonName(event.reason);
        }
        stream->Send(name, skill);
      });
  if (watch == 0) {
    stream->Send("error",
                 {{"error", "BUSY"}, {"message", "this node listens on its maximum of DHT keys"}});
    stream->End();
    return;
  }
  if (!context.authenticated) {
    stream->OnClosed([this, watch] { searcher_.Unwatch(watch); });
    return;
  }
  const uint64_t private_watch = next_private_watch_++;
  private_watches_.emplace(private_watch, PrivateWatch{kind, value, stream});
  for (const kademlia::store::SkillRecord& record : registry_.Records()) {
    if (discovery::IsPrivate(record) && Under(record, kind, value)) {
      stream->Send("added", discovery::SkillJson(record, discovery::Source::kLocal));
    }
  }
  stream->OnClosed([this, watch, private_watch] {
    searcher_.Unwatch(watch);
    private_watches_.erase(private_watch);
  });
}

void SkillService::NotifyPrivateWatchers(const discovery::RegistryEvent& event) {
  using Kind = discovery::RegistryEvent::Kind;
  const kademlia::store::SkillRecord& record = event.record;
  if (!discovery::IsPrivate(record) || private_watches_.empty()) return;
  const char* name = "changed";
  if (event.kind == Kind::kRegistered || (event.kind == Kind::kUpdated && !event.was_private)) {
    name = "added";
  } else if (event.kind == Kind::kUnregistered || event.kind == Kind::kExpired) {
    name = "removed";
  }
  nlohmann::json skill = discovery::SkillJson(record, discovery::Source::kLocal);
  if (record.tombstone) {
    skill["reason"] = event.kind == Kind::kExpired
                          ? std::string_view("EXPIRED")
                          : kademlia::store::UnregisterReasonName(record.reason);
  }
  // Copies: a stream that closes while being written to leaves the map.
  std::vector<std::shared_ptr<http::EventStream>> streams;
  for (const auto& [id, watch] : private_watches_) {
    if (Under(record, watch.kind, watch.value)) streams.push_back(watch.stream);
  }
  for (const auto& stream : streams) stream->Send(name, skill);
}

}  // namespace skillnode::node

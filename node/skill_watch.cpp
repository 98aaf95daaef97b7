// GET /api/v1/watch: a Server-Sent Events stream of the skills under one DHT key (a scene, a
// capability or a skill id), fed by DHT listen through the Searcher.
//
// Events: `ready` once ({"key", "scene"|"capability"|"skill"}), then `added`, `changed` and
// `removed`, each with the skill as GET /api/skills shows it (source "dht"). The current skills
// arrive as `added` first. A comment line every 15 s keeps the connection visibly alive.
#include "node/skill_service.h"

namespace skillnode::node {

void SkillService::HandleWatch(const HttpRequest& request, Responder responder) {
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
  if (kind == "scene") key = kademlia::SceneKey(value);
  if (kind == "capability") key = kademlia::CapabilityKey(value);
  if (kind == "skill") key = kademlia::SkillKey(value);
  if (searcher_.watchers() >= discovery::SearchConfig{}.watchers_max) {
    return responder.Error(503, "BUSY", "this node has its maximum of open watch streams",
                           {{"watchers_max", discovery::SearchConfig{}.watchers_max}});
  }
  auto stream = std::make_shared<EventStream>(responder.StartEventStream());
  if (!stream->open()) return;
  stream->Send("ready", {{"key", key->ToHex()}, {kind, value}});
  const uint64_t watch =
      searcher_.Watch(daemon_.Now(), *key, [stream](const kademlia::ListenEvent& event) {
        const char* name = event.kind == kademlia::ListenEvent::Kind::kAdded     ? "added"
                           : event.kind == kademlia::ListenEvent::Kind::kChanged ? "changed"
                                                                                 : "removed";
        nlohmann::json skill = discovery::SkillJson(event.record.record, discovery::Source::kDht);
        if (event.kind == kademlia::ListenEvent::Kind::kRemoved) {
          skill["reason"] = event.reason == kademlia::UnregisterReason::kNone
                                ? std::string_view("EXPIRED")
                                : kademlia::UnregisterReasonName(event.reason);
        }
        stream->Send(name, skill);
      });
  if (watch == 0) {
    stream->Send("error",
                 {{"error", "BUSY"}, {"message", "this node listens on its maximum of DHT keys"}});
    stream->End();
    return;
  }
  stream->OnClosed([this, watch] { searcher_.Unwatch(watch); });
}

}  // namespace skillnode::node

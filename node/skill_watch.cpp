// SkillWatch (skill_watch.h): the watch stream's route, its private side, and what a request
// and an event become.
#include "node/skill_watch.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

#include "discovery/query.h"
#include "discovery/skill_json.h"

namespace skillnode::node {
namespace {

constexpr WatchKind kWatchKinds[] = {WatchKind::kScene, WatchKind::kCapability, WatchKind::kSkill};

}  // namespace

std::string_view WatchKindName(WatchKind kind) {
  switch (kind) {
    case WatchKind::kScene:
      return "scene";
    case WatchKind::kCapability:
      return "capability";
    case WatchKind::kSkill:
      return "skill";
  }
  assert(false && "a WatchKind has a name");
  return "";
}

kademlia::Key WatchTarget::Key() const {
  switch (kind) {
    case WatchKind::kScene:
      return kademlia::store::SceneKey(value);
    case WatchKind::kCapability:
      return kademlia::store::CapabilityKey(value);
    case WatchKind::kSkill:
      return kademlia::store::SkillKey(value);
  }
  assert(false && "a WatchKind has a key");
  return kademlia::store::SkillKey(value);
}

bool WatchTarget::Covers(const kademlia::store::SkillRecord& record) const {
  const auto has = [this](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  switch (kind) {
    case WatchKind::kScene:
      return has(record.scenes);
    case WatchKind::kCapability:
      return has(record.capabilities);
    case WatchKind::kSkill:
      return record.skill_id == value;
  }
  return false;
}

tl::expected<WatchTarget, WatchRefusal> WatchTargetFromParams(const http::HttpRequest& request) {
  WatchTarget target;
  size_t given = 0;
  for (const WatchKind kind : kWatchKinds) {
    const std::string name(WatchKindName(kind));
    auto text = request.Query(name);
    if (!text) continue;
    ++given;
    if (text->empty()) return tl::unexpected(WatchRefusal{name, name + ": is empty"});
    target.kind = kind;
    target.value = *text;
  }
  if (given != 1) {
    return tl::unexpected(
        WatchRefusal{"scene", "give exactly one of the query parameters scene, capability, skill"});
  }
  return target;
}

std::optional<WatchEvent> DhtWatchEvent(const kademlia::store::ListenEvent& event,
                                        bool authenticated) {
  using Kind = kademlia::store::ListenEvent::Kind;
  // This node never publishes a private skill; one from elsewhere is hidden all the same.
  if (!authenticated && discovery::IsPrivate(event.record.record)) return std::nullopt;
  WatchEvent out;
  out.name = event.kind == Kind::kAdded     ? "added"
             : event.kind == Kind::kChanged ? "changed"
                                            : "removed";
  out.skill = discovery::SkillJson(event.record.record, discovery::Source::kDht);
  if (event.kind == Kind::kRemoved) {
    out.skill["reason"] = event.reason == kademlia::store::UnregisterReason::kNone
                              ? std::string_view("EXPIRED")
                              : kademlia::store::UnregisterReasonName(event.reason);
  }
  return out;
}

std::optional<WatchEvent> PrivateWatchEvent(const discovery::RegistryEvent& event) {
  using Kind = discovery::RegistryEvent::Kind;
  const kademlia::store::SkillRecord& record = event.record;
  if (!discovery::IsPrivate(record)) return std::nullopt;
  WatchEvent out;
  out.name = "changed";
  if (event.kind == Kind::kRegistered || (event.kind == Kind::kUpdated && !event.was_private)) {
    out.name = "added";
  } else if (event.kind == Kind::kUnregistered || event.kind == Kind::kExpired) {
    out.name = "removed";
  }
  out.skill = discovery::SkillJson(record, discovery::Source::kLocal);
  if (record.tombstone) {
    out.skill["reason"] = event.kind == Kind::kExpired
                              ? std::string_view("EXPIRED")
                              : kademlia::store::UnregisterReasonName(record.reason);
  }
  return out;
}

SkillWatch::SkillWatch(Daemon& daemon, discovery::Registry& registry,
                       discovery::search::Searcher& searcher, auth::Authenticator& auth)
    : daemon_(daemon), registry_(registry), searcher_(searcher), auth_(auth) {}

void SkillWatch::AddRoutes(http::Router& router) {
  router.Add("GET", "/api/v1/watch",
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleWatch(request, std::move(responder));
             });
}

void SkillWatch::HandleWatch(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto target = WatchTargetFromParams(request);
  if (!target) {
    return responder.Error(400, "BAD_REQUEST", target.error().message,
                           {{"field", target.error().field}});
  }
  const kademlia::Key key = target->Key();
  const size_t watchers_max = discovery::search::SearchConfig{}.watchers_max;
  if (searcher_.watchers() >= watchers_max) {
    return responder.Error(503, "BUSY", "this node has its maximum of open watch streams",
                           {{"watchers_max", watchers_max}});
  }
  auto stream = std::make_shared<http::EventStream>(responder.StartEventStream());
  if (!stream->open()) return;
  stream->Send("ready",
               {{"key", key.ToHex()}, {std::string(WatchKindName(target->kind)), target->value}});
  const bool authenticated = context.authenticated;
  const uint64_t watch = searcher_.Watch(
      daemon_.Now(), key, [stream, authenticated](const kademlia::store::ListenEvent& event) {
        if (auto shown = DhtWatchEvent(event, authenticated))
          stream->Send(shown->name, shown->skill);
      });
  if (watch == 0) {
    stream->Send("error",
                 {{"error", "BUSY"}, {"message", "this node listens on its maximum of DHT keys"}});
    stream->End();
    return;
  }
  if (!authenticated) {
    stream->OnClosed([this, watch] { searcher_.Unwatch(watch); });
    return;
  }
  WatchPrivate(watch, *target, stream);
}

void SkillWatch::WatchPrivate(uint64_t watch, const WatchTarget& target,
                              const std::shared_ptr<http::EventStream>& stream) {
  const uint64_t private_watch = next_private_watch_++;
  private_watches_.emplace(private_watch, PrivateWatch{target, stream});
  assert(private_watches_.size() <= searcher_.watchers() &&
         "each authenticated stream holds one of the searcher's watches (watchers_max)");
  for (const kademlia::store::SkillRecord& record : registry_.Records()) {
    if (discovery::IsPrivate(record) && target.Covers(record)) {
      stream->Send("added", discovery::SkillJson(record, discovery::Source::kLocal));
    }
  }
  stream->OnClosed([this, watch, private_watch] {
    searcher_.Unwatch(watch);
    private_watches_.erase(private_watch);
  });
}

void SkillWatch::OnRegistryEvent(const discovery::RegistryEvent& event) {
  if (private_watches_.empty()) return;
  const std::optional<WatchEvent> shown = PrivateWatchEvent(event);
  if (!shown) return;
  // Copies: a stream that closes while being written to leaves the map.
  std::vector<std::shared_ptr<http::EventStream>> streams;
  for (const auto& [id, watch] : private_watches_) {
    if (watch.target.Covers(event.record)) streams.push_back(watch.stream);
  }
  for (const auto& stream : streams) stream->Send(shown->name, shown->skill);
}

}  // namespace skillnode::node

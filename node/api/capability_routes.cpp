#include "node/api/capability_routes.h"

#include "discovery/ascii.h"
#include "discovery/capabilities/capability_render.h"
#include "node/api/query_text.h"
#include "node/spd_logger.h"
#include "node/utf8_text.h"
#include "node/wall_clock.h"

namespace skillnode::node::api {
namespace {

using discovery::capabilities::CapabilityRequest;
using discovery::capabilities::CapabilitySnapshot;
using discovery::capabilities::Format;
using SteadyTime = std::chrono::steady_clock::time_point;

double SecondsSince(SteadyTime started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// The metrics' format index of a request's format parameter (3: unknown).
size_t FormatIndex(const std::vector<std::pair<std::string, std::string>>& params) {
  for (const auto& [name, value] : params) {
    if (name != "format") continue;
    const std::string lower = discovery::AsciiLower(value);
    for (size_t i = 0; i < 3; ++i) {
      if (lower == CapabilityMetrics::kFormats[i]) return i;
    }
    return 3;
  }
  return 0;  // json, the default
}

void InvalidParameter(http::Responder& responder,
                      const discovery::capabilities::ParamError& error) {
  responder.Error(
      400, "invalid_parameter", error.message,
      {{"parameter", error.parameter}, {"provided", error.provided}, {"allowed", error.allowed}});
}

}  // namespace

std::optional<std::vector<std::pair<std::string, std::string>>> DecodeQuery(std::string_view query,
                                                                            size_t pairs_max,
                                                                            std::string& bad) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty() && out.size() <= pairs_max) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    auto name = http::PercentDecode(pair.substr(0, eq), true);
    auto value = eq == std::string_view::npos ? std::optional<std::string>(std::string())
                                              : http::PercentDecode(pair.substr(eq + 1), true);
    if (!name || !value) {
      bad = std::string(pair.substr(0, eq));
      return std::nullopt;
    }
    out.emplace_back(std::move(*name), std::move(*value));
  }
  return out;
}

tl::expected<std::string, discovery::capabilities::ParamError> TakeQueryText(
    std::vector<std::pair<std::string, std::string>>& params) {
  std::optional<std::string> first;
  std::erase_if(params, [&first](const std::pair<std::string, std::string>& param) {
    if (param.first != "q") return false;
    if (!first) first = param.second;
    return true;
  });
  if (!first) return std::string();
  auto text = CheckQueryText(*first);
  if (!text) {
    // What was sent goes back in the JSON answer, which needs UTF-8.
    std::string provided = IsUtf8(*first) ? *first : "(not UTF-8)";
    return tl::unexpected(
        discovery::capabilities::ParamError{"q", std::move(provided), {}, "q " + text.error()});
  }
  return std::move(*text);
}

discovery::capabilities::ParamError WithQ(discovery::capabilities::ParamError error) {
  if (error.allowed == discovery::capabilities::KnownParams()) error.allowed.emplace_back("q");
  return error;
}

CapabilityRoutes::CapabilityRoutes(Daemon& daemon, SkillService& skills)
    : daemon_(daemon), skills_(skills) {
  daemon_.router().Add("GET", "/api/v1/discovery/capabilities",
                       [this](const http::HttpRequest& request, http::Responder responder) {
                         Handle(request, std::move(responder));
                       });
  // Every change of a registration (status changes too: they change health) drops the
  // snapshot, so the next call sees it.
  skills_.registry().AddObserver([this](const discovery::RegistryEvent& event) {
    if (!snapshot_) return;
    if (dirty_.size() >= kDirtyAgentsMax) {
      snapshot_.reset();  // many changes at once: one full rebuild is cheaper
      selections_.clear();
      dirty_.clear();
      return;
    }
    dirty_.insert(event.record.agent_id);
  });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) {
    metrics_.Write(out, snapshot_ ? snapshot_->bytes() : 0);
  });
}

std::vector<discovery::search::Found> CapabilityRoutes::Records(
    const std::optional<std::string>& agent_id) const {
  discovery::SkillQuery query;
  query.agent_id = agent_id;
  // This node's registrations first: they win over what the LAN heard of the same skill.
  std::vector<discovery::search::Found> records;
  for (discovery::SkillEntryPtr& entry : skills_.registry().FindEntries(query)) {
    records.push_back({std::move(entry), discovery::Source::kLocal});
  }
  if (const discovery::search::LanStage* lan = skills_.searcher().lan_stage(); lan != nullptr) {
    for (kademlia::store::SkillRecord& record : lan->FindOnLan(query)) {
      records.push_back({discovery::SkillEntry::Make(std::move(record)), discovery::Source::kLan});
    }
  }
  return records;
}

const CapabilitySnapshot& CapabilityRoutes::Snapshot() {
  const transport::TimePoint now = daemon_.Now();
  const discovery::search::LanStage* lan_stage = skills_.searcher().lan_stage();
  const uint64_t lan_changes = lan_stage != nullptr ? lan_stage->LanChanges() : 0;
  if (snapshot_ && (now - snapshot_built_ >= kCapabilityCacheTtl || lan_changes != lan_changes_)) {
    // Registry changes come through the observer; the LAN table's are counted: when it
    // changed (or the TTL passed), its agents are read again.
    lan_changes_ = lan_changes;
    for (std::string& id : snapshot_->LanAgentIds()) dirty_.insert(std::move(id));
    if (const discovery::search::LanStage* lan = skills_.searcher().lan_stage(); lan != nullptr) {
      for (const auto& record : lan->FindOnLan(discovery::SkillQuery{})) {
        dirty_.insert(record.agent_id);
      }
    }
    snapshot_built_ = now;
  }
  if (snapshot_ && dirty_.empty()) {
    metrics_.CountCache(true);
    return *snapshot_;
  }
  metrics_.CountCache(false);
  selections_.clear();  // they point into the snapshot
  if (!snapshot_ || dirty_.size() > kDirtyAgentsMax) {
    snapshot_ = CapabilitySnapshot::Build(Records(std::nullopt), WallClockMs());
    snapshot_built_ = now;
  } else {
    std::vector<discovery::search::Found> records;
    for (const std::string& id : dirty_) {
      for (discovery::search::Found& found : Records(id)) records.push_back(std::move(found));
    }
    snapshot_->ReplaceAgents(records, {dirty_.begin(), dirty_.end()}, WallClockMs());
  }
  dirty_.clear();
  if (snapshot_->truncated()) {
    LogAt(daemon_.logger(), transport::LogLevel::kWarn,
          "capability snapshot holds its maximum of " +
              std::to_string(discovery::capabilities::kSnapshotItemsMax) +
              " items; the rest are left out");
  }
  return *snapshot_;
}

void CapabilityRoutes::Handle(const http::HttpRequest& request, http::Responder responder) {
  const SteadyTime started = std::chrono::steady_clock::now();
  auth::AuthContext context;
  if (!skills_.authenticator().Admit(request, responder, context)) {
    metrics_.Record(0, false, SecondsSince(started));
    return;
  }
  std::string bad;
  // One pair more than the document's parser takes: q, which is taken out before it reads them.
  auto params = DecodeQuery(request.query, discovery::capabilities::kParamsMax + 1, bad);
  if (!params) {
    metrics_.Record(3, false, SecondsSince(started));
    return InvalidParameter(responder, WithQ({bad, bad, discovery::capabilities::KnownParams(),
                                              "the query string has a malformed percent-escape"}));
  }
  const size_t format = FormatIndex(*params);
  auto text = TakeQueryText(*params);
  if (!text) {
    metrics_.Record(format, false, SecondsSince(started));
    return InvalidParameter(responder, text.error());
  }
  auto parsed = discovery::capabilities::ParseCapabilityParams(*params);
  if (!parsed) {
    metrics_.Record(format, false, SecondsSince(started));
    return InvalidParameter(responder, WithQ(parsed.error()));
  }
  metrics_.CountFilters(*parsed);
  if (parsed->UsesNetwork() || !text->empty()) {
    return HandleThroughSearch(*parsed, std::move(*text), context.authenticated,
                               std::move(responder), format, started);
  }
  const CapabilitySnapshot& snapshot = Snapshot();
  std::string key = discovery::capabilities::SelectionKey(*parsed, context.authenticated);
  auto it = selections_.find(key);
  if (it == selections_.end()) {
    if (selections_.size() >= kSelectionsMax) selections_.clear();
    it = selections_
             .emplace(std::move(key),
                      discovery::capabilities::Select(snapshot, *parsed, context.authenticated))
             .first;
  }
  Answer(responder, snapshot, it->second, *parsed, context.authenticated, format, started);
}

void CapabilityRoutes::Answer(http::Responder& responder, const CapabilitySnapshot& snapshot,
                              const discovery::capabilities::Selection& selection,
                              const CapabilityRequest& parsed, bool authenticated, size_t format,
                              SteadyTime started) {
  http::HttpResponse response;
  response.content_type = std::string(discovery::capabilities::ContentTypeOf(parsed.format));
  discovery::capabilities::RenderSelection(snapshot, selection, parsed, authenticated,
                                           response.body);
  responder.Send(std::move(response));
  metrics_.Record(format, true, SecondsSince(started));
}

void CapabilityRoutes::HandleThroughSearch(const CapabilityRequest& parsed, std::string text,
                                           bool authenticated, http::Responder responder,
                                           size_t format, SteadyTime started) {
  discovery::SkillQuery query;
  query.text = std::move(text);
  if (!parsed.capability.empty()) query.capabilities = {parsed.capability};
  if (!parsed.scene.empty()) query.scenes = {parsed.scene};
  skills_.searcher().Search(
      daemon_.Now(), query, discovery::search::SearchOptions{},
      [this, parsed, authenticated, responder, format,
       started](discovery::search::SearchResult result) mutable {
        // Nothing found is an empty answer; a stage that failed with nothing
        // to show is the search's error (DISC_001 timeout, DISC_005 network).
        if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
          metrics_.Record(format, false, SecondsSince(started));
          return DiscoveryError(responder, result);
        }
        const CapabilitySnapshot snapshot = CapabilitySnapshot::Build(result.skills, WallClockMs());
        Answer(responder, snapshot,
               discovery::capabilities::Select(snapshot, parsed, authenticated), parsed,
               authenticated, format, started);
      });
}

}  // namespace skillnode::node::api

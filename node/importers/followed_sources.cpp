// FollowedSources: the sources a node imports again, saved in <dataDir>/imports
// (followed_sources.h).
#include "node/importers/followed_sources.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "node/bounded_json.h"
#include "node/formats/rfc3339.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::importers {
namespace {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

constexpr std::string_view kFormat = "skillnode-imports";
constexpr int kVersion = 1;
constexpr size_t kFileDepthMax = 4;
// A source URL longer than this is not one an import took.
constexpr size_t kUrlLengthMax = 2048;

tl::unexpected<transport::Error> Corrupt(const std::string& path, const std::string& what) {
  return Fail(ErrorCode::kParse, path + ": " + what);
}

}  // namespace

std::string_view FollowedStateName(FollowedSource::State state) {
  switch (state) {
    case FollowedSource::State::kDue:
      return "due";
    case FollowedSource::State::kRunning:
      return "running";
    case FollowedSource::State::kImported:
      return "imported";
    case FollowedSource::State::kFailed:
      return "failed";
  }
  return "due";
}

FollowedSources::FollowedSources(std::string path, size_t sources_max)
    : path_(std::move(path)), sources_max_(sources_max) {}

transport::Result<void> FollowedSources::Load() {
  auto bytes = state::ReadWholeFile(path_);
  if (!bytes) {
    if (bytes.error().code == ErrorCode::kNotFound) return {};
    return Fail(bytes.error().code, bytes.error().message);
  }
  const std::string text(bytes->begin(), bytes->end());
  auto doc = ParseBoundedJson(text, kFileDepthMax, path_);
  if (!doc) return Fail(ErrorCode::kParse, doc.error().message);
  if (!doc->is_object() || doc->value("format", "") != kFormat) {
    return Corrupt(
        path_, "not a skillnode imports file (\"format\" is not \"" + std::string(kFormat) + "\")");
  }
  if (!doc->contains("version") || !doc->at("version").is_number_integer() ||
      doc->at("version").get<int64_t>() != kVersion) {
    return Corrupt(path_, "\"version\" is not " + std::to_string(kVersion));
  }
  const json& list = doc->contains("sources") ? doc->at("sources") : json();
  if (!list.is_array()) return Corrupt(path_, "\"sources\" is not an array");
  if (list.size() > sources_max_) {
    return Corrupt(path_, "it follows " + std::to_string(list.size()) +
                              " sources, more than import.maxSources (" +
                              std::to_string(sources_max_) + ")");
  }
  std::vector<FollowedSource> loaded;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = "sources[" + std::to_string(i) + "]";
    const json& entry = list[i];
    if (!entry.is_object() || !entry.contains("url") || !entry.at("url").is_string()) {
      return Corrupt(path_, where + ": no \"url\" string");
    }
    FollowedSource source;
    source.url = entry.at("url").get<std::string>();
    if (source.url.empty() || source.url.size() > kUrlLengthMax) {
      return Corrupt(
          path_, where + ".url: empty or over " + std::to_string(kUrlLengthMax) + " characters");
    }
    if (entry.contains("type")) {
      if (!entry.at("type").is_string()) return Corrupt(path_, where + ".type: not a string");
      auto type = ParseImportType(entry.at("type").get<std::string>());
      if (!type) return Corrupt(path_, where + ".type: " + type.error().message);
      source.type = *type;
    }
    if (entry.contains("followedAtMs")) {
      if (!entry.at("followedAtMs").is_number_unsigned()) {
        return Corrupt(path_, where + ".followedAtMs: not a count of milliseconds");
      }
      source.followed_at_ms = entry.at("followedAtMs").get<uint64_t>();
    }
    const bool repeated = std::any_of(loaded.begin(), loaded.end(),
                                      [&](const FollowedSource& s) { return s.url == source.url; });
    if (repeated) return Corrupt(path_, where + ".url: listed twice");
    loaded.push_back(std::move(source));
  }
  sources_ = std::move(loaded);
  return {};
}

transport::Result<void> FollowedSources::Save() const {
  json list = json::array();
  for (const FollowedSource& source : sources_) {
    json entry = {{"url", source.url}, {"followedAtMs", source.followed_at_ms}};
    if (source.type) entry["type"] = ImportTypeName(*source.type);
    list.push_back(std::move(entry));
  }
  const std::string text =
      json{{"format", kFormat}, {"version", kVersion}, {"sources", std::move(list)}}.dump(1) + "\n";
  return state::WriteFileAtomic(
      path_, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), 0600);
}

transport::Result<void> FollowedSources::Follow(const std::string& url,
                                                std::optional<ImportType> type, uint64_t now_ms) {
  assert(!url.empty() && "only a URL source is followed");
  if (FollowedSource* known = Find(url)) {
    known->type = type;
    return {};
  }
  if (sources_.size() >= sources_max_) {
    return Fail(ErrorCode::kRefused, "this node follows " + std::to_string(sources_.size()) +
                                         " sources, its limit (import.maxSources)");
  }
  FollowedSource source;
  source.url = url;
  source.type = type;
  source.followed_at_ms = now_ms;
  sources_.push_back(std::move(source));
  return {};
}

bool FollowedSources::Unfollow(const std::string& url) {
  return std::erase_if(sources_, [&](const FollowedSource& s) { return s.url == url; }) > 0;
}

FollowedSource* FollowedSources::NextDue(transport::TimePoint now) {
  for (FollowedSource& source : sources_) {
    if (source.state != FollowedSource::State::kRunning && source.next_at <= now) return &source;
  }
  return nullptr;
}

transport::TimePoint FollowedSources::next_at() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const FollowedSource& source : sources_) {
    if (source.state != FollowedSource::State::kRunning) next = std::min(next, source.next_at);
  }
  return next;
}

FollowedSource* FollowedSources::Find(const std::string& url) {
  auto found =
      std::find_if(sources_.begin(), sources_.end(), [&](const auto& s) { return s.url == url; });
  return found == sources_.end() ? nullptr : &*found;
}

json FollowedSourceJson(const FollowedSource& source) {
  json out = {{"url", source.url},
              {"followedAt", formats::Rfc3339Ms(source.followed_at_ms)},
              {"state", FollowedStateName(source.state)}};
  if (source.type) out["type"] = ImportTypeName(*source.type);
  if (source.last_started_ms != 0) {
    out["lastStarted"] = formats::Rfc3339Ms(source.last_started_ms);
  }
  if (source.last_finished_ms != 0) {
    out["lastFinished"] = formats::Rfc3339Ms(source.last_finished_ms);
    out["imported"] = source.last_imported;
    out["errors"] = source.last_errors;
  }
  if (source.state == FollowedSource::State::kFailed) out["error"] = source.last_error;
  if (source.pulled_since) out["changesSince"] = *source.pulled_since;
  return out;
}

}  // namespace skillnode::node::importers

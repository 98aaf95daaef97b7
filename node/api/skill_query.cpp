#include "node/api/skill_query.h"

#include <set>
#include <string>
#include <utility>

#include "discovery/semver.h"
#include "kademlia/store/record/skill_record.h"
#include "node/api/query_text.h"

namespace skillnode::node::api {
namespace {

using discovery::FieldError;
using discovery::Parsed;
using discovery::SkillQuery;
using discovery::SplitCommas;

tl::unexpected<FieldError> Bad(std::string field, std::string message) {
  return tl::unexpected<FieldError>(FieldError{std::move(field), std::move(message)});
}

Parsed<void> SetVersion(SkillQuery& query, const std::string& text) {
  auto range = discovery::SemverRange::Parse(text);
  if (!range) {
    return Bad("version", "'" + text + "' is not a valid version range: " + range.error().message);
  }
  query.version = std::move(*range);
  return {};
}

Parsed<void> SetStatus(SkillQuery& query, const std::string& text) {
  auto status = kademlia::store::ParseSkillStatus(text);
  if (!status) return Bad("status", status.error().message);
  query.status = *status;
  return {};
}

Parsed<void> SetText(SkillQuery& query, std::string_view text) {
  auto checked = CheckQueryText(text);
  if (!checked) return Bad("q", checked.error());
  query.text = std::move(*checked);
  return {};
}

}  // namespace

Parsed<SkillQuery> QueryFromParams(const http::HttpRequest& request) {
  SkillQuery query;
  for (auto [name, list] : {std::pair{"capability", &query.capabilities},
                            {"scene", &query.scenes},
                            {"type", &query.types},
                            {"keyword", &query.keywords}}) {
    if (auto value = request.Query(name)) *list = SplitCommas(*value);
  }
  if (auto value = request.Query("version"); value && !value->empty()) {
    if (auto ok = SetVersion(query, *value); !ok) return tl::unexpected(ok.error());
  }
  if (auto value = request.Query("agentId")) query.agent_id = *value;
  if (auto value = request.Query("skillId")) query.skill_id = *value;
  if (auto value = request.Query("status")) {
    if (auto ok = SetStatus(query, *value); !ok) return tl::unexpected(ok.error());
  }
  if (auto value = request.Query("q")) {
    if (auto ok = SetText(query, *value); !ok) return tl::unexpected(ok.error());
  }
  return query;
}

Parsed<SkillQuery> QueryFromJson(const nlohmann::json& body) {
  static const std::set<std::string> kKnown = {
      "capabilities", "scenes", "types",  "keywords", "version", "agentId",     "skillId",
      "status",       "limit",  "offset", "fresh",    "lan",     "skillcenter", "q"};
  for (const auto& [key, value] : body.items()) {
    if (!kKnown.contains(key)) return Bad(key, "is not a known search field");
  }
  SkillQuery query;
  for (auto [name, list] : {std::pair{"capabilities", &query.capabilities},
                            {"scenes", &query.scenes},
                            {"types", &query.types},
                            {"keywords", &query.keywords}}) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) continue;
    if (!it->is_array()) return Bad(name, "must be an array of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string()) {
        return Bad(std::string(name) + "[" + std::to_string(i) + "]", "must be a string");
      }
      list->push_back((*it)[i].get<std::string>());
    }
  }
  for (auto [name, field] :
       {std::pair{"version", 0}, {"agentId", 1}, {"skillId", 2}, {"status", 3}, {"q", 4}}) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) continue;
    if (!it->is_string()) return Bad(name, "must be a string");
    const std::string text = it->get<std::string>();
    if (field == 0) {
      if (auto ok = SetVersion(query, text); !ok) return tl::unexpected(ok.error());
    } else if (field == 1) {
      query.agent_id = text;
    } else if (field == 2) {
      query.skill_id = text;
    } else if (field == 3) {
      if (auto ok = SetStatus(query, text); !ok) return tl::unexpected(ok.error());
    } else if (auto ok = SetText(query, text); !ok) {
      return tl::unexpected(ok.error());
    }
  }
  return query;
}

}  // namespace skillnode::node::api

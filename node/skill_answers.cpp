// The registry routes' shared answers (skill_answers.h).
#include "node/skill_answers.h"

#include <uv.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "discovery/query.h"

namespace skillnode::node {
namespace {

using nlohmann::json;

// Whether `peer` is one of this host's addresses (loopback or an interface's).
bool IsThisHost(const transport::Address& peer) {
  if (peer.IsLoopback()) return true;
  uv_interface_address_t* interfaces = nullptr;
  int count = 0;
  if (uv_interface_addresses(&interfaces, &count) != 0) return false;
  bool found = false;
  for (int i = 0; i < count && !found; ++i) {
    std::array<uint8_t, 16> bytes{};
    if (interfaces[i].address.address4.sin_family == AF_INET) {
      std::memcpy(bytes.data(), &interfaces[i].address.address4.sin_addr, 4);
      found = transport::Address::V4({bytes[0], bytes[1], bytes[2], bytes[3]}) == peer;
    } else {
      std::memcpy(bytes.data(), &interfaces[i].address.address6.sin6_addr, 16);
      found = transport::Address::V6(bytes) == peer;
    }
  }
  uv_free_interface_addresses(interfaces, count);
  return found;
}

// The sources in the order of their names (SourcesJson's).
std::vector<discovery::Source> SourcesSeen(const discovery::search::SearchResult& result) {
  constexpr discovery::Source kAll[] = {discovery::Source::kLocal, discovery::Source::kLan,
                                        discovery::Source::kDht, discovery::Source::kSkillCenter,
                                        discovery::Source::kCache};
  std::array<bool, std::size(kAll)> seen{};
  for (const auto& found : result.skills) seen[static_cast<size_t>(found.source)] = true;
  std::vector<discovery::Source> sources;
  for (const discovery::Source source : kAll) {
    if (seen[static_cast<size_t>(source)]) sources.push_back(source);
  }
  std::sort(sources.begin(), sources.end(), [](discovery::Source a, discovery::Source b) {
    return discovery::SourceName(a) < discovery::SourceName(b);
  });
  return sources;
}

// `text` as a JSON string, as nlohmann's dump() writes it: printable ASCII other than the quote
// and the backslash goes as it is, anything else through the library.
void AppendJsonString(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
  if (!plain) {
    out += json(text).dump();
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

}  // namespace

bool RequestFromThisHost(const http::HttpRequest& request, http::Responder& responder,
                         std::string_view what) {
  if (IsThisHost(request.peer.address())) return true;
  responder.Error(403, "UNAUTHORIZED",
                  std::string(what) + " is accepted only from this node's own host; " +
                      request.peer.address().ToString() + " is not",
                  {{"status", "UNAUTHORIZED"}, {"peer", request.peer.address().ToString()}});
  return false;
}

void BadField(http::Responder& responder, const discovery::FieldError& error,
              std::string_view code) {
  const std::string message =
      error.field.empty() ? error.message : error.field + ": " + error.message;
  json details = {{"field", error.field}};
  if (!error.violations.empty()) {
    json violations = json::array();
    for (const auto& violation : error.violations) {
      violations.push_back({{"pointer", violation.pointer}, {"reason", violation.reason}});
    }
    details["violations"] = std::move(violations);
  }
  responder.Error(400, code, message, details);
}

bool AnswerRegistration(http::Responder& responder, const discovery::RegisterOutcome& outcome,
                        const json& extra) {
  const std::string status(discovery::RegisterStatusName(outcome.status));
  if (outcome.status == discovery::RegisterStatus::kInvalid) {
    responder.Error(400, "INVALID", outcome.message,
                    {{"field", outcome.field}, {"status", status}});
    return false;
  }
  json answer = {{"status", status},
                 {"agentId", outcome.record.agent_id},
                 {"skillId", outcome.record.skill_id},
                 {"message", outcome.message},
                 {"timestamp", outcome.record.timestamp_ms},
                 {"skill", discovery::SkillJson(outcome.record, discovery::Source::kLocal)}};
  answer.update(extra);
  const bool created = outcome.status == discovery::RegisterStatus::kSuccess && !outcome.updated;
  responder.Json(created ? 201 : 200, answer);
  return true;
}

void DiscoveryError(http::Responder& responder, const discovery::search::SearchResult& result) {
  const discovery::search::DiscError error = *result.error;
  responder.Error(discovery::search::DiscHttpStatus(error), discovery::search::DiscCode(error),
                  result.message, {{"stages", StagesJson(result)}});
}

json StagesJson(const discovery::search::SearchResult& result) {
  json stages = json::array();
  for (const auto& stage : result.stages) {
    json one = {{"stage", stage.stage},
                {"outcome", stage.outcome},
                {"records", stage.records},
                {"ms", stage.duration_ms}};
    if (!stage.code.empty()) {
      one["code"] = stage.code;
      one["detail"] = stage.detail;
    }
    stages.push_back(std::move(one));
  }
  return stages;
}

json SourcesJson(const discovery::search::SearchResult& result) {
  json names = json::array();
  for (const discovery::Source source : SourcesSeen(result)) {
    names.push_back(discovery::SourceName(source));
  }
  return names;
}

void AppendStagesJson(std::string& out, const discovery::search::SearchResult& result) {
  out += '[';
  for (size_t i = 0; i < result.stages.size(); ++i) {
    const discovery::search::StageReport& stage = result.stages[i];
    if (i > 0) out += ',';
    // StagesJson's keys in the order its object (a std::map) writes them.
    out += '{';
    if (!stage.code.empty()) {
      out += "\"code\":";
      AppendJsonString(out, stage.code);
      out += ",\"detail\":";
      AppendJsonString(out, stage.detail);
      out += ',';
    }
    out += "\"ms\":";
    out += json(stage.duration_ms).dump();
    out += ",\"outcome\":";
    AppendJsonString(out, stage.outcome);
    out += ",\"records\":";
    out += std::to_string(stage.records);
    out += ",\"stage\":";
    AppendJsonString(out, stage.stage);
    out += '}';
  }
  out += ']';
}

void AppendSourcesJson(std::string& out, const discovery::search::SearchResult& result) {
  out += '[';
  bool first = true;
  for (const discovery::Source source : SourcesSeen(result)) {
    if (!first) out += ',';
    first = false;
    AppendJsonString(out, discovery::SourceName(source));
  }
  out += ']';
}

void HidePrivate(discovery::search::SearchResult& result, const auth::AuthContext& context) {
  if (context.authenticated) return;
  const size_t before = result.skills.size();
  // The stage that found a hidden skill does not count it either: a report of "found 1" over
  // an empty answer would tell that something private exists.
  for (const discovery::search::Found& found : result.skills) {
    if (!discovery::IsPrivate(found.record())) continue;
    const std::string_view stage = discovery::SourceName(found.source);
    for (discovery::search::StageReport& report : result.stages) {
      if (report.stage != stage || report.records == 0) continue;
      if (--report.records == 0 && report.outcome == "found") report.outcome = "none";
      break;
    }
  }
  std::erase_if(result.skills, [](const discovery::search::Found& found) {
    return discovery::IsPrivate(found.record());
  });
  result.private_skills = 0;
  if (before > 0 && result.skills.empty() && !result.error) {
    result.error = discovery::search::DiscError::kNoSkills;
    result.message = "no skill matches the query";
  }
}

const discovery::search::SearchResult& Visible(
    const discovery::search::SearchResult& result, const auth::AuthContext& context,
    std::optional<discovery::search::SearchResult>& copy) {
  if (context.authenticated || result.private_skills == 0) return result;
  copy = result;
  HidePrivate(*copy, context);
  return *copy;
}

}  // namespace skillnode::node

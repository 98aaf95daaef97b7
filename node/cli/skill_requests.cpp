// The skill subcommands' requests and answer texts (skill_requests.h).
#include "node/cli/skill_requests.h"

#include <utility>

#include "node/http/http_message.h"

namespace skillnode::node::cli {
namespace {

using nlohmann::json;

// object[key], or null when it has none (or is not an object).
const json& Field(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto found = object.find(key);
  return found == object.end() ? kNull : *found;
}

// A value as one word for people: a string as it is, a list joined by commas, nothing as "-".
std::string Text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value) out += (out.empty() ? "" : ",") + Text(item);
    return out.empty() ? "-" : out;
  }
  return value.is_null() ? "-" : value.dump();
}

std::string Text(const json& object, const char* key) { return Text(Field(object, key)); }

// `text` left-aligned in `width` columns (printf's %-*s).
std::string Column(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string StringField(const json& answer, const char* key) {
  const json& value = Field(answer, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

// The flags a registration needs, absent from `registration`: the first one missing.
std::optional<std::string_view> MissingFlag(const SkillRegistration& registration,
                                            bool needs_skill) {
  for (auto [flag, value] : {std::pair{"--agent", &registration.agent},
                             {"--skill", &registration.skill},
                             {"--skill-version", &registration.version},
                             {"--type", &registration.type},
                             {"--endpoint", &registration.endpoint}}) {
    if (!needs_skill && value == &registration.skill) continue;
    if (value->empty()) return flag;
  }
  return std::nullopt;
}

SkillRequest Post(std::string path, const json& body) {
  return SkillRequest{"POST", std::move(path), body.dump(), "application/json"};
}

}  // namespace

transport::Result<SkillRequest> RegisterRequest(const SkillRegistration& r) {
  if (auto flag = MissingFlag(r, true)) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        "skillnode register: " + std::string(*flag) + " is required (or --file)");
  }
  json body = {{"agentId", r.agent},  {"skillId", r.skill},     {"version", r.version},
               {"skillType", r.type}, {"endpoint", r.endpoint}, {"capabilities", r.capabilities},
               {"scenes", r.scenes}};
  if (!r.access.empty()) body["access"] = r.access;
  if (!r.name.empty() || !r.description.empty() || !r.tags.empty()) {
    // The descriptor schema requires a name: the skill id when none is given.
    body["descriptor"] = {{"name", r.name.empty() ? r.skill : r.name},
                          {"description", r.description},
                          {"tags", r.tags}};
  }
  return Post("/api/skills", body);
}

transport::Result<SkillRequest> RegisterFileRequest(const SkillRegistration& registration,
                                                    std::string_view text) {
  const json body = json::parse(text, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "skillnode: " + registration.file + " is not a JSON object");
  }
  return Post("/api/skills", body);
}

transport::Result<void> CheckFolderRegistration(const SkillRegistration& registration) {
  if (!registration.file.empty() || !registration.name.empty() ||
      !registration.description.empty()) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        "skillnode register: --skill-dir takes the name and description from SKILL.md; "
        "it cannot be combined with --file, --name or --description");
  }
  if (auto flag = MissingFlag(registration, false)) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "skillnode register: " + std::string(*flag) + " is required");
  }
  return {};
}

SkillRequest RegisterFolderRequest(const SkillRegistration& r, std::string archive) {
  std::string query =
      "agentId=" + http::PercentEncode(r.agent) + "&version=" + http::PercentEncode(r.version) +
      "&skillType=" + http::PercentEncode(r.type) + "&endpoint=" + http::PercentEncode(r.endpoint);
  for (auto [key, list] :
       {std::pair{"capabilities", &r.capabilities}, {"scenes", &r.scenes}, {"tags", &r.tags}}) {
    std::string joined;
    for (const auto& item : *list) joined += (joined.empty() ? "" : ",") + item;
    if (!joined.empty()) query += std::string("&") + key + "=" + http::PercentEncode(joined);
  }
  if (!r.skill.empty()) query += "&skillId=" + http::PercentEncode(r.skill);
  if (!r.access.empty()) query += "&access=" + http::PercentEncode(r.access);
  return SkillRequest{"POST", "/api/skills/folder?" + query, std::move(archive),
                      "application/x-tar"};
}

SkillRequest HeartbeatRequest(const std::string& agent, const std::string& skill,
                              const std::string& status) {
  return Post("/api/skills/" + http::PercentEncode(skill) + "/heartbeat",
              {{"agentId", agent}, {"status", status}});
}

SkillRequest UnregisterRequest(const std::string& agent, const std::string& skill,
                               const std::string& reason) {
  return SkillRequest{"DELETE",
                      "/api/skills/" + http::PercentEncode(skill) + "?agentId=" +
                          http::PercentEncode(agent) + "&reason=" + http::PercentEncode(reason),
                      std::nullopt, "application/json"};
}

SkillRequest DiscoverRequest(const DiscoverQuery& query) {
  json body = json::object();
  if (!query.text.empty()) body["q"] = query.text;
  if (!query.capabilities.empty()) body["capabilities"] = query.capabilities;
  if (!query.scenes.empty()) body["scenes"] = query.scenes;
  if (!query.types.empty()) body["types"] = query.types;
  if (!query.keywords.empty()) body["keywords"] = query.keywords;
  if (!query.version.empty()) body["version"] = query.version;
  if (query.fresh) body["fresh"] = true;
  return Post("/api/skills/search", body);
}

transport::Result<std::string> WatchPath(const WatchTarget& target) {
  std::string query;
  if (!target.scene.empty()) query = "scene=" + http::PercentEncode(target.scene);
  if (!target.capability.empty()) query = "capability=" + http::PercentEncode(target.capability);
  if (!target.skill.empty()) query = "skill=" + http::PercentEncode(target.skill);
  if (query.empty()) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "skillnode watch: give one of --scene, --capability, --skill");
  }
  return "/api/v1/watch?" + query;
}

std::string FormatRegistered(const json& answer) {
  return StringField(answer, "status") + ": " + Text(answer, "skillId") + " of agent " +
         Text(answer, "agentId") + " (" + StringField(answer, "message") + ")\n";
}

std::string FormatFolderRegistered(const json& answer) {
  const json& skill = Field(answer, "skill");
  return FormatRegistered(answer) + "SKILL.md sha256 " + Text(skill, "skillMdSha256") + " (" +
         Text(skill, "skillMdSize") + " bytes), archive sha256 " + Text(skill, "archiveSha256") +
         " (" + Text(skill, "archiveSize") + " bytes, " + Text(answer, "files") +
         (Field(answer, "files") == 1 ? " file)\n" : " files)\n");
}

std::string FormatHeartbeat(const json& answer) {
  return Text(answer, "skillId") + ": " + Text(answer, "status") + "\n";
}

std::string FormatUnregistered(const json& answer) {
  return "UNREGISTERED: " + Text(answer, "skillId") + " of agent " + Text(answer, "agentId") +
         " (" + Text(answer, "reason") + ")\n";
}

std::string FormatDiscovered(const json& answer) {
  const auto row = [](std::string skill, std::string agent, std::string version, std::string status,
                      std::string endpoint, std::string source) {
    return Column(std::move(skill), 28) + " " + Column(std::move(agent), 16) + " " +
           Column(std::move(version), 10) + " " + Column(std::move(status), 11) + " " +
           Column(std::move(endpoint), 26) + " " + source + "\n";
  };
  std::string out = row("SKILL", "AGENT", "VERSION", "STATUS", "ENDPOINT", "SOURCE");
  const json& skills = Field(answer, "skills");
  for (const auto& skill : skills) {
    out += row(Text(skill, "id"), Text(skill, "agentId"), Text(skill, "version"),
               Text(skill, "status"), Text(skill, "endpoint"), Text(skill, "source"));
  }
  return out + std::to_string(skills.size()) + " skill(s)\n";
}

std::string WatchPrinter::Feed(std::string_view bytes) {
  buffer_.append(bytes);
  std::string out;
  size_t newline = 0;
  while ((newline = buffer_.find('\n')) != std::string::npos) {
    std::string line = buffer_.substr(0, newline);
    buffer_.erase(0, newline + 1);
    if (line.rfind("event: ", 0) == 0) {
      event_ = line.substr(7);
    } else if (line.rfind("data: ", 0) == 0) {
      out += Format(event_, line.substr(6));
    }
  }
  return out;
}

std::string WatchPrinter::Format(const std::string& name, const std::string& data) const {
  if (as_json_) {
    return json{{"event", name}, {"data", json::parse(data, nullptr, false)}}.dump() + "\n";
  }
  const json d = json::parse(data, nullptr, false);
  if (d.is_discarded() || !d.is_object()) return "";
  if (name == "ready") return "watching " + d.dump() + "\n";
  if (name == "error") return "error: " + Text(d, "message") + "\n";
  return Column(name, 8) + " " + Column(Text(d, "id"), 28) + " " + Column(Text(d, "agentId"), 16) +
         " " + Column(Text(d, "version"), 10) + " " + Column(Text(d, "status"), 11) + " " +
         Text(d, "endpoint") + "\n";
}

}  // namespace skillnode::node::cli

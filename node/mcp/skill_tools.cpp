#include "node/mcp/skill_tools.h"

#include <set>
#include <utility>

#include "node/http/http_message.h"
#include "node/mcp/json_rpc.h"
#include "node/utf8_text.h"

namespace skillnode::node::mcp {

using nlohmann::json;

namespace {

// The skills one search asks the node for: list_skills keeps one per name, so it asks for more
// than it shows; name resolution looks through a page of them.
constexpr size_t kSearchPageMax = 1000;
constexpr size_t kSearchPageFactor = 4;

// `object[key]` when it is a string, else "" (answers come from whatever listens at --http).
std::string StringField(const json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// What the node said in its error shape ({"error": code, "message": text}), for a reason.
std::string NodeSaid(const ApiResponse& answer) {
  if (answer.status == 0) return "cannot reach the node: " + answer.error;
  const json body = json::parse(answer.body, nullptr, false);
  std::string said = "the node answered " + std::to_string(answer.status);
  if (body.is_object()) {
    const std::string code = StringField(body, "error");
    const std::string message = StringField(body, "message");
    if (!code.empty()) said += " " + code;
    if (!message.empty()) said += ": " + message;
  }
  if (answer.status == 401) said += " (the token was refused)";
  return said;
}

// The id of the first (best-ranked) skill whose `field` is `value`.
std::optional<std::string> FindSkill(const json& skills, const char* field,
                                     const std::string& value) {
  for (const json& skill : skills) {
    if (!skill.is_object() || !skill.contains("id") || !skill["id"].is_string()) continue;
    const auto it = skill.find(field);
    if (it != skill.end() && it->is_string() && *it == value) return skill["id"].get<std::string>();
  }
  return std::nullopt;
}

std::string SkillPath(const std::string& id, const char* rest) {
  return "/api/skills/" + http::PercentEncode(id) + rest;
}

bool TimedOut(const ApiResponse& answer) { return answer.timed_out || answer.status == 504; }

// A failed answer is a warning about one call (a refusal, a failed skill, a time-out), or an
// error when the node cannot be reached at all.
LogLevel FailureLevel(const ApiResponse& answer) {
  return answer.status == 0 && !TimedOut(answer) ? LogLevel::kError : LogLevel::kWarning;
}

// The log data of a failed answer: `message`, the status, the node's error code, whether it
// timed out.
json FailureData(const ApiResponse& answer, std::string message) {
  json data = {{"message", std::move(message)}, {"status", answer.status}};
  const std::string code = StringField(json::parse(answer.body, nullptr, false), "error");
  if (!code.empty()) data["code"] = code;
  if (TimedOut(answer)) data["timedOut"] = true;
  return data;
}

// An imported skill's origin as list_skills shows it: the format, the source and whether its
// publisher's signature verified; null for a skill registered directly.
json OriginSummary(const json& skill) {
  const auto origin = skill.find("origin");
  if (origin == skill.end() || !origin->is_object()) return nullptr;
  json out = json::object();
  for (const char* key :
       {"format", "sourceUrl", "signature", "publisherDomain", "publisherDomainState", "status"}) {
    if (const auto value = origin->find(key); value != origin->end() && value->is_string()) {
      out[key] = *value;
    }
  }
  return out;
}

}  // namespace

void CallContext::Log(LogLevel level, std::string_view tool, json data) const {
  if (log) log->Write(level, tool, std::move(data), notify);
}

void NameMemory::Remember(const std::string& name, const std::string& id) {
  auto [it, added] = ids_.insert_or_assign(name, id);
  if (!added) return;
  order_.push_back(name);
  if (order_.size() > kNamesRememberedMax) {
    ids_.erase(order_.front());
    order_.pop_front();
  }
}

std::optional<std::string> NameMemory::Find(const std::string& name) const {
  const auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

json TextResult(std::string text, bool is_error) {
  return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})},
          {"isError", is_error}};
}

void SkillTools::Call(const std::string& name, const json& arguments, const CallContext& context,
                      ToolCallDone done) {
  auto invalid = [&done](const std::string& message) {
    done(tl::unexpected(ToolCallError{kInvalidParams, message}));
  };
  if (name == kListSkills) {
    auto args = ParseListArgs(arguments);
    if (!args) return invalid(args.error());
    return ListSkills(*args, context, std::move(done));
  }
  if (name == kGetSkillInfo) {
    auto args = ParseNameArgs(arguments);
    if (!args) return invalid(args.error());
    return GetSkillInfo(args->name, context, std::move(done));
  }
  if (name == kRunSkill) {
    auto args = ParseRunArgs(arguments);
    if (!args) return invalid(args.error());
    return RunSkill(std::move(*args), context, std::move(done));
  }
  invalid("unknown tool '" + name + "' (the tools are list_skills, get_skill_info, run_skill)");
}

void SkillTools::Search(json query, const char* tool, const CallContext& context,
                        std::function<void(tl::expected<json, std::string>)> done) {
  ApiRequest request;
  request.method = "POST";
  request.target = "/api/skills/search";
  request.body = Serialize(query);
  request.authorization = context.caller.authorization;
  request.peer = context.caller.peer;
  fetch_(std::move(request), [tool, context, done = std::move(done)](ApiResponse answer) {
    const json body = json::parse(answer.body, nullptr, false);
    if (answer.status == 404 && StringField(body, "error") == "DISC_002") {
      return done(json::array());  // nothing matches
    }
    if (answer.status != 200 || !body.is_object() || !body.contains("skills") ||
        !body["skills"].is_array()) {
      const std::string said = NodeSaid(answer);
      context.Log(FailureLevel(answer), tool,
                  FailureData(answer, std::string(TimedOut(answer) ? "the skill lookup timed out: "
                                                                   : "the skill lookup failed: ") +
                                          said));
      return done(tl::unexpected("the search failed: " + said));
    }
    done(body["skills"]);
  });
}

void SkillTools::ListSkills(const ListArgs& args, const CallContext& context, ToolCallDone done) {
  json query = {{"limit", std::min(kSearchPageMax, args.limit * kSearchPageFactor)}};
  if (!args.text.empty()) query["q"] = args.text;
  if (args.capability) query["capabilities"] = json::array({*args.capability});
  if (args.scene) query["scenes"] = json::array({*args.scene});
  Search(
      std::move(query), kListSkills, context,
      [limit = args.limit, context, done = std::move(done)](tl::expected<json, std::string> found) {
        if (!found) return done(TextResult(found.error(), true));
        json skills = json::array();
        std::set<std::string> seen;
        for (const json& skill : *found) {
          if (skills.size() >= limit) break;
          if (!skill.is_object() || !skill.contains("name") || !skill["name"].is_string()) {
            continue;
          }
          const std::string name = skill["name"].get<std::string>();
          if (!seen.insert(name).second) continue;
          const std::string description = StringField(skill, "description");
          // Only the name and the short description (and, for an imported skill, where it came
          // from; for a publisher that claims domains, those): the selection phase sees no
          // more.
          json listed = {{"name", name}, {"description", description}};
          if (json origin = OriginSummary(skill); !origin.is_null()) {
            listed["origin"] = std::move(origin);
          }
          // The publisher domains its record claims, each verified or not by the node.
          if (const auto domains = skill.find("publisherDomains");
              domains != skill.end() && domains->is_array()) {
            listed["publisherDomains"] = *domains;
          }
          skills.push_back(std::move(listed));
          if (context.names && skill.contains("id") && skill["id"].is_string()) {
            context.names->Remember(name, skill["id"].get<std::string>());
          }
        }
        context.Log(
            LogLevel::kDebug, kListSkills,
            {{"message", "the node's search found " + std::to_string(found->size()) +
                             " skills; showing " + std::to_string(skills.size()) + " names"},
             {"found", found->size()},
             {"shown", skills.size()}});
        json result = TextResult(Serialize(skills), false);
        result["structuredContent"] = {{"skills", std::move(skills)}};
        done(std::move(result));
      });
}

void SkillTools::Resolve(const std::string& name, const char* tool, const CallContext& context,
                         Resolved done) {
  auto resolved = [name, tool, context](const std::string& id, const char* how) {
    context.Log(LogLevel::kDebug, tool,
                {{"message", "'" + name + "' is skill " + id + " (" + how + ")"},
                 {"name", name},
                 {"skillId", id}});
  };
  if (context.names) {
    if (auto id = context.names->Find(name)) {
      resolved(*id, "as list_skills showed it");
      return done(*id);
    }
  }
  Search({{"keywords", json::array({name})}, {"limit", kSearchPageMax}}, tool, context,
         [this, name, tool, context, resolved,
          done = std::move(done)](tl::expected<json, std::string> found) {
           if (!found) return done(tl::unexpected(found.error()));
           if (auto id = FindSkill(*found, "name", name)) {
             resolved(*id, "the best-ranked skill of that name");
             return done(*id);
           }
           if (auto id = FindSkill(*found, "id", name)) {
             resolved(*id, "its id");
             return done(*id);
           }
           ResolveById(name, tool, context, std::move(done));
         });
}

void SkillTools::ResolveById(const std::string& name, const char* tool, const CallContext& context,
                             Resolved done) {
  Search({{"skillId", name}, {"limit", 1}}, tool, context,
         [name, tool, context, done = std::move(done)](tl::expected<json, std::string> found) {
           if (found) {
             if (auto id = FindSkill(*found, "id", name)) {
               context.Log(LogLevel::kDebug, tool,
                           {{"message", "'" + name + "' is skill " + *id + " (its id)"},
                            {"name", name},
                            {"skillId", *id}});
               return done(*id);
             }
           }
           const bool anonymous = context.caller.authorization.empty();
           const std::string why =
               "no skill named '" + name + "' is known to this node (list_skills shows the names)" +
               (anonymous ? "; private skills are found only with a token" : "") +
               (found ? "" : "; looking it up as a skill id: " + found.error());
           context.Log(LogLevel::kNotice, tool, {{"message", why}, {"name", name}});
           done(tl::unexpected(why));
         });
}

void SkillTools::GetSkillInfo(const std::string& name, const CallContext& context,
                              ToolCallDone done) {
  Resolve(name, kGetSkillInfo, context,
          [this, name, context, done = std::move(done)](tl::expected<std::string, std::string> id) {
            if (!id) return done(TextResult(id.error(), true));
            ApiRequest request;
            request.target = SkillPath(*id, "/skill.md");
            request.authorization = context.caller.authorization;
            request.peer = context.caller.peer;
            fetch_(std::move(request), [name, id = *id, context, done](ApiResponse answer) {
              auto fail = [&](std::string why) {
                context.Log(answer.status == 200 ? LogLevel::kWarning : FailureLevel(answer),
                            kGetSkillInfo, FailureData(answer, why));
                done(TextResult(std::move(why), true));
              };
              if (answer.status == 404) {
                return fail("skill '" + name + "' (id " + id +
                            ") has no SKILL.md this node can give: " + NodeSaid(answer));
              }
              if (answer.status != 200) {
                return fail("cannot read the SKILL.md of '" + name + "' (id " + id +
                            "): " + NodeSaid(answer));
              }
              if (!IsUtf8(answer.body)) {
                // A JSON string cannot carry it unchanged, and changing it is never allowed.
                return fail("the SKILL.md of '" + name + "' (id " + id +
                            ") is not UTF-8 text, so MCP cannot carry it unchanged");
              }
              context.Log(LogLevel::kInfo, kGetSkillInfo,
                          {{"message", "read the SKILL.md of '" + name + "' (id " + id + ", " +
                                           std::to_string(answer.body.size()) + " bytes)"},
                           {"skillId", id},
                           {"bytes", answer.body.size()}});
              done(TextResult(std::move(answer.body), false));  // the bytes, unmodified
            });
          });
}

void SkillTools::RunSkill(RunArgs args, const CallContext& context, ToolCallDone done) {
  Resolve(args.name, kRunSkill, context,
          [this, name = args.name, input = std::move(args.input), context,
           done = std::move(done)](tl::expected<std::string, std::string> id) mutable {
            if (!id) return done(TextResult(id.error(), true));
            json body = {{"input", std::move(input)}};
            if (context.caller.run_timeout_ms) {
              if (const auto timeout = context.caller.run_timeout_ms())
                body["timeoutMs"] = *timeout;
            }
            ApiRequest request;
            request.method = "POST";
            request.target = SkillPath(*id, "/invoke");
            request.body = Serialize(body);
            request.authorization = context.caller.authorization;
            request.peer = context.caller.peer;
            fetch_(std::move(request), [name, id = *id, context, done](ApiResponse answer) {
              const json body = json::parse(answer.body, nullptr, false);
              if (answer.status != 200 || !body.is_object() || !body.contains("output")) {
                std::string why = "running '" + name + "' failed: " + NodeSaid(answer);
                json data = FailureData(
                    answer, "running '" + name + "' (id " + id + ") failed: " + NodeSaid(answer));
                data["skillId"] = id;
                context.Log(answer.status == 200 ? LogLevel::kWarning : FailureLevel(answer),
                            kRunSkill, std::move(data));
                return done(TextResult(std::move(why), true));
              }
              context.Log(LogLevel::kInfo, kRunSkill,
                          {{"message", "'" + name + "' (id " + id + ") ran"}, {"skillId", id}});
              const json& output = body["output"];
              done(TextResult(output.is_string() ? output.get<std::string>() : Serialize(output),
                              false));
            });
          });
}

}  // namespace skillnode::node::mcp

#include "discovery/skillcenter/catalog_json.h"

namespace skillnode::discovery::skillcenter {
namespace {

using nlohmann::json;
using Error = tl::unexpected<std::string>;

tl::expected<std::string, std::string> Text(const json& skill, const char* key, bool required) {
  auto it = skill.find(key);
  if (it == skill.end() || it->is_null()) {
    if (required) return Error(std::string(key) + " is missing");
    return std::string();
  }
  if (!it->is_string()) return Error(std::string(key) + " is not a string");
  return it->get<std::string>();
}

tl::expected<std::vector<std::string>, std::string> List(const json& skill, const char* key) {
  std::vector<std::string> out;
  auto it = skill.find(key);
  if (it == skill.end() || it->is_null()) return out;
  if (!it->is_array()) return Error(std::string(key) + " is not an array");
  for (const json& item : *it) {
    if (!item.is_string()) return Error(std::string(key) + " holds a value that is not a string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

json CatalogSearchBody(const SkillQuery& query) {
  json body = json::object();
  if (!query.capabilities.empty()) body["capabilities"] = query.capabilities;
  if (!query.scenes.empty()) body["scenes"] = query.scenes;
  if (!query.types.empty()) body["types"] = query.types;
  if (!query.keywords.empty()) body["keywords"] = query.keywords;
  if (query.version) body["version"] = query.version->text();
  return body;
}

tl::expected<kademlia::store::SkillRecord, std::string> CatalogRecord(const json& skill) {
  if (!skill.is_object()) return Error("a skill is not an object");
  kademlia::store::SkillRecord r;
  auto skill_id = Text(skill, "skillId", false);
  if (!skill_id) return Error(skill_id.error());
  if (skill_id->empty()) skill_id = Text(skill, "id", true);
  if (!skill_id) return Error(skill_id.error());
  r.skill_id = *skill_id;
  auto agent = Text(skill, "agentId", false);
  if (!agent) return Error(agent.error());
  r.agent_id = agent->empty() ? std::string(kCatalogAgentDefault) : *agent;
  // Not a DHT record: it lives as long as the cached answer holding it; a valid TTL for
  // ValidateRecord's sake.
  r.ttl_seconds = kademlia::store::kRecordTtlMinSeconds;
  auto type = Text(skill, "type", false);
  if (!type) return Error(type.error());
  if (type->empty()) type = Text(skill, "skillType", true);
  if (!type) return Error(type.error());
  r.skill_type = *type;
  for (auto [key, field] : {std::pair{"version", &r.version}, {"endpoint", &r.endpoint}}) {
    auto text = Text(skill, key, true);
    if (!text) return Error(text.error());
    *field = std::move(*text);
  }
  for (auto [key, field] : {std::pair{"capabilities", &r.capabilities}, {"scenes", &r.scenes}}) {
    auto list = List(skill, key);
    if (!list) return Error(list.error());
    *field = std::move(*list);
  }
  auto status = Text(skill, "status", false);
  if (!status) return Error(status.error());
  if (!status->empty()) {
    auto parsed = kademlia::store::ParseSkillStatus(*status);
    if (!parsed) return Error("status '" + *status + "' is not a skill status");
    r.status = *parsed;
  }
  if (auto it = skill.find("updatedAt"); it != skill.end() && it->is_number_unsigned()) {
    r.timestamp_ms = it->get<uint64_t>();
  }
  if (auto it = skill.find("sequence"); it != skill.end() && it->is_number_unsigned()) {
    r.sequence = it->get<uint64_t>();
  }
  kademlia::store::SkillDescriptor descriptor;
  for (auto [key, field] : {std::pair{"name", &descriptor.name},
                            {"description", &descriptor.description},
                            {"capabilityType", &descriptor.capability_type},
                            {"access", &descriptor.access}}) {
    auto text = Text(skill, key, false);
    if (!text) return Error(text.error());
    *field = std::move(*text);
  }
  if (descriptor.name == r.skill_id) descriptor.name.clear();  // the API's default name
  auto tags = List(skill, "tags");
  if (!tags) return Error(tags.error());
  descriptor.tags = std::move(*tags);
  // The schemas, as skillnode's own catalog shows them (objects), kept as compact text.
  for (auto [key, field] : {std::pair{"inputSchema", &descriptor.input_schema},
                            {"outputSchema", &descriptor.output_schema}}) {
    auto it = skill.find(key);
    if (it == skill.end() || it->is_null()) continue;
    if (!it->is_object()) return Error(std::string(key) + " is not an object");
    *field = it->dump();
  }
  if (descriptor != kademlia::store::SkillDescriptor{}) r.descriptor = std::move(descriptor);
  if (auto valid = kademlia::store::ValidateRecord(r); !valid) return Error(valid.error().message);
  return r;
}

tl::expected<CatalogAnswer, std::string> ParseCatalogAnswer(std::string_view body,
                                                            size_t records_max) {
  json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return Error("the answer is not valid JSON");
  if (!parsed.is_object()) return Error("the answer is not a JSON object");
  std::vector<const json*> skills;
  if (auto it = parsed.find("skills"); it != parsed.end()) {
    if (!it->is_array()) return Error("'skills' is not an array");
    for (const json& skill : *it) skills.push_back(&skill);
  } else if (auto providers = parsed.find("providers"); providers != parsed.end()) {
    if (!providers->is_array()) return Error("'providers' is not an array");
    for (const json& skill : *providers) skills.push_back(&skill);
  } else {
    skills.push_back(&parsed);
  }
  CatalogAnswer answer;
  for (const json* skill : skills) {
    if (answer.records.size() == records_max) {
      ++answer.over_limit;
      continue;
    }
    auto record = CatalogRecord(*skill);
    if (!record) {
      ++answer.invalid;
    } else if (IsPrivate(*record)) {
      ++answer.private_skips;
    } else {
      answer.records.push_back(std::move(*record));
    }
  }
  // One skill object that is not a skill: the answer as a whole is garbage.
  if (skills.size() == 1 && answer.invalid == 1 && !parsed.contains("skills") &&
      !parsed.contains("providers")) {
    return Error("the answer is neither a search answer nor a skill");
  }
  return answer;
}

}  // namespace skillnode::discovery::skillcenter

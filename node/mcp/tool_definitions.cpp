#include "node/mcp/tool_definitions.h"

#include <cmath>
#include <set>

namespace skillnode::node::mcp {

using nlohmann::json;

namespace {

json Text(const char* description) {
  return {{"type", "string"},
          {"minLength", 1},
          {"maxLength", kToolTextMax},
          {"description", description}};
}

json ObjectSchema(json properties, json required) {
  json schema = {
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

// `arguments` as an object holding only `known` keys.
tl::expected<json, std::string> Object(const json& arguments, const std::set<std::string>& known) {
  if (arguments.is_null()) return json::object();
  if (!arguments.is_object()) return tl::unexpected(std::string("arguments: must be an object"));
  for (const auto& [key, value] : arguments.items()) {
    if (!known.contains(key)) {
      std::string list;
      for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
      return tl::unexpected("arguments." + key + ": not an argument of this tool (" + list + ")");
    }
  }
  return arguments;
}

// A string argument: nullopt when absent and not `required`.
tl::expected<std::optional<std::string>, std::string> TextArg(const json& args, const char* key,
                                                              bool required) {
  const auto it = args.find(key);
  if (it == args.end()) {
    if (required) return tl::unexpected(std::string("arguments.") + key + ": is required");
    return std::nullopt;
  }
  if (!it->is_string())
    return tl::unexpected(std::string("arguments.") + key + ": must be a string");
  const std::string& text = it->get_ref<const std::string&>();
  if (text.empty() || text.size() > kToolTextMax) {
    return tl::unexpected(std::string("arguments.") + key + ": must have 1 to " +
                          std::to_string(kToolTextMax) + " characters");
  }
  return text;
}

}  // namespace

json ToolDefinitions() {
  json list_properties = {
      {"query",
       Text("What the skill should do, in words (\"summarise a PDF\", \"feishu calendar\"): "
            "searched for in the words of every skill's name, description, capabilities, tags "
            "and scenes across the whole network, all words must match (any inflection: "
            "\"summarising\" finds \"summarize\"; the last word also as a prefix), best "
            "matches first")},
      {"capability", Text("Only skills offering this capability")},
      {"scene", Text("Only skills in this scene")},
      {"limit",
       {{"type", "integer"},
        {"minimum", 1},
        {"maximum", kListLimitMax},
        {"description",
         "At most this many skills (default " + std::to_string(kListLimitDefault) + ")"}}}};
  json name = Text("The skill's name as list_skills gave it (a skill id works too)");
  return json::array({
      {{"name", kListSkills},
       {"description",
        "Step 1 of 3, selection. Lists the skills this skillnode can reach (its own, the LAN's "
        "and the network's), or with a query searches them all by words, ranked best first, "
        "with only their name and short description (and, for a skill "
        "imported from an A2A card, an MCP Registry or an Agent Skills index, its origin: "
        "format, source URL and whether its publisher's signature verified). Choose a skill by "
        "them, then call get_skill_info with its name."},
       {"inputSchema", ObjectSchema(std::move(list_properties), json::array())}},
      {{"name", kGetSkillInfo},
       {"description",
        "Step 2 of 3, usage. Returns the skill's complete SKILL.md, exactly as its author "
        "wrote it. Read it before run_skill: it says what the skill does and what input it "
        "takes, with examples."},
       {"inputSchema", ObjectSchema({{"name", name}}, json::array({"name"}))}},
      {{"name", kRunSkill},
       {"description",
        "Step 3 of 3, execution. Runs the skill with an input shaped as its SKILL.md "
        "describes and returns the skill's output."},
       {"inputSchema",
        ObjectSchema({{"name", name},
                      {"input",
                       {{"type", "object"},
                        {"description",
                         "The skill's input, as the skill's SKILL.md (get_skill_info) "
                         "describes it"}}}},
                     json::array({"name", "input"}))}},
  });
}

tl::expected<ListArgs, std::string> ParseListArgs(const json& arguments) {
  auto args = Object(arguments, {"query", "capability", "scene", "limit"});
  if (!args) return tl::unexpected(args.error());
  ListArgs out;
  auto query = TextArg(*args, "query", false);
  if (!query) return tl::unexpected(query.error());
  if (*query) {
    auto text = api::CheckQueryText(**query);
    if (!text) return tl::unexpected("arguments.query: " + text.error());
    out.text = std::move(*text);
  }
  auto capability = TextArg(*args, "capability", false);
  if (!capability) return tl::unexpected(capability.error());
  out.capability = *capability;
  auto scene = TextArg(*args, "scene", false);
  if (!scene) return tl::unexpected(scene.error());
  out.scene = *scene;
  if (const auto it = args->find("limit"); it != args->end()) {
    // An integer, or a number with no fraction (1.0): JSON does not tell them apart.
    const bool number = it->is_number_integer() || it->is_number_float();
    const double value = number ? it->get<double>() : 0;
    if (!number || std::floor(value) != value || value < 1 ||
        value > static_cast<double>(kListLimitMax)) {
      return tl::unexpected("arguments.limit: must be an integer from 1 to " +
                            std::to_string(kListLimitMax));
    }
    out.limit = static_cast<size_t>(value);
  }
  return out;
}

tl::expected<NameArgs, std::string> ParseNameArgs(const json& arguments) {
  auto args = Object(arguments, {"name"});
  if (!args) return tl::unexpected(args.error());
  auto name = TextArg(*args, "name", true);
  if (!name) return tl::unexpected(name.error());
  return NameArgs{**name};
}

tl::expected<RunArgs, std::string> ParseRunArgs(const json& arguments) {
  auto args = Object(arguments, {"name", "input"});
  if (!args) return tl::unexpected(args.error());
  auto name = TextArg(*args, "name", true);
  if (!name) return tl::unexpected(name.error());
  const auto input = args->find("input");
  if (input == args->end()) return tl::unexpected(std::string("arguments.input: is required"));
  if (!input->is_object()) {
    return tl::unexpected(std::string("arguments.input: must be an object"));
  }
  return RunArgs{**name, *input};
}

}  // namespace skillnode::node::mcp

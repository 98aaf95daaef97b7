// DescribeCli: a CLI11 command line as JSON, for the build to generate the man pages and the
// bash completion from the same definitions --help prints (docs/man_pages.py). Both
// `skillnode --help-json` and `skillsim --help-json` print it; neither lists the flag itself.
//
// {"name", "description", "footer",
//  "options": [{"names": ["-c", "--config"], "value": "FILE" | null, "values": [choices],
//               "repeatable": bool, "required": bool, "description"}],
//  "positionals": [{"name", "value", "repeatable", "required", "description"}],
//  "subcommands": [...the same, recursively]}
// Header-only, so skillsim uses it without linking node/.
#ifndef SKILLNODE_NODE_CLI_CLI_DESCRIBE_H_
#define SKILLNODE_NODE_CLI_CLI_DESCRIBE_H_

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace skillnode::node::cli {

// The flag that prints the description and exits (handled before parsing).
constexpr std::string_view kHelpJsonFlag = "--help-json";

// The option's value name without its checks' descriptions, which CLI11 appends after a ':'
// and which hold a space, '{' or '[': "PORT:INT in [0 - 65535]" -> "PORT",
// "LEVEL:{trace,debug}" -> "LEVEL", "ADDR:PORT" stays.
inline std::string ValueName(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  for (size_t colon = type.find(':'); colon != std::string::npos;
       colon = type.find(':', colon + 1)) {
    if (type.find_first_of(" {[", colon) != std::string::npos) return type.substr(0, colon);
  }
  return type;
}

// The choices of an IsMember check, from the type name's "{a,b,c}" part.
inline nlohmann::json Choices(const CLI::Option& option) {
  nlohmann::json values = nlohmann::json::array();
  const std::string type = option.get_type_name();
  const size_t open = type.find(":{");
  const size_t close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return values;
  std::string item;
  for (char c : type.substr(open + 2, close - open - 2)) {
    if (c == ',') {
      values.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) values.push_back(item);
  return values;
}

inline nlohmann::json DescribeCli(const CLI::App& app) {
  nlohmann::json out = {{"name", app.get_name()},
                        {"description", app.get_description()},
                        {"footer", app.get_footer()},
                        {"options", nlohmann::json::array()},
                        {"positionals", nlohmann::json::array()},
                        {"subcommands", nlohmann::json::array()}};
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden from --help: an old name kept a while
    const bool takes_value = option->get_items_expected_max() > 0;
    nlohmann::json entry = {
        {"description", option->get_description()},
        {"value", takes_value ? nlohmann::json(ValueName(*option)) : nlohmann::json(nullptr)},
        {"values", Choices(*option)},
        {"repeatable", option->get_items_expected_max() > 1},
        {"required", option->get_required()}};
    if (!option->nonpositional()) {
      entry["name"] = option->get_name(/*positional=*/true);
      out["positionals"].push_back(std::move(entry));
      continue;
    }
    nlohmann::json names = nlohmann::json::array();
    for (const std::string& s : option->get_snames()) names.push_back("-" + s);
    for (const std::string& l : option->get_lnames()) names.push_back("--" + l);
    entry["names"] = std::move(names);
    out["options"].push_back(std::move(entry));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    out["subcommands"].push_back(DescribeCli(*sub));
  }
  return out;
}

// True (after printing the description) when the only argument is --help-json.
inline bool PrintedHelpJson(const CLI::App& app, int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) != kHelpJsonFlag) return false;
  std::cout << DescribeCli(app).dump(2) << "\n";
  return true;
}

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_CLI_DESCRIBE_H_

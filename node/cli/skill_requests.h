// The skill subcommands' requests to a node's HTTP API and the text they print of its answers
// (skill_cli.h lists the subcommands). Pure: no network, no files, no output. SkillClient
// (skill_client.h) sends what these build and prints what they format; WatchPrinter turns the
// bytes of `watch`'s event stream into the lines to print, event by event as they arrive.
#ifndef SKILLNODE_NODE_CLI_SKILL_REQUESTS_H_
#define SKILLNODE_NODE_CLI_SKILL_REQUESTS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::cli {

// `register`'s arguments (from flags, or the registration JSON in `file`).
struct SkillRegistration {
  std::string file;       // --file: FILE or '-' (standard input)
  std::string skill_dir;  // --skill-dir: a folder holding SKILL.md
  std::string agent, skill, version, type, endpoint, name, description, access;
  std::vector<std::string> capabilities, scenes, tags;
};

// `discover`'s query.
struct DiscoverQuery {
  std::vector<std::string> capabilities, scenes, types, keywords;
  std::string text;     // --query: the word search's free text (q); empty: none
  std::string version;  // a node-semver range; empty: any
  bool fresh = false;   // skip the node's cache
};

// `watch`'s subject: exactly one of them is set.
struct WatchTarget {
  std::string scene, capability, skill;
};

// One request to the node.
struct SkillRequest {
  std::string method;
  std::string path;  // with its query
  std::optional<std::string> body;
  std::string content_type = "application/json";
};

// POST /api/skills from the flags; a missing required flag is refused with the line to print.
[[nodiscard]] transport::Result<SkillRequest> RegisterRequest(
    const SkillRegistration& registration);
// POST /api/skills with the registration JSON read from registration.file.
[[nodiscard]] transport::Result<SkillRequest> RegisterFileRequest(
    const SkillRegistration& registration, std::string_view text);
// Refuses --skill-dir combined with what SKILL.md supplies, or without a required flag.
[[nodiscard]] transport::Result<void> CheckFolderRegistration(
    const SkillRegistration& registration);
// POST /api/skills/folder with the folder's tar archive and the flags in the query.
SkillRequest RegisterFolderRequest(const SkillRegistration& registration, std::string archive);
SkillRequest HeartbeatRequest(const std::string& agent, const std::string& skill,
                              const std::string& status);
SkillRequest UnregisterRequest(const std::string& agent, const std::string& skill,
                               const std::string& reason);
SkillRequest DiscoverRequest(const DiscoverQuery& query);
// "/api/v1/watch?scene=..."; refused when no subject is given.
[[nodiscard]] transport::Result<std::string> WatchPath(const WatchTarget& target);

// The lines printed for the node's answers (without --json).
std::string FormatRegistered(const nlohmann::json& answer);
std::string FormatFolderRegistered(const nlohmann::json& answer);
std::string FormatHeartbeat(const nlohmann::json& answer);
std::string FormatUnregistered(const nlohmann::json& answer);
std::string FormatDiscovered(const nlohmann::json& answer);  // a table, then the count

// Splits an event stream's bytes into events and formats each: one JSON object per line
// (as_json), else a line per skill event.
class WatchPrinter {
 public:
  explicit WatchPrinter(bool as_json) : as_json_(as_json) {}

  // Takes the next bytes of the stream; returns the text of the events they complete.
  std::string Feed(std::string_view bytes);

 private:
  std::string Format(const std::string& name, const std::string& data) const;

  bool as_json_;
  std::string buffer_;  // the start of a line not complete yet
  std::string event_;   // the name of the event whose data comes next
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_SKILL_REQUESTS_H_

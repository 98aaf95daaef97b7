// Internals of the skill subcommands (node/cli/skill_cli.h), shared by skill_cli.cpp (the
// command line: each subcommand's options, and the dispatch) and skill_cli_commands.cpp (each
// subcommand's request to the node and what it prints). Private to those two files.
#ifndef SKILLNODE_NODE_CLI_SKILL_CLI_INTERNAL_H_
#define SKILLNODE_NODE_CLI_SKILL_CLI_INTERNAL_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "node/cli/skill_cli.h"

namespace skillnode::node::cli {
namespace skill_cli_internal {

// The options every subcommand takes: --http, --cacert, --timeout (not watch), --json.
struct Common {
  std::string http = "127.0.0.1:7070";
  std::string ca_file;  // empty: the system's store
  int timeout_ms = 10000;
  bool json = false;
};

}  // namespace skill_cli_internal

struct SkillCommands::State {
  CLI::App* register_app = nullptr;
  CLI::App* heartbeat_app = nullptr;
  CLI::App* unregister_app = nullptr;
  CLI::App* discover_app = nullptr;
  CLI::App* watch_app = nullptr;
  skill_cli_internal::Common register_common, heartbeat_common, unregister_common, discover_common,
      watch_common;
  std::string w_scene, w_capability, w_skill;
  // register
  std::string agent, skill, version, type, endpoint, name, description, file, skill_dir, access;
  std::vector<std::string> capabilities, scenes, tags;
  // heartbeat / unregister
  std::string status = "HEALTHY", reason = "SHUTDOWN";
  int every_ms = 0;
  // discover
  std::vector<std::string> q_capabilities, q_scenes, q_types, q_keywords;
  std::string q_version;
  bool fresh = false;

  int Register();
  int RegisterFolder();  // register --skill-dir
  int Heartbeat();
  int Unregister();
  int Discover();
  int Watch();
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_SKILL_CLI_INTERNAL_H_

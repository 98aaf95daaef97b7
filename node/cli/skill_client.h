// SkillClient: the skill subcommands at work against a running node's HTTP API (skill_cli.h
// declares their options). Each call builds its request (skill_requests.h), sends it with
// libcurl, prints the answer on stdout (the node's JSON as it is with --json) or the node's
// error on stderr, and returns the exit status: 0 done; 1 the node refused or could not be
// reached; 2 usage. `heartbeat --every` and `watch` run until SIGINT or SIGTERM. A blocking
// client: it runs in its own short process, not in a node's loop. One per subcommand run.
#ifndef SKILLNODE_NODE_CLI_SKILL_CLIENT_H_
#define SKILLNODE_NODE_CLI_SKILL_CLIENT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "node/cli/skill_requests.h"

namespace skillnode::node::cli {

// Where the node is and how to call it: --http, --cacert, --timeout (not watch), --json.
struct SkillNodeOptions {
  std::string http = "127.0.0.1:7070";  // ADDR:PORT or URL (node_url.h)
  std::string ca_file;                  // empty: the system's store
  int timeout_ms = 10000;
  bool json = false;
};

class SkillClient {
 public:
  explicit SkillClient(SkillNodeOptions node) : node_(std::move(node)) {}

  int Register(const SkillRegistration& registration);
  // Once, or every `every_ms` milliseconds until interrupted (every_ms > 0).
  int Heartbeat(const std::string& agent, const std::string& skill, const std::string& status,
                int every_ms);
  int Unregister(const std::string& agent, const std::string& skill, const std::string& reason);
  int Discover(const DiscoverQuery& query);
  // Prints the events under `target` as they arrive, until interrupted or the node ends them.
  int Watch(const WatchTarget& target);

 private:
  int RegisterFolder(const SkillRegistration& registration);
  // Sends `request`; prints the node's error (or its JSON with --json) and returns the exit
  // status, with the parsed answer in `answer` on success (when not null).
  int Send(const SkillRequest& request, nlohmann::json* answer) const;

  SkillNodeOptions node_;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_SKILL_CLIENT_H_

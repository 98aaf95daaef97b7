// The skill subcommands of the command line, all clients of a running node's HTTP API:
//   skillnode register   --agent A --skill S --version V --type T --endpoint E --capability C...
//   skillnode heartbeat  --agent A --skill S [--status HEALTHY] [--every MS]
//   skillnode unregister --agent A --skill S [--reason SHUTDOWN]
//   skillnode discover   [--query TEXT] [--capability X] [--scene Y] [--type Z] [--keyword K]
//                        [--version R]
//   skillnode watch      --scene Y | --capability X | --skill S    (until interrupted)
// Each takes --http ADDR:PORT or an http:// or https:// URL (default 127.0.0.1:7070), --cacert
// FILE (the CA bundle for an https node), --timeout MS (not watch) and --json (print the node's
// answer as it is). Exit status: 0 done; 1 the node refused or could not be reached
// (its error is printed); 2 usage.
//
// SkillCommands declares the subcommands' options with CLI11 and runs the one parsed through
// a SkillClient (skill_client.h), which does the work. Owned by the command line (cli.cpp).
#ifndef SKILLNODE_NODE_CLI_SKILL_CLI_H_
#define SKILLNODE_NODE_CLI_SKILL_CLI_H_

#include <CLI/CLI.hpp>
#include <memory>

namespace skillnode::node::cli {

class SkillCommands {
 public:
  SkillCommands();
  ~SkillCommands();
  // Adds the subcommands to `app`.
  void Add(CLI::App& app);
  // If one of them was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_SKILL_CLI_H_

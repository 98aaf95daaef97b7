// `skillnode invoke SKILL --input JSON|@FILE [--agent A] [--token T] [--wait] [--timeout MS]
// [--http ADDR:PORT|URL] [--cacert FILE] [--json]`: invokes a skill (docs/invocation.md).
//
// The skill is looked up through the running node's HTTP API (GET /api/skills/{id}, with the
// token as a bearer header so private skills are found); --agent picks a provider, else the
// node's best-ranked one is taken. Its endpoint, access level and schemas come from that
// answer. The Invoker (node/invoke/invoker.h) then runs on a loop of this process: the input
// is checked against inputSchema, POSTed to the endpoint, and, with --wait, the execution is
// polled until it ends and its output fetched and checked against outputSchema. Every HTTP
// request goes through UvHttpClient. Progress lines go to stderr when it is a terminal; the
// output JSON goes to stdout. Each kind of failure has its own exit status (invoke_types.h).
#ifndef SKILLNODE_NODE_CLI_INVOKE_CLI_H_
#define SKILLNODE_NODE_CLI_INVOKE_CLI_H_

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

namespace skillnode::node::cli {

struct InvokeArgs {
  std::string skill;
  std::string input;  // JSON text, or @FILE ("@-": standard input)
  std::string agent;  // empty: the node's best-ranked provider
  std::string token;  // empty: $SKILLNODE_TOKEN, if set
  bool wait = false;
  int64_t timeout_ms = 60000;
  std::string node = "http://127.0.0.1:7070";  // ADDR:PORT or URL (node_url.h)
  std::string node_ca_file;  // --cacert: PEM bundle for an https node; empty: the system's store
  bool json = false;
  size_t max_body_bytes = 1024 * 1024;
  std::string ca_file;  // --ca-file: PEM bundle for an https provider; empty: the system's store
};

// Runs the subcommand; returns its exit status.
int RunInvoke(const InvokeArgs& args);

class InvokeCommand {
 public:
  // Adds `invoke` to `app`.
  void Add(CLI::App& app);
  // If it was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  CLI::App* app_ = nullptr;
  InvokeArgs args_;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_INVOKE_CLI_H_

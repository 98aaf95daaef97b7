#include "node/cli/mcp_cli.h"

#include <cstdlib>

#include "node/mcp/mcp_stdio.h"

namespace skillnode::node {

void McpCommand::Add(CLI::App& app) {
  app_ = app.add_subcommand(
      "mcp",
      "Serve MCP (the Model Context Protocol) on standard input and output, as MCP clients "
      "launch servers: the tools list_skills, get_skill_info and run_skill, answered by the "
      "running node at --http. Logs go to standard error. See README \"Using skills from an "
      "LLM\".");
  app_->footer(
      "Exit status: 0 at the end of standard input, 1 when standard output cannot be written, "
      "2 usage error.");
  app_->add_option("--http", http_,
                   "The node's HTTP API: ADDR:PORT or a URL (default 127.0.0.1:7070)")
      ->type_name("NODE");
  app_->add_option("--token", token_,
                   "Bearer token sent to the node with every request, so private skills are "
                   "listed and restricted ones run (default: $SKILLNODE_TOKEN)")
      ->type_name("TOKEN");
  app_->add_option("--timeout", timeout_ms_,
                   "Give up on one request to the node after this many milliseconds (default "
                   "60000)")
      ->check(CLI::Range(int64_t{1}, int64_t{3600000}))
      ->type_name("MS");
}

bool McpCommand::RunParsed(int& status) {
  if (app_ == nullptr || !app_->parsed()) return false;
  mcp::StdioOptions options;
  options.node_url = http_;
  if (!options.node_url.starts_with("http://") && !options.node_url.starts_with("https://")) {
    options.node_url = "http://" + options.node_url;
  }
  while (options.node_url.ends_with('/')) options.node_url.pop_back();
  options.token = token_;
  if (const char* env = std::getenv("SKILLNODE_TOKEN"); options.token.empty() && env != nullptr) {
    options.token = env;
  }
  options.timeout_ms = timeout_ms_;
  status = mcp::RunMcpStdio(options);
  return true;
}

}  // namespace skillnode::node

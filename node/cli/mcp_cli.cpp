#include "node/cli/mcp_cli.h"

#include <cstdlib>
#include <iostream>

#include "node/cli/node_url.h"
#include "node/mcp/mcp_stdio.h"

namespace skillnode::node::cli {
namespace {

constexpr int kExitUsage = 2;

}  // namespace

void McpCommand::Add(CLI::App& app) {
  app_ = app.add_subcommand(
      "mcp",
      "Serve MCP (the Model Context Protocol) on standard input and output, as MCP clients "
      "launch servers: the tools list_skills, get_skill_info and run_skill, answered by the "
      "running node at --http. Logs go to standard error. See docs/mcp.md.");
  app_->footer(
      "Exit status: 0 at the end of standard input, 1 when standard output cannot be written, "
      "2 usage error.");
  app_->add_option("--http", http_,
                   "The node's HTTP API: ADDR:PORT or URL (http:// or https://) (default "
                   "127.0.0.1:7070)")
      ->type_name("ADDR:PORT|URL");
  AddCaCertOption(*app_, ca_file_);
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
  auto node_url = NodeBaseUrl(http_);
  if (!node_url) {
    std::cerr << "skillnode mcp: --http: " << node_url.error().message << "\n";
    status = kExitUsage;
    return true;
  }
  mcp::StdioOptions options;
  options.node_url = std::move(*node_url);
  options.ca_file = ca_file_;
  options.token = token_;
  if (const char* env = std::getenv("SKILLNODE_TOKEN"); options.token.empty() && env != nullptr) {
    options.token = env;
  }
  options.timeout_ms = timeout_ms_;
  status = mcp::RunMcpStdio(options);
  return true;
}

}  // namespace skillnode::node::cli

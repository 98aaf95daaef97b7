// `skillnode mcp [--http ADDR:PORT|URL] [--cacert FILE] [--token TOKEN] [--timeout MS]`: an MCP
// server on stdio for the running node at --http (node/mcp/mcp_stdio.h; docs/mcp.md).
#ifndef SKILLNODE_NODE_CLI_MCP_CLI_H_
#define SKILLNODE_NODE_CLI_MCP_CLI_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace skillnode::node::cli {

class McpCommand {
 public:
  // Adds `mcp` to `app`.
  void Add(CLI::App& app);
  // If it was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  CLI::App* app_ = nullptr;
  std::string http_ = "127.0.0.1:7070";
  std::string ca_file_;  // empty: the system's store
  std::string token_;    // empty: $SKILLNODE_TOKEN, if set
  int64_t timeout_ms_ = 60000;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_MCP_CLI_H_

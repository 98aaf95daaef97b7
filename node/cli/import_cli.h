// `skillnode import URL|FILE [--type a2a|mcp-registry|agent-skills|ai-catalog] [--http
// ADDR:PORT|URL]
// [--cacert FILE] [--timeout MS] [--json]`: imports an A2A Agent Card, an MCP Registry, an
// Agent Skills index or an AI Catalog into the running node's registry (POST /api/import;
// docs/formats.md "Importing").
//
// A URL (http:// or https://) is fetched by the node, under its import policy. Anything else is
// a file read here, and its bytes are sent to the node as the document (a card or catalog
// saved to disk; its links, if any, are then relative to nothing and must be absolute). The
// report is printed as lines, one per skill imported, unpublished or refused, or as the node's
// JSON with --json. An import still running when the node answers (202 Accepted, past
// import.answerWait) is followed: GET /api/imports/{id} every 500 ms until it has ended, then
// its report is printed as above; --timeout bounds the whole wait, after which the command
// gives up naming where the report will be (the import goes on in the node).
//
// Exit status: 0 when the source was read (entries may still have failed: the report says
// which), 1 when it could not be read or the node refused, 2 usage (a file that cannot be read
// included).
#ifndef SKILLNODE_NODE_CLI_IMPORT_CLI_H_
#define SKILLNODE_NODE_CLI_IMPORT_CLI_H_

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace skillnode::node::cli {

// The report of POST /api/import as lines for a person.
std::string FormatImportReport(const nlohmann::json& report);

class ImportCommand {
 public:
  // Adds `import` to `app`.
  void Add(CLI::App& app);
  // If it was parsed, runs it and returns true with its exit status in `status`.
  bool RunParsed(int& status);

 private:
  // After a 202 for import `id`: waits for its report until `deadline`, prints it; the exit
  // status.
  int FollowAccepted(const std::string& node_url, const std::string& id,
                     std::chrono::steady_clock::time_point deadline);

  CLI::App* app_ = nullptr;
  std::string source_;
  std::string type_;
  std::string http_ = "127.0.0.1:7070";
  std::string ca_file_;
  int64_t timeout_ms_ = 120000;
  bool json_ = false;
  bool once_ = false;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_IMPORT_CLI_H_

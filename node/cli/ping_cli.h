// `skillnode ping <id> [--http ADDR:PORT|URL] [--cacert FILE] [--json] [--timeout MS]`: asks the
// running node at --http for the path to the node with that id (GET /api/dht/path,
// docs/protocol.md "Hole punching") and prints it: direct, punched through both NATs, relayed, or
// unreachable, with the endpoint, the relay and the round trip.
#ifndef SKILLNODE_NODE_CLI_PING_CLI_H_
#define SKILLNODE_NODE_CLI_PING_CLI_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace skillnode::node::cli {

class PingCommand {
 public:
  // Adds `ping` to `app`.
  void Add(CLI::App& app);
  // If it was parsed, runs it and returns true with its exit status in `status`: 0 when the node
  // answered on some path, 1 when it is unreachable or the local node could not be asked, 2 on
  // a usage error.
  bool RunParsed(int& status);

  // The answer as one line for people: "punched 203.0.113.7:40001 via 1f2e...@198.51.100.2:6881
  // 12.5 ms".
  static std::string FormatPath(const nlohmann::json& answer);

 private:
  CLI::App* app_ = nullptr;
  std::string id_;
  std::string http_ = "127.0.0.1:7070";
  std::string ca_file_;  // empty: the system's store
  bool json_ = false;
  int64_t timeout_ms_ = 30000;
};

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_PING_CLI_H_

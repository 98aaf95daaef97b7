// The skillnode command line (CLI11): `skillnode run | status | keygen`, with --help for each.
//
// Exit statuses: 0 success; 1 the command failed (cannot start, node unreachable, ...);
// 2 usage or configuration error (unknown flag, invalid configuration file).
#ifndef SKILLNODE_NODE_CLI_CLI_H_
#define SKILLNODE_NODE_CLI_CLI_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/config/config.h"
#include "transport/result.h"

namespace skillnode::node::cli {

// The flags of `skillnode run` that override the configuration file.
struct RunFlags {
  std::optional<uint16_t> port;           // --port: node.port
  std::optional<std::string> http;        // --http: node.http.listen
  std::optional<std::string> data_dir;    // --data-dir: node.dataDir
  std::vector<std::string> bootstrap;     // --bootstrap (repeated): discovery.dht.bootstrapNodes
  std::optional<uint32_t> network_id;     // --network-id: node.networkId
  std::optional<std::string> log_level;   // --log-level: node.log.level
  std::optional<std::string> log_format;  // --log-format: node.log.format
  bool no_lan = false;  // --no-lan: discovery.udp.enabled and discovery.mdns.enabled false
  std::vector<std::string> lan_interfaces;  // --lan-interface (repeated): discovery.udp.interfaces
  std::optional<uint16_t> lan_port;         // --lan-port: discovery.udp.port
};

// The configuration `skillnode run` uses: defaults, then `file` (if not empty), then `flags`,
// then the cross-key checks, with the data directory defaulted (config.h DefaultDataDir) and
// "~" expanded. The error lists every problem, one per line.
[[nodiscard]] transport::Result<config::Config> BuildConfig(const std::string& file,
                                                            const RunFlags& flags,
                                                            const config::GetEnv& get_env);

// The whole command line; returns the exit status.
int RunCli(int argc, char** argv);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_CLI_H_

// RunNode: `skillnode run` once its flags are parsed. It turns the run options into the
// configuration (the embedded defaults, then the file, then the flags, then the cross-key
// checks), answers --check-config, or else assembles the node on that configuration (the Daemon,
// then the parts that add their routes, reload steps and steppers to it: certified publishers,
// SkillService, invoke, capability, replica, MCP and import routes, health history, the LAN
// service, the SkillCenter client) and runs its loop until the node stops.
//
// The command line (node/cli/cli.cpp) parses `run` and hands its options over; RunNode owns
// every part of the node for the loop's lifetime and destroys them in the reverse order of their
// creation, the Daemon last. One thread: the caller's, which becomes the loop's.
//
// Exit statuses: 0 the configuration is valid (--check-config) or the loop ended cleanly;
// 1 the node cannot start (the message is logged); 2 the configuration is invalid (stderr).
#ifndef SKILLNODE_NODE_NODE_RUNNER_H_
#define SKILLNODE_NODE_NODE_RUNNER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/config/config.h"
#include "transport/result.h"

namespace skillnode::node {

// The flags of `skillnode run` that override the configuration file.
struct RunFlags {
  std::optional<uint16_t> port;           // --port: node.port
  std::optional<std::string> http;        // --http: node.http.listen
  std::optional<std::string> data_dir;    // --data-dir: node.dataDir
  std::vector<std::string> bootstrap;     // --bootstrap (repeated): discovery.dht.bootstrapNodes
  std::optional<uint32_t> network_id;     // --network-id: node.networkId
  std::optional<std::string> log_level;   // --log-level: node.log.level
  std::optional<std::string> log_format;  // --log-format: node.log.format
  bool no_lan = false;           // --no-lan: discovery.udp.enabled and discovery.mdns.enabled false
  bool no_port_mapping = false;  // --no-port-mapping: discovery.dht.portMapping false
  std::vector<std::string> lan_interfaces;  // --lan-interface (repeated): discovery.udp.interfaces
  std::optional<uint16_t> lan_port;         // --lan-port: discovery.udp.port
};

// Everything `skillnode run` was given.
struct RunOptions {
  std::string config_file;  // --config; empty: the embedded defaults
  std::string check_file;   // --check-config; not empty: validate this file and exit
  RunFlags flags;
};

// The configuration `skillnode run` uses: defaults, then `file` (if not empty), then `flags`,
// then the cross-key checks, with the data directory defaulted (config.h DefaultDataDir) and
// "~" expanded. The error lists every problem, one per line.
[[nodiscard]] transport::Result<config::Config> BuildConfig(const std::string& file,
                                                            const RunFlags& flags,
                                                            const config::GetEnv& get_env);

// Writes "skillnode: invalid configuration in WHAT:" and each line of `error`, indented, to
// stderr; `run` and `status` report a configuration they refuse this way.
void PrintConfigErrors(const std::string& what, const transport::Error& error);

// `skillnode run`: checks the configuration (--check-config), or assembles the node and runs
// its loop; returns the exit status. The environment is the process's (XDG_DATA_HOME, HOME).
int RunNode(const RunOptions& options);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_NODE_RUNNER_H_

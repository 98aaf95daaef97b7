// Reading a configuration file (YAML) onto a Config. docs/configuration.md lists every key.
//
// Every problem in the file is reported, not only the first, one per line, each naming the
// key's path and the reason, e.g.
//   discovery.dht.replicationFactor: must be between 1 and 20, got 0 (line 7)
//   node.htpp: unknown key (expected one of: port, bindIPv4, ...) (line 3)
// Unknown keys, wrong types and out-of-range values are all errors; cross-key checks
// (CrossCheck in config.h) run after the flags are applied.
#ifndef SKILLNODE_NODE_CONFIG_CONFIG_YAML_H_
#define SKILLNODE_NODE_CONFIG_CONFIG_YAML_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "node/config/config.h"
#include "transport/result.h"

namespace skillnode::node::config {

// A configuration file is a few KiB; anything this big is not one.
constexpr size_t kConfigFileSizeMax = 1024 * 1024;
// Bootstrap peers listed at most.
constexpr size_t kBootstrapNodesMax = 64;
// discovery.udp.interfaces and security.trustedRoots entries at most.
constexpr size_t kLanInterfacesMax = 32;
constexpr size_t kTrustedRootsMax = 16;

// `base` with the file's settings applied. The error message holds one problem per line.
[[nodiscard]] transport::Result<Config> ParseConfig(std::string_view yaml,
                                                    const Config& base = Config{});
// As ParseConfig, reading `path`; errors start with the path.
[[nodiscard]] transport::Result<Config> LoadConfigFile(const std::string& path,
                                                       const Config& base = Config{});

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_CONFIG_YAML_H_

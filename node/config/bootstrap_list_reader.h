// BootstrapListReader: `discovery.dht.bootstrapNodes` (docs/configuration.md), a list whose
// entries are written either as 'host:port' (an IPv6 address in brackets) or as {host, port}.
// Each entry's problem is reported under its own path (bootstrapNodes[2].port: required), and
// the list holds at most kBootstrapNodesMax entries; a list that reads replaces the base's.
// Used by the configuration reader (config_yaml.cpp) for the one key that takes two shapes.
#ifndef SKILLNODE_NODE_CONFIG_BOOTSTRAP_LIST_READER_H_
#define SKILLNODE_NODE_CONFIG_BOOTSTRAP_LIST_READER_H_

#include <string>
#include <vector>

#include "node/config/config_reader.h"
#include "transport/endpoint.h"

namespace skillnode::node::config {

class BootstrapListReader {
 public:
  // Reads `key` of `section` into `out` (left as it is when the key is absent or null);
  // problems go to `errors`, which must be `section`'s.
  BootstrapListReader(ConfigSection& section, std::vector<std::string>& errors)
      : section_(section), errors_(errors) {}

  void Read(const std::string& key, std::vector<transport::HostPort>& out);

 private:
  void ReadEntry(const std::string& key, const YamlValue& item,
                 std::vector<transport::HostPort>& out);

  ConfigSection& section_;
  std::vector<std::string>& errors_;
};

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_BOOTSTRAP_LIST_READER_H_

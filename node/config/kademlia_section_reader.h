// KademliaSectionReader: `node.kademlia` (docs/configuration.md "node.kademlia"): the routing
// table, lookups, timeouts, departed contacts, reachability probes and client mode, and the
// `relay`, `punch` and `rateLimit` sub-sections, each value range-checked and each problem reported
// at its path as ConfigSection does. Used by the configuration reader (config_yaml.cpp).
#ifndef SKILLNODE_NODE_CONFIG_KADEMLIA_SECTION_READER_H_
#define SKILLNODE_NODE_CONFIG_KADEMLIA_SECTION_READER_H_

#include <utility>

#include "kademlia/config.h"
#include "node/config/config_reader.h"

namespace skillnode::node::config {

class KademliaSectionReader {
 public:
  explicit KademliaSectionReader(ConfigSection section) : section_(std::move(section)) {}

  // Sets what the section names in `kad` (the rest keeps its value), then reports the keys it
  // does not know (ConfigSection::Finish). Call once.
  void Read(kademlia::KademliaConfig& kad);

 private:
  ConfigSection section_;
};

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_KADEMLIA_SECTION_READER_H_

// The `discovery:` section of a node's configuration (config.h): the LAN adapter, DNS-SD, the
// DHT, SkillCenter, health checks and the remote-skill cache, in the shape of the seed's
// configuration reference (section 13.2); docs/configuration.md documents every key.
#ifndef SKILLNODE_NODE_CONFIG_DISCOVERY_CONFIG_H_
#define SKILLNODE_NODE_CONFIG_DISCOVERY_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "discovery/text/skill_fields.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::node::config {

struct UdpDiscoveryConfig {
  bool enabled = true;
  transport::Address multicast_group = transport::Address::V4({224, 0, 0, 1});
  uint16_t port = 54321;
  transport::Duration broadcast_interval = transport::Millis(5000);
  transport::Duration timeout = transport::Millis(30000);
  // Interface names or IPv4 addresses to join the group on; empty: every multicast-capable
  // IPv4 interface that is up.
  std::vector<std::string> interfaces;
  // How long the LAN stage of a search waits for SKILL_DISCOVER_RESPONSEs when the LAN table
  // has nothing for the query.
  transport::Duration discover_window = transport::Millis(300);
  // Entries of the LAN table (skills heard from other hosts); more are refused and counted.
  size_t table_max = 10000;
  // Datagrams taken from one source address per second, and its burst; more are dropped.
  double per_source_rate = 200;
  double per_source_burst = 400;

  bool operator==(const UdpDiscoveryConfig&) const = default;
};

// DNS-SD advertisement through the host's Avahi daemon (skill-discovery-protocol §1.2).
struct MdnsConfig {
  bool enabled = true;

  bool operator==(const MdnsConfig&) const = default;
};

struct DhtConfig {
  bool enabled = true;
  std::vector<transport::HostPort>
      bootstrap_nodes;  // empty: standalone until others join through us
  int replication_factor = 3;
  // The clock difference allowed between a record's publisher and this node at each end of the
  // record's signed validity window (docs/security.md "Replay").
  transport::Duration clock_skew = transport::Millis(300000);
  // Keyword-index pointers of this node's skills published per second at most, twice that in
  // a burst (kademlia::store::DhtConfig::term_jobs_per_second; docs/protocol.md "Keyword index").
  double index_jobs_per_second = 20;
  // Map the DHT port on the home router by NAT-PMP or UPnP IGD (transport/uv/portmap), for
  // port_mapping_lifetime at a time, renewed at half of it; removed when the node stops. A node
  // whose DHT socket is bound to loopback never asks.
  bool port_mapping = true;
  transport::Duration port_mapping_lifetime = transport::Seconds(3600);

  bool operator==(const DhtConfig&) const = default;
};

struct SkillCenterConfig {
  bool enabled = false;  // the seed's example URL is not a real service
  std::string url;
  transport::Duration timeout = transport::Millis(10000);
  bool cache_enabled = true;
  transport::Duration cache_ttl = transport::Millis(300000);
  // PEM CA bundle that https catalogs' certificates must chain to; empty: the system's store.
  std::string ca_file;
  // Bearer token sent to the catalog (text, or a file holding it; not both); empty: none.
  std::string token;
  std::string token_file;
  // A catalog answer larger than this is refused (1 KiB..64 MiB).
  size_t response_bytes_max = 1024 * 1024;
  // After a failed call the catalog is skipped for backoff_initial, doubling per failure up to
  // backoff_max (a circuit breaker).
  transport::Duration backoff_initial = transport::Millis(5000);
  transport::Duration backoff_max = transport::Millis(300000);

  bool operator==(const SkillCenterConfig&) const = default;
};

struct HealthCheckConfig {
  transport::Duration heartbeat_interval = transport::Millis(5000);
  transport::Duration timeout = transport::Millis(30000);
  int retry_count = 3;
  int unhealthy_threshold = 3;

  bool operator==(const HealthCheckConfig&) const = default;
};

struct CacheConfig {
  bool enabled = true;
  transport::Duration ttl = transport::Millis(300000);
  size_t size_max = 1000;
  transport::Duration refresh_before_expiry = transport::Millis(60000);

  bool operator==(const CacheConfig&) const = default;
};

// How word searches rank (docs/search.md "Ranking"): BM25F's weight of a term in each field of
// a record. Only this node's reading: the weights a publisher gives its term pointers are the
// defaults on every node, so that a hot word's heaviest pointers are the same everywhere.
struct SearchRankingConfig {
  discovery::text::FieldWeights field_weights;

  bool operator==(const SearchRankingConfig&) const = default;
};

struct DiscoveryConfig {
  UdpDiscoveryConfig udp;
  MdnsConfig mdns;
  DhtConfig dht;
  SkillCenterConfig skill_center;
  HealthCheckConfig health_check;
  CacheConfig cache;
  SearchRankingConfig search;

  bool operator==(const DiscoveryConfig&) const = default;
};

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_DISCOVERY_CONFIG_H_

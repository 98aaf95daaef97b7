// Config: every setting of a skillnode process, with its default, in one struct.
//
// Filled in three layers: these defaults (the embedded configuration: a standalone node with
// its HTTP API on 127.0.0.1:7070), then a YAML file in the shape of the seed's configuration
// reference (section 13.2) plus a `node:` section (config_yaml.h), then command-line flags
// (cli.h). docs/configuration.md documents every key; keep the two in step. Durations are
// milliseconds in the file, as in the seed. The discovery sections other than `dht` are
// parsed and validated now and used by later issues (LAN adapter, SkillCenter, health, cache).
#ifndef SKILLNODE_NODE_CONFIG_CONFIG_H_
#define SKILLNODE_NODE_CONFIG_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/config.h"
#include "node/config/discovery_config.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/logger.h"

namespace skillnode::node::config {

// The default ports: 6881 is the DHT port of the seed's examples (and of BitTorrent's DHT);
// 7070 for the HTTP API is unassigned by IANA and clear of common development ports.
constexpr uint16_t kDefaultDhtPort = 6881;
constexpr uint16_t kDefaultHttpPort = 7070;

enum class LogFormat { kText, kJson };

struct LogConfig {
  transport::LogLevel level = transport::LogLevel::kInfo;
  LogFormat format = LogFormat::kText;

  bool operator==(const LogConfig&) const = default;
};

// Limits of the HTTP server; each one bounds what a misbehaving client can hold.
struct HttpConfig {
  // Off: no plain-HTTP listener (then node.https.listen must be set).
  bool enabled = true;
  transport::Endpoint listen{transport::Address::Loopback4(), kDefaultHttpPort};
  // Open connections at once. One more takes the place of the open connection that has
  // waited longest for a request to arrive (idle, or its request still partial), if that one
  // has waited at least evict_after; otherwise it is answered 503 and closed. Idle or slow
  // clients holding every connection then keep out newcomers for evict_after at most.
  size_t connections_max = 256;
  transport::Duration evict_after = transport::Seconds(2);
  // Request line plus headers; more is answered 431 (nginx's default large buffer is 8 KiB).
  size_t header_bytes_max = 8 * 1024;
  // Request body; more is answered 413. Skill records are a few KiB.
  size_t body_bytes_max = 1024 * 1024;
  // A keep-alive connection with no request in progress is closed after this.
  transport::Duration idle_timeout = transport::Seconds(30);
  // A request must arrive completely within this of its first byte, else 408 (slowloris).
  transport::Duration request_timeout = transport::Seconds(10);
  // A handler that has not answered by then gets a 504 sent for it (a stuck lookup).
  transport::Duration response_timeout = transport::Seconds(30);
  // Answers queued for a client that does not read them (pipelined requests); past this the
  // connection reads no further request until the client has taken its answers.
  size_t write_queue_bytes_max = 1024 * 1024;

  bool operator==(const HttpConfig&) const = default;
};

// The HTTPS listener: the same API over TLS 1.2 and 1.3, next to or instead of plain HTTP,
// with node.http's connection and request limits. The certificate and key are read again on
// SIGHUP (renewals); a reload that cannot read them is refused and the old pair stays.
struct HttpsConfig {
  std::optional<transport::Endpoint> listen;  // nullopt: no HTTPS listener
  std::string cert_file;  // PEM certificate chain, the leaf first; "~/" is expanded
  std::string key_file;   // its PEM private key; "~/" is expanded
  // A connection whose TLS handshake has not completed by then is closed.
  transport::Duration handshake_timeout = transport::Seconds(10);

  bool operator==(const HttpsConfig&) const = default;
};

struct BootstrapTuning {
  transport::Duration retry_initial = transport::Seconds(1);
  transport::Duration retry_max = transport::Seconds(5 * 60);

  bool operator==(const BootstrapTuning&) const = default;
};

// Bearer tokens for the HTTP API (docs/access.md): who may see private skills.
struct AuthConfig {
  // The token file (hashes only, mode 0600); empty: <dataDir>/tokens. "~/" is expanded.
  std::string tokens_file;
  // Failed authentications one source address may make per minute; past it every request of
  // that source carrying a token is answered 429 until its minute ends (guessing stays slow).
  int failures_per_minute = 10;
  // Source addresses the failure counter remembers at once; when full, the one whose minute
  // began first is forgotten (bounds memory under a spray of addresses).
  size_t failure_sources_max = 4096;

  bool operator==(const AuthConfig&) const = default;
};

// SKILL.md folders registered with this node (docs/api.md "Skills from a SKILL.md folder"):
// their SKILL.md files and archives, kept by digest in <dataDir>/blobs.
struct SkillFolderConfig {
  // All the bytes kept there; an upload that would pass it is refused (507) until
  // registrations are removed. Room for a few hundred skills at the default folder limits.
  uint64_t store_bytes_max = 256ull * 1024 * 1024;
  // Other nodes' SKILL.md files and archives, fetched over the DHT (docs/protocol.md "Blobs"),
  // kept in <dataDir>/blobs/cache; the least recently used go first when it is full.
  uint64_t cache_bytes_max = 64ull * 1024 * 1024;
  // A fetch that has not delivered verified bytes by then fails (502), naming every holder
  // tried; under http.responseTimeout, so the API answers with the reason, not a 504.
  transport::Duration fetch_timeout = transport::Seconds(25);
  // Fetches running at once (each holds its blob in memory); more are answered 503.
  size_t fetches_max = 8;
  // Chunks (1,000 bytes each) served per second to one source address; twice that in a burst.
  size_t serve_chunks_per_second = 4000;
  // Hosting for nodes that strangers cannot reach (docs/protocol.md "Hosted blobs"): the bytes
  // this node fetches and keeps (in the cache) for one such node's address, and the blobs it
  // hosts in all.
  uint64_t host_bytes_per_peer = 32ull * 1024 * 1024;
  size_t hosted_max = 1024;

  bool operator==(const SkillFolderConfig&) const = default;
};

// MCP's Streamable HTTP transport at /mcp (node/mcp/mcp_routes.h): sessions and bodies.
struct McpConfig {
  bool enabled = true;  // false: no /mcp route (`skillnode mcp` on stdio still works)
  // Sessions held at once; a new one past it ends the one idle longest.
  size_t sessions_max = 256;
  // A session unused this long is ended; its client gets 404 and initializes again.
  transport::Duration session_idle_timeout = transport::Seconds(30 * 60);
  // One POST body (one JSON-RPC message or batch); more is answered 413. Also bounded by
  // node.http.maxBodyBytes, which the server applies first.
  size_t body_bytes_max = 1024 * 1024;
  // Origin header values accepted besides loopback ones (http://localhost:*, 127.0.0.1, [::1]);
  // a request with any other Origin is refused 403 (DNS rebinding). "*" accepts every origin.
  std::vector<std::string> allowed_origins;

  bool operator==(const McpConfig&) const = default;
};

// The web console at /ui/ (node/ui/ui_routes.h), on the API's listeners.
struct UiConfig {
  bool enabled = true;  // false: no /ui routes
  // Health transitions kept per skill registered here (GET /api/skills/{id}/health-history),
  // and skills kept at once (the one whose last transition is oldest is forgotten first).
  size_t health_history_max = 20;
  size_t health_history_skills_max = 10000;

  bool operator==(const UiConfig&) const = default;
};

struct NodeSection {
  uint16_t port = kDefaultDhtPort;  // DHT UDP port; 0 picks a free one
  std::optional<transport::Address> bind_ipv4 =
      transport::Address();  // 0.0.0.0; nullopt: no IPv4 socket
  std::optional<transport::Address> bind_ipv6 =
      transport::Address::V6({});  // ::; nullopt: no IPv6 socket
  uint32_t network_id = 0;
  std::string data_dir;  // empty: DefaultDataDir()
  transport::Duration state_save_interval = transport::Seconds(60);
  LogConfig log;
  HttpConfig http;
  HttpsConfig https;
  BootstrapTuning bootstrap;
  AuthConfig auth;
  SkillFolderConfig skills;
  McpConfig mcp;
  UiConfig ui;
  // Its network_id is set from network_id above; a node asks its peers for dial-backs
  // (reach_probes) and is a client while they say strangers cannot reach it (client_mode
  // kWhenNat), which the protocol core's own defaults leave to the simulator to turn on.
  kademlia::KademliaConfig kademlia = [] {
    kademlia::KademliaConfig core;
    core.reach_probes = true;
    core.client_mode = kademlia::ClientMode::kWhenNat;
    return core;
  }();

  bool operator==(const NodeSection&) const = default;
};

// How LAN messages are authenticated (skill-discovery-protocol §10; docs/protocol.md "LAN").
enum class SecurityMode {
  kOff,      // nothing is checked
  kVerify,   // what is signed is checked; the unsigned is taken from this host only
  kRequire,  // everything must be signed; the rest is answered UNAUTHORIZED and counted
};

struct SecurityConfig {
  SecurityMode mode = SecurityMode::kOff;
  std::string shared_key;                  // HMAC-SHA256 key (text); empty: none
  std::string shared_key_file;             // or a file holding it
  std::vector<std::string> trusted_roots;  // PEM files of the root CAs certificates chain to
  std::string certificate;  // PEM: this node's certificate, then intermediates; empty: none
  std::string private_key;  // PEM: its key (EC P-256 or Ed25519)
  // A signed message whose timestamp is further than this from the node's clock is a replay.
  transport::Duration replay_window = transport::Millis(30000);
  // PEM: a certificate for this node's Ed25519 identity key (`skillnode csr`), carried in every
  // record it publishes; empty: none.
  std::string identity_certificate;
  // Take DHT records only from publishers whose certificate chains to trusted_roots.
  bool require_certified_publishers = false;

  bool operator==(const SecurityConfig&) const = default;
};

// Who offers the skills of this node's well-known index (skill-sharing §5.2 `provider`), and
// of its A2A Agent Cards (docs/formats.md).
// The most publisher domains a node claims: as many as one record may carry.
constexpr size_t kProviderDomainsMax = 4;
inline constexpr std::string_view kDomainProofUrlDefault =
    "https://{domain}/.well-known/skillnode-publisher";

struct ProviderConfig {
  std::string name;  // empty: the node's id in hex
  std::string url;   // optional http(s) URL; empty: none
  // How long clients and caches may keep an Agent Card and the node's JWKS
  // (Cache-Control: max-age, in whole seconds); they revalidate with If-None-Match after.
  transport::Duration card_max_age = transport::Seconds(300);
  // The DNS names this node's publisher key speaks for (docs/formats.md "Publisher domains"):
  // every record the node signs claims them, and each must serve a publisher proof listing the
  // key at domain_proof_url for readers to show it verified. At most kProviderDomainsMax.
  std::vector<std::string> domains;
  // Where a domain's publisher proof is fetched ("{domain}" is replaced by the domain), under
  // the import section's fetch policy (allowHttp, allowedHosts).
  std::string domain_proof_url = std::string(kDomainProofUrlDefault);
  // How long a fetched proof is kept before it is fetched again (a failed fetch: at most 5 min).
  transport::Duration domain_proof_ttl = transport::Seconds(3600);

  bool operator==(const ProviderConfig&) const = default;
};

// Imports from the agent ecosystem's registries (`skillnode import`, POST /api/import;
// docs/formats.md "Importing"): what a node may fetch, and how much.
struct ImportConfig {
  // Plain http sources (and key sets); off: https only.
  bool allow_http = false;
  // Hosts an import may reach although their addresses are private, loopback or link-local:
  // names, IP addresses or CIDR ranges ("10.0.0.0/8"). Public addresses need no entry.
  std::vector<std::string> allowed_hosts;
  // One fetch (a card, a page, an index, a catalog, a key set), redirects included.
  transport::Duration fetch_timeout = transport::Seconds(20);
  uint64_t document_bytes_max = 4 * 1024 * 1024;
  // An MCP server package's file, fetched to check its fileSha256.
  uint64_t package_bytes_max = 32 * 1024 * 1024;
  // Documents one import reads in all, and catalogs within catalogs.
  size_t documents_max = 1000;
  size_t catalog_depth_max = 4;
  // Imports running at once (more are answered 503), and imported skills kept registered.
  size_t running_max = 4;
  size_t skills_max = 10000;
  // Sources imported by URL are followed (importers/followed_sources.h): imported again at start
  // and every refresh_interval (0: only at start); at most sources_max are followed.
  transport::Duration refresh_interval = transport::Seconds(3600);
  size_t sources_max = 64;
  // POST /api/import waits this long for the report, then answers 202 with the import's id
  // (GET /api/imports/{id}); 0: ImportAnswerWaitMax, which is also the most it may be.
  transport::Duration answer_wait = transport::Millis(0);
  // Finished imports' reports kept for GET /api/imports/{id}; past it the oldest are forgotten.
  size_t reports_max = 64;

  bool operator==(const ImportConfig&) const = default;
};

struct Config {
  NodeSection node;
  DiscoveryConfig discovery;
  SecurityConfig security;
  ProviderConfig provider;
  ImportConfig import;

  bool operator==(const Config&) const = default;
};

// Range limits shared by the file reader and the flags.
constexpr int kReplicationFactorMax = 20;
// discovery.dht.indexJobsPerSecond at most.
constexpr double kIndexJobsPerSecondMax = 10000;
constexpr size_t kBucketSizeMax = 32;  // kademlia::kNodesPerReplyMax: a NODES reply holds k

// Reads an environment variable; injected so that tests need not change the environment.
using GetEnv = std::function<const char*(const char*)>;

// $XDG_DATA_HOME/skillnode if XDG_DATA_HOME is set to an absolute path, else
// $HOME/.local/share/skillnode (XDG Base Directory spec); "" when neither is known.
std::string DefaultDataDir(const GetEnv& get_env);
// "~" or "~/..." with $HOME put in; other paths unchanged.
std::string ExpandHome(const std::string& path, const GetEnv& get_env);

// Checks between settings (one key against another); each problem is "<path>: <reason>".
std::vector<std::string> CrossCheck(const Config& config);

// Kept between import.answerWait and node.http.responseTimeout, so that a running import is
// answered 202 before the server answers 504 for it.
constexpr transport::Duration kImportAnswerMargin = transport::Seconds(1);
// The longest import.answerWait: node.http.responseTimeout less kImportAnswerMargin, or half
// of it when that is more (a response timeout of 2 s or less).
transport::Duration ImportAnswerWaitMax(const Config& config);
// import.answerWait, or ImportAnswerWaitMax when it is 0.
transport::Duration ImportAnswerWait(const Config& config);

std::string_view LogLevelName(transport::LogLevel level);
std::optional<transport::LogLevel> ParseLogLevel(
    std::string_view name);  // trace|debug|info|warn|error
std::string_view LogFormatName(LogFormat format);
std::optional<LogFormat> ParseLogFormat(std::string_view name);  // text|json
std::string_view SecurityModeName(SecurityMode mode);
std::optional<SecurityMode> ParseSecurityMode(std::string_view name);  // off|verify|require

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_CONFIG_H_

#include "node/config/config_yaml.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kademlia/store/record/record_origin.h"
#include "kademlia/store/record/skill_record.h"
#include "node/config/bootstrap_list_reader.h"
#include "node/config/config_reader.h"
#include "node/config/kademlia_section_reader.h"
#include "node/importers/fetch/fetch_policy.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::config {
namespace {

// "" turns the socket off; otherwise a literal address of the given family.
std::function<std::optional<std::string>(const std::string&)> BindAddress(
    std::optional<transport::Address>& out, bool v4) {
  return [&out, v4](const std::string& text) -> std::optional<std::string> {
    if (text.empty()) {
      out.reset();
      return std::nullopt;
    }
    auto address = transport::Address::Parse(text);
    if (!address || address->is_v4() != v4) {
      return std::string("expected an ") + (v4 ? "IPv4" : "IPv6") + " address or \"\" (off), " +
             "got '" + text + "'";
    }
    out = *address;
    return std::nullopt;
  };
}

void ReadLog(ConfigSection section, LogConfig& log) {
  section.Text("level", [&log](const std::string& text) -> std::optional<std::string> {
    auto level = ParseLogLevel(text);
    if (!level) return "expected trace, debug, info, warn or error, got '" + text + "'";
    log.level = *level;
    return std::nullopt;
  });
  section.Text("format", [&log](const std::string& text) -> std::optional<std::string> {
    auto format = ParseLogFormat(text);
    if (!format) return "expected text or json, got '" + text + "'";
    log.format = *format;
    return std::nullopt;
  });
  section.Finish();
}

void ReadHttp(ConfigSection section, HttpConfig& http) {
  section.Bool("enabled", http.enabled);
  section.Text("listen", [&http](const std::string& text) -> std::optional<std::string> {
    auto endpoint = transport::Endpoint::ParseListen(text);
    if (!endpoint)
      return "expected ADDRESS:PORT (e.g. 127.0.0.1:7070), " + endpoint.error().message;
    http.listen = *endpoint;
    return std::nullopt;
  });
  section.Int("maxConnections", 1, 100000, Store(http.connections_max));
  section.Int("maxHeaderBytes", 1024, 1024 * 1024, Store(http.header_bytes_max));
  section.Int("maxBodyBytes", 0, 64 * 1024 * 1024, Store(http.body_bytes_max));
  section.Millis("idleTimeout", 100, kHourMs, http.idle_timeout);
  section.Millis("requestTimeout", 100, kHourMs, http.request_timeout);
  section.Millis("responseTimeout", 100, kHourMs, http.response_timeout);
  section.Millis("evictAfter", 100, kHourMs, http.evict_after);
  section.Int("maxQueuedAnswerBytes", 4096, 64 * 1024 * 1024, Store(http.write_queue_bytes_max));
  section.Finish();
}

void ReadHttps(ConfigSection section, HttpsConfig& https) {
  section.Text("listen", [&https](const std::string& text) -> std::optional<std::string> {
    if (text.empty()) {
      https.listen.reset();
      return std::nullopt;
    }
    auto endpoint = transport::Endpoint::ParseListen(text);
    if (!endpoint) {
      return "expected ADDRESS:PORT (e.g. 0.0.0.0:7443) or \"\" for none, " +
             endpoint.error().message;
    }
    https.listen = *endpoint;
    return std::nullopt;
  });
  section.String("certFile", https.cert_file);
  section.String("keyFile", https.key_file);
  section.Millis("handshakeTimeout", 100, 60000, https.handshake_timeout);
  section.Finish();
}

void ReadMcp(ConfigSection section, McpConfig& mcp) {
  section.Bool("enabled", mcp.enabled);
  section.Int("maxSessions", 1, 1000000, Store(mcp.sessions_max));
  section.Millis("sessionIdleTimeout", 1000, kDayMs, mcp.session_idle_timeout);
  section.Int("maxBodyBytes", 1024, 64 * 1024 * 1024, Store(mcp.body_bytes_max));
  section.StringList(
      "allowedOrigins", 256,
      [](const std::string& text) -> std::optional<std::string> {
        if (text == "*" || text.starts_with("http://") || text.starts_with("https://")) {
          return std::nullopt;
        }
        return "expected \"*\" or an origin such as https://app.example.com, got '" + text + "'";
      },
      mcp.allowed_origins);
  section.Finish();
}

void ReadNode(ConfigSection section, NodeSection& node) {
  section.Int("port", 0, 65535, Store(node.port));
  section.Text("bindIPv4", BindAddress(node.bind_ipv4, true));
  section.Text("bindIPv6", BindAddress(node.bind_ipv6, false));
  section.Int("networkId", 0, std::numeric_limits<uint32_t>::max(), Store(node.network_id));
  section.String("dataDir", node.data_dir);
  section.Millis("stateSaveInterval", 1000, kDayMs, node.state_save_interval);
  ReadLog(section.Sub("log"), node.log);
  ReadHttp(section.Sub("http"), node.http);
  ReadHttps(section.Sub("https"), node.https);
  ConfigSection bootstrap = section.Sub("bootstrap");
  bootstrap.Millis("retryInitial", 100, kHourMs, node.bootstrap.retry_initial);
  bootstrap.Millis("retryMax", 1000, kDayMs, node.bootstrap.retry_max);
  bootstrap.Finish();
  ConfigSection auth = section.Sub("auth");
  auth.String("tokensFile", node.auth.tokens_file);
  auth.Int("failuresPerMinute", 1, 100000, Store(node.auth.failures_per_minute));
  auth.Int("failureSourcesMax", 16, 1000000, Store(node.auth.failure_sources_max));
  auth.Finish();
  ConfigSection skills = section.Sub("skills");
  skills.Int("maxStoreBytes", 1024 * 1024, int64_t{1} << 40, Store(node.skills.store_bytes_max));
  skills.Int("cacheBytes", 1024 * 1024, int64_t{1} << 40, Store(node.skills.cache_bytes_max));
  skills.Millis("fetchTimeout", 1000, kHourMs, node.skills.fetch_timeout);
  skills.Int("fetchesMax", 1, 1024, Store(node.skills.fetches_max));
  skills.Int("serveChunksPerSecond", 10, 1000000, Store(node.skills.serve_chunks_per_second));
  skills.Int("hostBytesPerPeer", 0, int64_t{1} << 40, Store(node.skills.host_bytes_per_peer));
  skills.Int("hostedMax", 0, 1000000, Store(node.skills.hosted_max));
  skills.Finish();
  ReadMcp(section.Sub("mcp"), node.mcp);
  ConfigSection ui = section.Sub("ui");
  ui.Bool("enabled", node.ui.enabled);
  ui.Int("healthHistory", 0, 1000, Store(node.ui.health_history_max));
  ui.Int("healthHistorySkills", 1, 1000000, Store(node.ui.health_history_skills_max));
  ui.Finish();
  KademliaSectionReader(section.Sub("kademlia")).Read(node.kademlia);
  section.Finish();
}

// "" or an http:// or https:// URL.
std::function<std::optional<std::string>(const std::string&)> HttpUrl(std::string& out) {
  return [&out](const std::string& text) -> std::optional<std::string> {
    if (!text.empty() && !text.starts_with("http://") && !text.starts_with("https://")) {
      return "expected an http:// or https:// URL, got '" + text + "'";
    }
    out = text;
    return std::nullopt;
  };
}

void ReadDht(ConfigSection section, DhtConfig& dht, std::vector<std::string>& errors) {
  section.Bool("enabled", dht.enabled);
  BootstrapListReader(section, errors).Read("bootstrapNodes", dht.bootstrap_nodes);
  section.Int("replicationFactor", 1, kReplicationFactorMax, Store(dht.replication_factor));
  section.Millis("clockSkew", 0, kHourMs, dht.clock_skew);
  section.Double("indexJobsPerSecond", 1, kIndexJobsPerSecondMax, dht.index_jobs_per_second);
  section.Bool("portMapping", dht.port_mapping);
  section.Millis("portMappingLifetime", 120'000, kDayMs, dht.port_mapping_lifetime);
  section.Finish();
}

void ReadUdp(ConfigSection section, UdpDiscoveryConfig& udp) {
  section.Bool("enabled", udp.enabled);
  section.Text("multicastGroup", [&udp](const std::string& text) -> std::optional<std::string> {
    auto address = transport::Address::Parse(text);
    if (!address || !address->IsMulticast()) {
      return "expected a multicast address (224.0.0.0/4 or ff00::/8), got '" + text + "'";
    }
    udp.multicast_group = *address;
    return std::nullopt;
  });
  section.Int("port", 1, 65535, Store(udp.port));
  section.Millis("broadcastInterval", 100, kHourMs, udp.broadcast_interval);
  section.Millis("timeout", 100, kDayMs, udp.timeout);
  section.StringList(
      "interfaces", kLanInterfacesMax,
      [](const std::string& text) -> std::optional<std::string> {
        if (text.empty() || text.size() > 64) return "expected an interface name or IPv4 address";
        return std::nullopt;
      },
      udp.interfaces);
  section.Millis("discoverWindow", 0, 10000, udp.discover_window);
  section.Int("maxEntries", 1, 1000000, Store(udp.table_max));
  ConfigSection rate = section.Sub("rateLimit");
  rate.Double("perSource", 1, 1e6, udp.per_source_rate);
  rate.Double("perSourceBurst", 1, 1e6, udp.per_source_burst);
  rate.Finish();
  section.Finish();
}

void ReadSecurity(ConfigSection section, SecurityConfig& security) {
  section.Text("mode", [&security](const std::string& text) -> std::optional<std::string> {
    auto mode = ParseSecurityMode(text);
    if (!mode) return "expected off, verify or require, got '" + text + "'";
    security.mode = *mode;
    return std::nullopt;
  });
  section.String("sharedKey", security.shared_key);
  section.String("sharedKeyFile", security.shared_key_file);
  section.StringList(
      "trustedRoots", kTrustedRootsMax,
      [](const std::string& text) -> std::optional<std::string> {
        if (text.empty()) return "expected the path of a PEM file";
        return std::nullopt;
      },
      security.trusted_roots);
  section.String("certificate", security.certificate);
  section.String("privateKey", security.private_key);
  section.Millis("replayWindow", 1000, kHourMs, security.replay_window);
  section.String("identityCertificate", security.identity_certificate);
  section.Bool("requireCertifiedPublishers", security.require_certified_publishers);
  section.Finish();
}

void ReadSkillCenter(ConfigSection section, SkillCenterConfig& center) {
  section.Bool("enabled", center.enabled);
  section.Text("url", HttpUrl(center.url));
  section.Millis("timeout", 100, 600000, center.timeout);
  section.String("caFile", center.ca_file);
  section.String("token", center.token);
  section.String("tokenFile", center.token_file);
  section.Int("maxResponseBytes", 1024, 64 * 1024 * 1024, Store(center.response_bytes_max));
  section.Millis("backoffInitial", 100, kHourMs, center.backoff_initial);
  section.Millis("backoffMax", 100, kDayMs, center.backoff_max);
  ConfigSection cache = section.Sub("cache");
  cache.Bool("enabled", center.cache_enabled);
  cache.Millis("ttl", 0, kDayMs, center.cache_ttl);
  cache.Finish();
  section.Finish();
}

void ReadDiscovery(ConfigSection section, DiscoveryConfig& discovery,
                   std::vector<std::string>& errors) {
  ReadUdp(section.Sub("udp"), discovery.udp);
  ConfigSection mdns = section.Sub("mdns");
  mdns.Bool("enabled", discovery.mdns.enabled);
  mdns.Finish();
  ReadDht(section.Sub("dht"), discovery.dht, errors);
  ReadSkillCenter(section.Sub("skillCenter"), discovery.skill_center);
  ConfigSection health = section.Sub("healthCheck");
  health.Millis("heartbeatInterval", 100, kHourMs, discovery.health_check.heartbeat_interval);
  health.Millis("timeout", 100, kDayMs, discovery.health_check.timeout);
  health.Int("retryCount", 0, 100, Store(discovery.health_check.retry_count));
  health.Int("unhealthyThreshold", 1, 100, Store(discovery.health_check.unhealthy_threshold));
  health.Finish();
  ConfigSection cache = section.Sub("cache");
  cache.Bool("enabled", discovery.cache.enabled);
  cache.Millis("ttl", 1000, kDayMs, discovery.cache.ttl);
  cache.Int("maxSize", 0, 1000000, Store(discovery.cache.size_max));
  cache.Millis("refreshBeforeExpiry", 0, kDayMs, discovery.cache.refresh_before_expiry);
  cache.Finish();
  ConfigSection search = section.Sub("search");
  ConfigSection weights = search.Sub("fieldWeights");
  discovery::text::FieldWeights& w = discovery.search.field_weights;
  for (auto [key, weight] : {std::pair{"name", &w.name}, std::pair{"description", &w.description},
                             std::pair{"capabilities", &w.capabilities}, std::pair{"tags", &w.tags},
                             std::pair{"scenes", &w.scenes}}) {
    weights.Double(key, 0, kFieldWeightMax, *weight);
  }
  weights.Finish();
  search.Finish();
  section.Finish();
}

void ReadImport(ConfigSection section, ImportConfig& import) {
  section.Bool("allowHttp", import.allow_http);
  section.StringList(
      "allowedHosts", 256,
      [](const std::string& text) -> std::optional<std::string> {
        auto policy = importers::fetch::FetchPolicy::Create({text});
        if (policy) return std::nullopt;
        return "expected a host name, an IP address or a CIDR range: " + policy.error().message;
      },
      import.allowed_hosts);
  section.Millis("fetchTimeout", 100, 600000, import.fetch_timeout);
  section.Int("maxDocumentBytes", 1024, 64 * 1024 * 1024, Store(import.document_bytes_max));
  section.Int("maxPackageBytes", 1024, 256 * 1024 * 1024, Store(import.package_bytes_max));
  section.Int("maxDocuments", 1, 100000, Store(import.documents_max));
  section.Int("maxCatalogDepth", 1, 16, Store(import.catalog_depth_max));
  section.Int("maxRunning", 1, 64, Store(import.running_max));
  section.Int("maxSkills", 0, 1000000, Store(import.skills_max));
  section.Millis("refreshInterval", 0, 7 * kDayMs, import.refresh_interval);
  section.Int("maxSources", 0, 10000, Store(import.sources_max));
  section.Millis("answerWait", 0, kHourMs, import.answer_wait);
  section.Int("maxReports", 1, 10000, Store(import.reports_max));
  section.Finish();
}

void ReadProvider(ConfigSection section, ProviderConfig& provider) {
  section.String("name", provider.name);
  section.Text("url", HttpUrl(provider.url));
  section.Millis("cardMaxAge", 0, kDayMs, provider.card_max_age);
  static_assert(kProviderDomainsMax == kademlia::store::kPublisherDomainsMax,
                "a record carries every domain its node claims");
  std::vector<std::string> seen;
  section.StringList(
      "domains", kProviderDomainsMax,
      [&seen](const std::string& text) -> std::optional<std::string> {
        if (std::find(seen.begin(), seen.end(), text) != seen.end()) {
          return "'" + text + "' is listed twice";
        }
        seen.push_back(text);
        if (kademlia::store::IsDomainName(text)) return std::nullopt;
        return "'" + text +
               "' is not a domain name a proof can be fetched for (two or more labels of "
               "lowercase letters, digits and hyphens; not an address, not localhost)";
      },
      provider.domains);
  section.Text("domainProofUrl",
               [&provider](const std::string& text) -> std::optional<std::string> {
                 if (!text.starts_with("http://") && !text.starts_with("https://")) {
                   return "expected an http:// or https:// URL, got '" + text + "'";
                 }
                 if (text.find("{domain}") == std::string::npos) {
                   return "'" + text + "' does not contain {domain}";
                 }
                 provider.domain_proof_url = text;
                 return std::nullopt;
               });
  section.Millis("domainProofTtl", 1000, kDayMs, provider.domain_proof_ttl);
  section.Finish();
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

}  // namespace

transport::Result<Config> ParseConfig(std::string_view yaml, const Config& base) {
  auto tree = ParseYaml(yaml);
  if (!tree) return transport::Fail(transport::ErrorCode::kParse, tree.error().message);
  Config config = base;
  std::vector<std::string> errors;
  ConfigSection root(&*tree, "", errors);
  ReadNode(root.Sub("node"), config.node);
  ReadDiscovery(root.Sub("discovery"), config.discovery, errors);
  ReadSecurity(root.Sub("security"), config.security);
  ReadProvider(root.Sub("provider"), config.provider);
  ReadImport(root.Sub("import"), config.import);
  root.Finish();
  if (!errors.empty())
    return transport::Fail(transport::ErrorCode::kInvalidArgument, JoinLines(errors));
  return config;
}

transport::Result<Config> LoadConfigFile(const std::string& path, const Config& base) {
  auto bytes = state::ReadWholeFile(path, kConfigFileSizeMax);
  if (!bytes) return transport::Fail(bytes.error().code, bytes.error().message);
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto config = ParseConfig(text, base);
  if (!config) return transport::Fail(config.error().code, config.error().message);
  return config;
}

}  // namespace skillnode::node::config

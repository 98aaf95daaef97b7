#include "node/config/config.h"

#include <algorithm>
#include <array>
#include <utility>

namespace skillnode::node::config {
namespace {

constexpr std::array<std::pair<std::string_view, transport::LogLevel>, 5> kLogLevels = {{
    {"trace", transport::LogLevel::kTrace},
    {"debug", transport::LogLevel::kDebug},
    {"info", transport::LogLevel::kInfo},
    {"warn", transport::LogLevel::kWarn},
    {"error", transport::LogLevel::kError},
}};

std::string Millis(transport::Duration d) { return std::to_string(d.count() / 1000); }

}  // namespace

std::string DefaultDataDir(const GetEnv& get_env) {
  const char* xdg = get_env("XDG_DATA_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/skillnode";
  const char* home = get_env("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.local/share/skillnode";
  return "";
}

std::string ExpandHome(const std::string& path, const GetEnv& get_env) {
  if (path != "~" && !path.starts_with("~/")) return path;
  const char* home = get_env("HOME");
  if (home == nullptr || home[0] == '\0') return path;
  return std::string(home) + path.substr(1);
}

std::vector<std::string> CrossCheck(const Config& config) {
  std::vector<std::string> errors;
  const auto& node = config.node;
  const auto& kad = node.kademlia;
  if (!node.bind_ipv4 && !node.bind_ipv6) {
    errors.push_back("node.bindIPv4: IPv4 and IPv6 are both off (\"\"); the DHT needs one");
  }
  if (static_cast<size_t>(config.discovery.dht.replication_factor) > kad.routing.bucket_size) {
    errors.push_back("discovery.dht.replicationFactor: must not exceed node.kademlia.k (" +
                     std::to_string(kad.routing.bucket_size) + "), got " +
                     std::to_string(config.discovery.dht.replication_factor));
  }
  if (kad.rpc_timeout_min > kad.rpc_timeout) {
    errors.push_back("node.kademlia.rpcTimeoutMin: must not exceed node.kademlia.rpcTimeout (" +
                     Millis(kad.rpc_timeout) + "), got " + Millis(kad.rpc_timeout_min));
  }
  if (kad.disjoint_paths > kad.alpha) {
    errors.push_back("node.kademlia.disjointPaths: must not exceed node.kademlia.alpha (" +
                     std::to_string(kad.alpha) + "), got " + std::to_string(kad.disjoint_paths));
  }
  if (node.bootstrap.retry_initial > node.bootstrap.retry_max) {
    errors.push_back("node.bootstrap.retryInitial: must not exceed node.bootstrap.retryMax (" +
                     Millis(node.bootstrap.retry_max) + "), got " +
                     Millis(node.bootstrap.retry_initial));
  }
  if (node.https.listen && node.https.cert_file.empty()) {
    errors.push_back("node.https.certFile: required when node.https.listen is set");
  }
  if (node.https.listen && node.https.key_file.empty()) {
    errors.push_back("node.https.keyFile: required when node.https.listen is set");
  }
  if (!node.http.enabled && !node.https.listen) {
    errors.push_back(
        "node.http.enabled: false leaves the node without an API unless node.https.listen is "
        "set");
  }
  const auto& center = config.discovery.skill_center;
  if (center.enabled && center.url.empty()) {
    errors.push_back("discovery.skillCenter.url: required when discovery.skillCenter.enabled");
  }
  if (!center.token.empty() && !center.token_file.empty()) {
    errors.push_back("discovery.skillCenter.tokenFile: give token or tokenFile, not both");
  }
  if (center.backoff_max < center.backoff_initial) {
    errors.push_back(
        "discovery.skillCenter.backoffMax: must be at least "
        "discovery.skillCenter.backoffInitial (" +
        Millis(center.backoff_initial) + "), got " + Millis(center.backoff_max));
  }
  const auto& cache = config.discovery.cache;
  if (cache.refresh_before_expiry >= cache.ttl) {
    errors.push_back(
        "discovery.cache.refreshBeforeExpiry: must be less than "
        "discovery.cache.ttl (" +
        Millis(cache.ttl) + "), got " + Millis(cache.refresh_before_expiry));
  }
  const auto& health = config.discovery.health_check;
  if (health.timeout < health.heartbeat_interval) {
    errors.push_back(
        "discovery.healthCheck.timeout: must be at least "
        "discovery.healthCheck.heartbeatInterval (" +
        Millis(health.heartbeat_interval) + "), got " + Millis(health.timeout));
  }
  if (config.discovery.udp.enabled && config.discovery.udp.port == node.port) {
    errors.push_back("discovery.udp.port: must differ from node.port (" +
                     std::to_string(node.port) + ")");
  }
  if (config.import.answer_wait > ImportAnswerWaitMax(config)) {
    errors.push_back("import.answerWait: must be at most node.http.responseTimeout less " +
                     Millis(kImportAnswerMargin) + " ms, or half of it when that is more (" +
                     Millis(ImportAnswerWaitMax(config)) + "), got " +
                     Millis(config.import.answer_wait));
  }
  const SecurityConfig& security = config.security;
  if (!security.shared_key.empty() && !security.shared_key_file.empty()) {
    errors.push_back("security.sharedKeyFile: give sharedKey or sharedKeyFile, not both");
  }
  if (security.certificate.empty() != security.private_key.empty()) {
    errors.push_back(std::string("security.") +
                     (security.certificate.empty() ? "certificate" : "privateKey") +
                     ": required with security." +
                     (security.certificate.empty() ? "privateKey" : "certificate"));
  }
  if (security.require_certified_publishers && security.trusted_roots.empty()) {
    errors.push_back(
        "security.requireCertifiedPublishers: needs security.trustedRoots to check "
        "publishers' certificates against");
  }
  const bool has_key = !security.shared_key.empty() || !security.shared_key_file.empty();
  if (security.mode != SecurityMode::kOff && !has_key && security.trusted_roots.empty()) {
    errors.push_back("security.mode: " + std::string(SecurityModeName(security.mode)) +
                     " needs security.sharedKey, security.sharedKeyFile or "
                     "security.trustedRoots to check signatures with");
  }
  return errors;
}

transport::Duration ImportAnswerWaitMax(const Config& config) {
  const transport::Duration response = config.node.http.response_timeout;
  return std::max(response - kImportAnswerMargin, response / 2);
}

transport::Duration ImportAnswerWait(const Config& config) {
  const transport::Duration wait = config.import.answer_wait;
  return wait.count() == 0 ? ImportAnswerWaitMax(config) : wait;
}

std::string_view LogLevelName(transport::LogLevel level) {
  for (const auto& [name, value] : kLogLevels) {
    if (value == level) return name;
  }
  return "info";
}

std::optional<transport::LogLevel> ParseLogLevel(std::string_view name) {
  for (const auto& [known, value] : kLogLevels) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string_view LogFormatName(LogFormat format) {
  return format == LogFormat::kJson ? "json" : "text";
}

std::string_view SecurityModeName(SecurityMode mode) {
  switch (mode) {
    case SecurityMode::kOff:
      return "off";
    case SecurityMode::kVerify:
      return "verify";
    case SecurityMode::kRequire:
      return "require";
  }
  return "off";
}

std::optional<SecurityMode> ParseSecurityMode(std::string_view name) {
  if (name == "off") return SecurityMode::kOff;
  if (name == "verify") return SecurityMode::kVerify;
  if (name == "require") return SecurityMode::kRequire;
  return std::nullopt;
}

std::optional<LogFormat> ParseLogFormat(std::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

}  // namespace skillnode::node::config

// SkillService wiring (skill_service.h): the registry, searcher and authenticator on the
// daemon's loop, their node info, metrics, reload and shutdown steps, and the helpers' routes.
#include "node/skill_service.h"

#include <chrono>
#include <cstdlib>
#include <tuple>

#include "node/spd_logger.h"
#include "node/wall_clock.h"

namespace skillnode::node {
namespace {

discovery::RegistryConfig RegistryConfigOf(const config::Config& config,
                                           std::vector<uint8_t> publisher_certificate) {
  discovery::RegistryConfig out;
  out.publisher_certificate = std::move(publisher_certificate);
  out.publisher_domains = config.provider.domains;
  out.health.heartbeat_interval = config.discovery.health_check.heartbeat_interval;
  out.health.timeout = config.discovery.health_check.timeout;
  out.health.unhealthy_threshold = config.discovery.health_check.unhealthy_threshold;
  return out;
}

discovery::search::SearchConfig SearchConfigOf(const config::Config& config) {
  discovery::search::SearchConfig out;
  out.word_search.ranking.bm25.field_weights = config.discovery.search.field_weights;
  return out;
}

discovery::CacheConfig CacheConfigOf(const config::Config& config) {
  discovery::CacheConfig out;
  out.enabled = config.discovery.cache.enabled;
  out.ttl = config.discovery.cache.ttl;
  out.size_max = config.discovery.cache.size_max;
  out.refresh_before_expiry = config.discovery.cache.refresh_before_expiry;
  return out;
}

auth::AuthOptions AuthOptionsOf(const config::Config& config) {
  auth::AuthOptions out;
  out.tokens_file =
      auth::TokensFilePath(config, [](const char* name) { return std::getenv(name); });
  out.failures_per_minute = config.node.auth.failures_per_minute;
  out.failure_sources_max = config.node.auth.failure_sources_max;
  return out;
}

}  // namespace

SkillService::SkillService(Daemon& daemon, std::vector<uint8_t> publisher_certificate)
    : daemon_(daemon),
      auth_(AuthOptionsOf(daemon.config()), daemon.logger(), [&daemon] { return daemon.Now(); }),
      registry_(daemon.dht(), daemon.identity(),
                RegistryConfigOf(daemon.config(), std::move(publisher_certificate)), &WallClockMs),
      word_terms_(daemon.dht()),
      word_records_(daemon.dht()),
      searcher_(daemon.dht(), registry_, SearchConfigOf(daemon.config()),
                CacheConfigOf(daemon.config())),
      domains_(daemon),
      well_known_(daemon, registry_, searcher_, auth_),
      a2a_(daemon, registry_, searcher_, auth_, domains_),
      folders_(daemon, registry_, searcher_, auth_),
      format_records_(daemon.config().discovery.dht.enabled ? &daemon.dht() : nullptr, registry_,
                      daemon.identity(),
                      [this](const kademlia::store::SkillRecord& record) {
                        return domains_.ClaimsJson(record);
                      }),
      mcp_registry_(daemon.router(), format_records_, auth_, [&daemon] { return daemon.Now(); }),
      agent_skills_(
          daemon.router(), format_records_, auth_, [&daemon] { return daemon.Now(); },
          [&daemon] { return daemon.http_url(); }),
      ai_catalog_(daemon.router(), format_records_, registry_, auth_,
                  formats::catalogs::CatalogNode{
                      .identity = &daemon.identity(),
                      .now = [&daemon] { return daemon.Now(); },
                      .http_url = [&daemon] { return daemon.http_url(); },
                      .config = [&daemon]() -> const config::Config& { return daemon.config(); }}),
      skill_routes_(daemon, registry_, searcher_, auth_, domains_),
      scene_join_(daemon, searcher_, auth_),
      watch_(daemon, registry_, searcher_, auth_) {
  auth_.Refresh(/*force=*/true);
  // Word search across the network reads the DHT's keyword index; without the DHT a query's
  // words are matched against what this node holds.
  if (daemon.config().discovery.dht.enabled) searcher_.SetWordSources(&word_terms_, &word_records_);
  // A registration that changes on this node makes cached answers about that skill stale.
  registry_.AddObserver([this](const discovery::RegistryEvent& event) {
    searcher_.InvalidateRecord(event.record);
    watch_.OnRegistryEvent(event);
    LogAt(
        daemon_.logger(), transport::LogLevel::kInfo,
        "skill " + event.record.skill_id + " of agent " + event.record.agent_id + ": " +
            std::string(kademlia::store::SkillStatusName(event.record.status)) +
            (event.record.tombstone
                 ? " (unpublished: " +
                       std::string(kademlia::store::UnregisterReasonName(event.record.reason)) + ")"
                 : ""));
  });
  daemon_.AddStepper({[this] { return registry_.NextDeadline(); },
                      [this](transport::TimePoint now) { registry_.OnTimer(now); }});
  daemon_.AddStepper({[this] { return searcher_.NextDeadline(); },
                      [this](transport::TimePoint now) { searcher_.OnTimer(now); }});
  daemon_.AddNodeInfo("registry", [this] { return Info(); });
  daemon_.AddNodeInfo("auth", [this] { return auth_.Info(); });
  daemon_.AddNodeInfo("skillFolders", [this] { return folders_.Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  // A reload may name another token file: it must be readable before the node switches.
  daemon_.AddReloadStep(
      [this](const config::Config& running,
             const config::Config& next) -> transport::Result<daemon::ReloadApply> {
        if (next.node.auth.tokens_file == running.node.auth.tokens_file)
          return daemon::ReloadApply{};
        std::string path =
            auth::TokensFilePath(next, [](const char* name) { return std::getenv(name); });
        auto loaded = auth::LoadTokenFile(path);
        if (!loaded)
          return transport::Fail(loaded.error().code,
                                 "node.auth.tokensFile: " + loaded.error().message);
        return daemon::ReloadApply([this, path = std::move(path)] { auth_.SetTokensFile(path); });
      });
  daemon_.AddStatusPart([this] { return std::to_string(registry_.size()) + " registered skills"; });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { auth_.WriteMetrics(out); });
  daemon_.AddShutdownStep("unregister skills", [this](std::function<void()> done) {
    const size_t count = registry_.size();
    if (count > 0) {
      LogAt(daemon_.logger(), transport::LogLevel::kInfo,
            "unpublishing " + std::to_string(count) + " registered skill(s) at shutdown");
    }
    registry_.UnregisterAll(daemon_.Now(), kademlia::store::UnregisterReason::kShutdown,
                            std::move(done));
  });
  AddRoutes();
}

void SkillService::AddRoutes() {
  http::Router& router = daemon_.router();
  skill_routes_.AddRoutes(router);
  publisher::AddPublisherProofRoute(daemon_);
  scene_join_.AddRoutes(router);
  watch_.AddRoutes(router);
}

nlohmann::json SkillService::Info() const {
  const auto counts = registry_.CountByStatus();
  const auto& cache = searcher_.cache().stats();
  return {
      {"registrations", registry_.size()},
      {"healthy", counts[0]},
      {"degraded", counts[1]},
      {"unhealthy", counts[2]},
      {"maintenance", counts[3]},
      {"watchers", searcher_.watchers()},
      {"watchedKeys", searcher_.watched_keys()},
      {"cache",
       {{"entries", searcher_.cache().size()}, {"hits", cache.hits}, {"misses", cache.misses}}}};
}

void SkillService::WriteMetrics(http::PrometheusWriter& out) const {
  const auto counts = registry_.CountByStatus();
  out.Family("skillnode_registry_skills", "gauge", "Skills registered with this node, by health.");
  for (size_t i = 0; i < counts.size(); ++i) {
    out.Sample("skillnode_registry_skills",
               {{"status", std::string(kademlia::store::SkillStatusName(
                               static_cast<kademlia::store::SkillStatus>(i)))}},
               static_cast<double>(counts[i]));
  }
  const auto& r = registry_.stats();
  out.Family("skillnode_registry_operations_total", "counter",
             "Registry operations by kind and result.");
  for (const auto& [op, result, value] : {std::tuple{"register", "success", r.registered},
                                          {"register", "updated", r.updated},
                                          {"register", "duplicate", r.duplicates},
                                          {"register", "invalid", r.invalid},
                                          {"register", "full", r.refused_full},
                                          {"heartbeat", "ok", r.heartbeats},
                                          {"heartbeat", "unknown", r.heartbeats_unknown},
                                          {"unregister", "ok", r.unregistered},
                                          {"expire", "ok", r.expired}}) {
    out.Sample("skillnode_registry_operations_total", {{"op", op}, {"result", result}},
               static_cast<double>(value));
  }
  out.Counter("skillnode_registry_status_changes_total", "Health changes published.",
              static_cast<double>(r.status_changes));
  out.Counter("skillnode_registry_publish_failures_total",
              "Record versions whose publish reached no holder.",
              static_cast<double>(r.publish_failures));
  const auto& s = searcher_.stats();
  out.Counter("skillnode_discovery_searches_total", "Discovery queries answered.",
              static_cast<double>(s.searches));
  out.Family("skillnode_discovery_dht_total", "counter", "DHT stage outcomes.");
  for (const auto& [result, value] : {std::pair{"started", s.dht_gets},
                                      {"timeout", s.dht_timeouts},
                                      {"unreachable", s.dht_failures},
                                      {"busy", s.busy}}) {
    out.Sample("skillnode_discovery_dht_total", {{"result", result}}, static_cast<double>(value));
  }
  out.Counter("skillnode_discovery_stale_answers_total",
              "Answers taken from the cache after the DHT failed.",
              static_cast<double>(s.stale_answers));
  out.Counter("skillnode_discovery_not_found_total", "Queries that found no skill.",
              static_cast<double>(s.not_found));
  const auto& c = searcher_.cache().stats();
  out.Counter("skillnode_cache_hits_total", "Discovery cache hits.", static_cast<double>(c.hits));
  out.Counter("skillnode_cache_misses_total", "Discovery cache misses.",
              static_cast<double>(c.misses));
  out.Counter("skillnode_cache_invalidations_total",
              "Cached answers dropped by unregistration, health change or refresh.",
              static_cast<double>(c.invalidations));
  out.Gauge("skillnode_cache_entries", "Cached discovery answers.",
            static_cast<double>(searcher_.cache().size()));
  out.Gauge("skillnode_discovery_watchers", "Open watch streams.",
            static_cast<double>(searcher_.watchers()));
}

}  // namespace skillnode::node

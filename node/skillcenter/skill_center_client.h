// SkillCenterClient: the search chain's SkillCenter stage (skill-discovery-protocol §7, §12.2)
// on the node's loop. It asks the configured catalog with POST {url}/api/skills/search (§7.2),
// or GET {url}/api/skills/{id} for a lookup by skill id alone, through UvHttpClient (libcurl's
// multi-socket interface: no thread per request, no blocking call), over http or https with
// certificate verification, an optional CA file and an optional bearer token.
//
// A catalog that is down, slow, answers an HTTP error, garbage or a body over
// response_bytes_max costs one call of at most `timeout`; the circuit breaker then skips it
// (DISC_005 in the stage report) until its back-off has passed. Answers are cached for
// cache.ttl when cache.enabled (by the searcher). Its counters are in /metrics
// (skillnode_skillcenter_*) and its state in GET /api/node ("skillcenter").
#ifndef SKILLNODE_NODE_SKILLCENTER_SKILL_CENTER_CLIENT_H_
#define SKILLNODE_NODE_SKILLCENTER_SKILL_CENTER_CLIENT_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "discovery/search/searcher.h"
#include "discovery/skillcenter/circuit_breaker.h"
#include "node/config/config.h"
#include "node/daemon.h"
#include "node/skill_service.h"
#include "transport/uv/uv_http_client.h"

namespace skillnode::node::skillcenter {

// Skills taken from one catalog answer at most; the rest are counted and dropped.
constexpr size_t kCatalogRecordsMax = 1000;

// The body of POST {url}/api/skills/search for `query` (skill-discovery-protocol §7.2): its
// filters, and the words of its free text q as keywords (the .cpp says why).
nlohmann::json CatalogBody(const discovery::SkillQuery& query);

class SkillCenterClient final : public discovery::search::SkillCenterStage {
 public:
  // Reads the token file, if any, and becomes `skills`' SkillCenter stage.
  [[nodiscard]] static transport::Result<std::unique_ptr<SkillCenterClient>> Create(
      Daemon& daemon, SkillService& skills);
  SkillCenterClient(const SkillCenterClient&) = delete;
  SkillCenterClient& operator=(const SkillCenterClient&) = delete;
  ~SkillCenterClient() override;

  void SearchCatalog(transport::TimePoint now, const discovery::SkillQuery& query,
                     std::function<void(transport::TimePoint, discovery::search::SkillCenterAnswer)>
                         done) override;
  std::optional<transport::Duration> CacheTtl() const override;

  struct Stats {
    uint64_t found = 0;
    uint64_t none = 0;
    uint64_t timeouts = 0;
    uint64_t failures = 0;  // connection, TLS, HTTP error status, garbage, oversized
    uint64_t skipped = 0;   // while the circuit was open
    uint64_t invalid_skills = 0;
    uint64_t private_skips = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  SkillCenterClient(Daemon& daemon, SkillService& skills, std::string token);
  void Answer(
      const discovery::SkillQuery& query, transport::uv::HttpClientResult result,
      const std::function<void(transport::TimePoint, discovery::search::SkillCenterAnswer)>& done);
  void Reconfigure(const config::SkillCenterConfig& settings, std::string token);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  SkillService& skills_;
  config::SkillCenterConfig config_;
  std::string base_url_;  // config url without a trailing '/'
  std::string token_;
  transport::uv::UvHttpClient http_;
  discovery::skillcenter::CircuitBreaker breaker_;
  Stats stats_;
};

}  // namespace skillnode::node::skillcenter

#endif  // SKILLNODE_NODE_SKILLCENTER_SKILL_CENTER_CLIENT_H_

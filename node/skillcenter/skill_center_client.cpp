#include "node/skillcenter/skill_center_client.h"

#include <fstream>
#include <sstream>

#include "discovery/skillcenter/catalog_json.h"
#include "node/api/query_text.h"
#include "node/http/http_message.h"

namespace skillnode::node::skillcenter {
namespace {

using discovery::search::SkillCenterAnswer;
using Outcome = SkillCenterAnswer::Outcome;

// A lookup by skill id and nothing else goes to GET /api/skills/{id}.
bool ById(const discovery::SkillQuery& q) {
  return q.skill_id && q.capabilities.empty() && q.scenes.empty() && q.types.empty() &&
         q.capability_types.empty() && q.keywords.empty() && q.text.empty() && !q.version &&
         !q.agent_id && !q.status;
}

transport::Result<std::string> ReadToken(const config::SkillCenterConfig& config) {
  if (config.token_file.empty()) return config.token;
  std::ifstream in(config.token_file);
  if (!in) {
    return transport::Fail(
        transport::ErrorCode::kNotFound,
        "discovery.skillCenter.tokenFile: cannot read '" + config.token_file + "'");
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) {
    token.pop_back();
  }
  if (token.empty() || token.find_first_of(" \t\r\n") != std::string::npos) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "discovery.skillCenter.tokenFile: '" + config.token_file +
                               "' must hold one token on one line");
  }
  return token;
}

}  // namespace

// §7.2 has no free text, only keywords (each a case-insensitive substring of the id, name,
// description or a tag; all must match), so q's words are sent as keywords rather than skipped:
// the catalog then answers only the skills holding every word as it was typed, a bounded
// answer, where skipping q would ask for every skill of the other filters (the whole catalog
// for a q alone) at each keystroke of the console's search box. What this misses is the word
// search's other inflections: "pdfs" does not find a catalog's "PDF" (the DHT's keyword index
// does). Whatever the catalog answers is matched against the whole query, q by its stems, and
// ranked by the searcher, as every other stage's records are.
nlohmann::json CatalogBody(const discovery::SkillQuery& query) {
  nlohmann::json body = discovery::skillcenter::CatalogSearchBody(query);
  const std::vector<std::string> words = api::QueryWords(query.text);
  if (words.empty()) return body;
  nlohmann::json& keywords = body["keywords"];
  if (!keywords.is_array()) keywords = nlohmann::json::array();
  for (const std::string& word : words) keywords.push_back(word);
  return body;
}

transport::Result<std::unique_ptr<SkillCenterClient>> SkillCenterClient::Create(
    Daemon& daemon, SkillService& skills) {
  auto token = ReadToken(daemon.config().discovery.skill_center);
  if (!token) return tl::unexpected(token.error());
  return std::unique_ptr<SkillCenterClient>(
      new SkillCenterClient(daemon, skills, std::move(*token)));
}

SkillCenterClient::SkillCenterClient(Daemon& daemon, SkillService& skills, std::string token)
    : daemon_(daemon),
      skills_(skills),
      config_(daemon.config().discovery.skill_center),
      token_(std::move(token)),
      http_(daemon.env().loop(), transport::uv::HttpClientConfig{}),
      breaker_(
          discovery::skillcenter::BreakerConfig{config_.backoff_initial, config_.backoff_max}) {
  base_url_ = config_.url;
  while (base_url_.ends_with('/')) base_url_.pop_back();
  skills_.searcher().SetSkillCenterStage(this);
  // A reload's new catalog settings (not `enabled`: adding or removing the stage needs a
  // restart). The token file must be readable before anything changes.
  daemon_.AddReloadStep(
      [this](const config::Config& running,
             const config::Config& next) -> transport::Result<daemon::ReloadApply> {
        const config::SkillCenterConfig& settings = next.discovery.skill_center;
        if (service::SameSkillCenterSettings(settings, running.discovery.skill_center))
          return daemon::ReloadApply{};
        auto token = ReadToken(settings);
        if (!token) return tl::unexpected(token.error());
        return daemon::ReloadApply(
            [this, settings, token = std::move(*token)] { Reconfigure(settings, token); });
      });
  daemon_.AddCloseHook([this] { http_.Close(); });
  daemon_.AddNodeInfo("skillcenter", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
}

// Requests in flight finish against the old catalog; the circuit starts closed for the new one.
void SkillCenterClient::Reconfigure(const config::SkillCenterConfig& settings, std::string token) {
  const bool enabled = config_.enabled;
  config_ = settings;
  config_.enabled = enabled;
  token_ = std::move(token);
  base_url_ = config_.url;
  while (base_url_.ends_with('/')) base_url_.pop_back();
  breaker_ = discovery::skillcenter::CircuitBreaker(
      discovery::skillcenter::BreakerConfig{config_.backoff_initial, config_.backoff_max});
}

SkillCenterClient::~SkillCenterClient() {
  skills_.searcher().SetSkillCenterStage(nullptr);
  http_.Close();
}

std::optional<transport::Duration> SkillCenterClient::CacheTtl() const {
  if (!config_.cache_enabled || config_.cache_ttl <= transport::Duration::zero())
    return std::nullopt;
  return config_.cache_ttl;
}

void SkillCenterClient::SearchCatalog(
    transport::TimePoint now, const discovery::SkillQuery& query,
    std::function<void(transport::TimePoint, SkillCenterAnswer)> done) {
  if (!breaker_.Allow(now)) {
    ++stats_.skipped;
    SkillCenterAnswer answer;
    answer.outcome = Outcome::kSkipped;
    answer.message =
        "the SkillCenter at " + base_url_ + " failed and is skipped for " +
        std::to_string(static_cast<int64_t>(transport::ToMillis(breaker_.retry_at() - now))) +
        " ms more (circuit open after " + std::to_string(breaker_.failures_in_a_row()) +
        " failures in a row)";
    done(now, std::move(answer));
    return;
  }
  transport::uv::HttpClientRequest request;
  if (ById(query)) {
    request.url = base_url_ + "/api/skills/" + http::PercentEncode(*query.skill_id);
  } else {
    request.method = "POST";
    request.url = base_url_ + "/api/skills/search";
    request.body = CatalogBody(query).dump();
    request.headers = {{"Content-Type", "application/json"}};
  }
  request.headers.emplace_back("Accept", "application/json");
  request.timeout = config_.timeout;
  request.response_bytes_max = config_.response_bytes_max;
  request.ca_file = config_.ca_file;
  request.bearer_token = token_;
  http_.Start(std::move(request),
              [this, query, done = std::move(done)](transport::uv::HttpClientResult result) {
                Answer(query, std::move(result), done);
              });
}

void SkillCenterClient::Answer(
    const discovery::SkillQuery& query, transport::uv::HttpClientResult result,
    const std::function<void(transport::TimePoint, SkillCenterAnswer)>& done) {
  const transport::TimePoint now = daemon_.env().Now();
  SkillCenterAnswer answer;
  const std::string where = "the SkillCenter at " + base_url_;
  if (!result) {
    const bool timeout = result.error().kind == transport::uv::HttpClientErrorKind::kTimeout;
    answer.outcome = timeout ? Outcome::kTimeout : Outcome::kFailed;
    answer.message = "the SkillCenter request " + result.error().message;
  } else if (result->status == 404) {
    answer.outcome = Outcome::kNone;  // the catalog has no such skill (DISC_002 from skillnode)
  } else if (result->status != 200) {
    answer.outcome = Outcome::kFailed;
    answer.message = where + " answered HTTP " + std::to_string(result->status);
  } else if (auto parsed =
                 discovery::skillcenter::ParseCatalogAnswer(result->body, kCatalogRecordsMax);
             !parsed) {
    answer.outcome = Outcome::kFailed;
    answer.message = where + " answered garbage: " + parsed.error();
  } else {
    stats_.invalid_skills += parsed->invalid;
    stats_.private_skips += parsed->private_skips;
    answer.records = std::move(parsed->records);
    answer.outcome = answer.records.empty() ? Outcome::kNone : Outcome::kFound;
  }
  switch (answer.outcome) {
    case Outcome::kFound:
      ++stats_.found;
      breaker_.Succeeded();
      break;
    case Outcome::kNone:
      ++stats_.none;
      breaker_.Succeeded();
      break;
    case Outcome::kTimeout:
      ++stats_.timeouts;
      breaker_.Failed(now);
      break;
    case Outcome::kFailed:
    case Outcome::kSkipped:
      ++stats_.failures;
      breaker_.Failed(now);
      break;
  }
  if (answer.outcome == Outcome::kTimeout || answer.outcome == Outcome::kFailed) {
    daemon_.logger().Log(transport::LogLevel::kWarn,
                         answer.message + " (query " + discovery::CanonicalQueryKey(query) + ")");
  }
  done(now, std::move(answer));
}

nlohmann::json SkillCenterClient::Info() const {
  return {{"url", base_url_},
          {"circuit", discovery::skillcenter::BreakerStateName(breaker_.state())},
          {"failuresInARow", breaker_.failures_in_a_row()},
          {"inFlight", http_.in_flight()}};
}

void SkillCenterClient::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_skillcenter_requests_total", "counter",
             "SkillCenter stage calls by outcome (skipped: circuit open).");
  for (const auto& [outcome, value] : {std::pair{"found", stats_.found},
                                       {"none", stats_.none},
                                       {"timeout", stats_.timeouts},
                                       {"failed", stats_.failures},
                                       {"skipped", stats_.skipped}}) {
    out.Sample("skillnode_skillcenter_requests_total", {{"outcome", outcome}},
               static_cast<double>(value));
  }
  out.Counter("skillnode_skillcenter_invalid_skills_total",
              "Skill objects in catalog answers dropped as malformed.",
              static_cast<double>(stats_.invalid_skills));
  out.Counter("skillnode_skillcenter_private_skipped_total",
              "Private skills in catalog answers dropped.",
              static_cast<double>(stats_.private_skips));
  out.Gauge("skillnode_skillcenter_circuit_open",
            "1 while the SkillCenter is skipped after a failure (open or half-open), else 0.",
            breaker_.state() == discovery::skillcenter::CircuitBreaker::State::kClosed ? 0 : 1);
}

}  // namespace skillnode::node::skillcenter

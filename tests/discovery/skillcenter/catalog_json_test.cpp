// The SkillCenter catalog's JSON (§7.2 body, §7.3 and §7.1 answers) and the circuit breaker.
#include "discovery/skillcenter/catalog_json.h"

#include <catch2/catch.hpp>
#include <string>

#include "discovery/skillcenter/circuit_breaker.h"

namespace skillnode::discovery::skillcenter {
namespace {

TEST_CASE("catalog: the search body carries the query's filters", "[unit]") {
  SkillQuery query;
  query.capabilities = {"org-data-read", "user-auth"};
  query.scenes = {"auth"};
  query.types = {"enterprise-skill"};
  query.keywords = {"feishu"};
  query.version = SemverRange::Parse(">=0.7.0").value();
  const auto body = CatalogSearchBody(query);
  CHECK(body.dump() ==
        R"({"capabilities":["org-data-read","user-auth"],"keywords":["feishu"],"scenes":["auth"],)"
        R"("types":["enterprise-skill"],"version":">=0.7.0"})");
  CHECK(CatalogSearchBody(SkillQuery{}).dump() == "{}");
}

TEST_CASE("catalog: the spec's §7.3 answer gives its two skills", "[unit]") {
  const std::string body = R"({"total": 2, "skills": [
    {"id": "skill-org-feishu", "name": "Feishu Organization Service", "version": "0.7.0",
     "type": "enterprise-skill", "capabilities": ["org-data-read", "user-auth"],
     "scenes": ["auth"], "endpoint": "https://skillcenter.ooder.net/skills/skill-org-feishu",
     "downloadUrl": "https://skillcenter.ooder.net/api/skills/skill-org-feishu/download"},
    {"id": "skill-org-dingding", "name": "Dingding Organization Service", "version": "0.7.0",
     "type": "enterprise-skill", "capabilities": ["org-data-read", "user-auth"],
     "scenes": ["auth"], "endpoint": "https://skillcenter.ooder.net/skills/skill-org-dingding"}
  ]})";
  auto answer = ParseCatalogAnswer(body, 100);
  REQUIRE(answer);
  REQUIRE(answer->records.size() == 2);
  const auto& first = answer->records[0];
  CHECK(first.skill_id == "skill-org-feishu");
  CHECK(first.agent_id == kCatalogAgentDefault);
  CHECK(first.skill_type == "enterprise-skill");
  CHECK(first.capabilities == std::vector<std::string>{"org-data-read", "user-auth"});
  CHECK(first.status == kademlia::store::SkillStatus::kHealthy);
  REQUIRE(first.descriptor);
  CHECK(first.descriptor->name == "Feishu Organization Service");
  CHECK(first.publisher == kademlia::PublicKey{});
}

TEST_CASE("catalog: bad skills are dropped and counted; private ones too; a bound holds",
          "[unit]") {
  const std::string body = R"({"skills": [
    {"id": "ok", "version": "1.0.0", "type": "t", "capabilities": ["c"], "endpoint": "h:1"},
    {"id": "no-version", "type": "t", "capabilities": ["c"], "endpoint": "h:1"},
    {"id": "bad;id", "version": "1.0.0", "type": "t", "capabilities": ["c"], "endpoint": "h:1"},
    {"id": "caps", "version": "1.0.0", "type": "t", "capabilities": "c", "endpoint": "h:1"},
    {"id": "secret", "version": "1.0.0", "type": "t", "capabilities": ["c"], "endpoint": "h:1",
     "access": "private"},
    42,
    {"id": "ok2", "version": "1.0.0", "type": "t", "capabilities": ["c"], "endpoint": "h:1"},
    {"id": "ok3", "version": "1.0.0", "type": "t", "capabilities": ["c"], "endpoint": "h:1"}
  ]})";
  auto answer = ParseCatalogAnswer(body, 2);
  REQUIRE(answer);
  REQUIRE(answer->records.size() == 2);
  CHECK(answer->records[1].skill_id == "ok2");
  CHECK(answer->invalid == 4);
  CHECK(answer->private_skips == 1);
  CHECK(answer->over_limit == 1);
}

TEST_CASE("catalog: a skill-details answer with providers gives one record each", "[unit]") {
  const std::string body = R"({"id": "s", "providers": [
    {"id": "s", "skillId": "s", "agentId": "a1", "version": "1.0.0", "type": "t",
     "capabilities": ["c"], "endpoint": "h:1", "status": "DEGRADED", "updatedAt": 1700000000000,
     "inputSchema": {"type": "object"}},
    {"id": "s", "skillId": "s", "agentId": "a2", "version": "1.1.0", "type": "t",
     "capabilities": ["c"], "endpoint": "h:2"}]})";
  auto answer = ParseCatalogAnswer(body, 10);
  REQUIRE(answer);
  REQUIRE(answer->records.size() == 2);
  CHECK(answer->records[0].agent_id == "a1");
  CHECK(answer->records[0].status == kademlia::store::SkillStatus::kDegraded);
  CHECK(answer->records[0].timestamp_ms == 1700000000000);
  REQUIRE(answer->records[0].descriptor);
  CHECK(answer->records[0].descriptor->input_schema == R"({"type":"object"})");
}

TEST_CASE("catalog: garbage answers are errors that say so", "[unit]") {
  for (const char* body : {"<html>oops</html>", "[1,2]", R"({"skills": 3})", R"({"hello": 1})",
                           R"({"providers": {}})", ""}) {
    INFO(body);
    CHECK_FALSE(ParseCatalogAnswer(body, 10).has_value());
  }
}

TEST_CASE(
    "circuit breaker: one failure opens it; back-off doubles to its bound; a success "
    "closes it",
    "[unit]") {
  CircuitBreaker breaker(BreakerConfig{transport::Seconds(5), transport::Seconds(12)});
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);
  CHECK(breaker.Allow(now));
  breaker.Failed(now);
  CHECK(breaker.state() == CircuitBreaker::State::kOpen);
  CHECK_FALSE(breaker.Allow(now + transport::Seconds(4)));
  CHECK(breaker.Allow(now + transport::Seconds(5)));  // the trial
  CHECK(breaker.state() == CircuitBreaker::State::kHalfOpen);
  CHECK_FALSE(breaker.Allow(now + transport::Seconds(5)));  // one trial at a time
  now += transport::Seconds(5);
  breaker.Failed(now);
  CHECK(breaker.retry_at() == now + transport::Seconds(10));
  now += transport::Seconds(10);
  CHECK(breaker.Allow(now));
  breaker.Failed(now);
  CHECK(breaker.retry_at() == now + transport::Seconds(12));  // bounded
  now += transport::Seconds(12);
  CHECK(breaker.Allow(now));
  breaker.Succeeded();
  CHECK(breaker.state() == CircuitBreaker::State::kClosed);
  CHECK(breaker.failures_in_a_row() == 0);
  breaker.Failed(now);
  CHECK(breaker.retry_at() == now + transport::Seconds(5));  // back to the first back-off
  CHECK(BreakerStateName(breaker.state()) == "open");
}

}  // namespace
}  // namespace skillnode::discovery::skillcenter

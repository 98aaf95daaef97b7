// The registry routes' shared answers (node/skill_answers.h): the 400 of a refused field, a
// registration's outcome, a failed search's DISC code, the sources and stages of an answer,
// what a request without a token may see, and the this-host check of registration.
#include "node/skill_answers.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>

#include "discovery/skill_entry.h"
#include "support/records.h"

namespace skillnode::node {
namespace {

using discovery::Source;
using discovery::search::DiscError;
using discovery::search::Found;
using discovery::search::SearchResult;
using discovery::search::StageReport;
using nlohmann::json;

// A Responder whose answer lands in `sent`.
struct Answer {
  std::optional<http::HttpResponse> sent;
  http::Responder responder;
  Answer(const Answer&) = delete;
  Answer& operator=(const Answer&) = delete;
  Answer() {
    auto slot = std::make_shared<http::ResponseSlot>();
    slot->deliver = [this](http::HttpResponse response) { sent = std::move(response); };
    responder = http::Responder(slot);
  }
  json Body() const { return json::parse(sent.value().body); }
};

kademlia::store::SkillRecord Private(const std::string& skill) {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent-001", skill);
  kademlia::store::SkillDescriptor descriptor;
  descriptor.access = "private";
  record.descriptor = descriptor;
  return record;
}

Found FoundBy(const kademlia::store::SkillRecord& record, Source source) {
  return Found{discovery::SkillEntry::Make(record), source};
}

// One public skill found locally and one private skill found in the DHT.
SearchResult Mixed() {
  SearchResult result;
  result.skills = {FoundBy(testing::SampleRecord(), Source::kLocal),
                   FoundBy(Private("secret"), Source::kDht)};
  result.private_skills = 1;
  result.stages = {StageReport{"local", "found", 1, 0.5, "", ""},
                   StageReport{"dht", "found", 1, 2.0, "", ""}};
  return result;
}

TEST_CASE("a refused field is a 400 with the code, the field named and the schema's violations",
          "[unit]") {
  Answer plain;
  BadField(plain.responder, discovery::FieldError{"limit", "must be an integer"}, "BAD_REQUEST");
  REQUIRE(plain.sent);
  CHECK(plain.sent->status == 400);
  CHECK(plain.Body() == json{{"error", "BAD_REQUEST"},
                             {"message", "limit: must be an integer"},
                             {"details", {{"field", "limit"}}}});

  Answer whole;
  discovery::FieldError error{"", "not JSON"};
  error.violations = {{"/tags/0", "must be a string"}};
  BadField(whole.responder, error, "INVALID");
  CHECK(whole.Body()["message"] == "not JSON");
  CHECK(whole.Body()["details"] ==
        json{{"field", ""},
             {"violations",
              json::array({{{"pointer", "/tags/0"}, {"reason", "must be a string"}}})}});
}

TEST_CASE(
    "a new registration is answered 201, an update 200 and an invalid one 400 naming the "
    "field",
    "[unit]") {
  discovery::RegisterOutcome outcome;
  outcome.status = discovery::RegisterStatus::kSuccess;
  outcome.message = "registered";
  outcome.record = testing::SampleRecord();
  Answer created;
  CHECK(AnswerRegistration(created.responder, outcome, {{"files", 2}}));
  CHECK(created.sent->status == 201);
  const json body = created.Body();
  CHECK(body["status"] == std::string(discovery::RegisterStatusName(outcome.status)));
  CHECK(body["agentId"] == "agent-001");
  CHECK(body["skillId"] == "skill-org-feishu");
  CHECK(body["timestamp"] == outcome.record.timestamp_ms);
  CHECK(body["skill"] == discovery::SkillJson(outcome.record, Source::kLocal));
  CHECK(body["files"] == 2);

  outcome.updated = true;
  Answer updated;
  CHECK(AnswerRegistration(updated.responder, outcome));
  CHECK(updated.sent->status == 200);

  outcome.status = discovery::RegisterStatus::kInvalid;
  outcome.field = "version";
  outcome.message = "version: not semver";
  Answer invalid;
  CHECK_FALSE(AnswerRegistration(invalid.responder, outcome));
  CHECK(invalid.sent->status == 400);
  CHECK(invalid.Body()["error"] == "INVALID");
  CHECK(invalid.Body()["details"]["field"] == "version");
}

TEST_CASE("a failed search is answered with its DISC code, its HTTP status and its stages",
          "[unit]") {
  SearchResult result;
  result.error = DiscError::kTimeout;
  result.message = "the DHT did not answer";
  result.stages = {StageReport{"dht", "timeout", 0, 3000, "DISC_001", "no answer in 3000 ms"}};
  Answer answer;
  DiscoveryError(answer.responder, result);
  CHECK(answer.sent->status == discovery::search::DiscHttpStatus(DiscError::kTimeout));
  const json body = answer.Body();
  CHECK(body["error"] == "DISC_001");
  CHECK(body["message"] == "the DHT did not answer");
  CHECK(body["details"]["stages"] == json::array({{{"stage", "dht"},
                                                   {"outcome", "timeout"},
                                                   {"records", 0},
                                                   {"ms", 3000.0},
                                                   {"code", "DISC_001"},
                                                   {"detail", "no answer in 3000 ms"}}}));
}

TEST_CASE("an answer's sources are each named once, sorted, and its stages carry no empty code",
          "[unit]") {
  SearchResult result = Mixed();
  result.skills.push_back(FoundBy(testing::SampleRecord("agent-002"), Source::kDht));
  CHECK(SourcesJson(result) == json::array({"dht", "local"}));
  CHECK(SourcesJson(SearchResult{}) == json::array());
  const json stages = StagesJson(result);
  REQUIRE(stages.size() == 2);
  CHECK(stages[0] == json{{"stage", "local"}, {"outcome", "found"}, {"records", 1}, {"ms", 0.5}});
}

TEST_CASE("an answer's stages and sources are written as their JSON trees dump, byte for byte",
          "[unit]") {
  SearchResult result = Mixed();
  result.skills.push_back(FoundBy(testing::SampleRecord("agent-002"), Source::kSkillCenter));
  result.skills.push_back(FoundBy(testing::SampleRecord("agent-003"), Source::kCache));
  result.stages.push_back(StageReport{"dht", "timeout", 0, 2000.0, "DISC_001", "no answer"});
  // Text the library escapes: quotes, a backslash, control characters, UTF-8; numbers of
  // every shape.
  result.stages.push_back(
      StageReport{"skillcenter", "failed", 3, 1e-7, "DISC_005", "\"down\" \\ \n\t\x01 \xc3\xa9"});
  result.stages.push_back(StageReport{"lan", "none", 12345678901, 1.0 / 3.0, "", "ignored"});
  result.stages.push_back(StageReport{"stale", "found", 0, 0.0, "", ""});
  std::string stages;
  AppendStagesJson(stages, result);
  CHECK(stages == StagesJson(result).dump());
  std::string sources;
  AppendSourcesJson(sources, result);
  CHECK(sources == SourcesJson(result).dump());
  CHECK(sources == R"(["cache","dht","local","skillcenter"])");
  std::string none;
  AppendStagesJson(none, SearchResult{});
  AppendSourcesJson(none, SearchResult{});
  CHECK(none == "[][]");
}

TEST_CASE("without a token the private skills are dropped and their stage does not count them",
          "[unit]") {
  SearchResult result = Mixed();
  HidePrivate(result, auth::AuthContext{});
  REQUIRE(result.skills.size() == 1);
  CHECK(result.skills[0].record().skill_id == "skill-org-feishu");
  CHECK(result.private_skills == 0);
  CHECK(result.stages[0].records == 1);
  CHECK(result.stages[0].outcome == "found");
  CHECK(result.stages[1].records == 0);
  CHECK(result.stages[1].outcome == "none");
  CHECK_FALSE(result.error);

  SearchResult shown = Mixed();
  HidePrivate(shown, auth::AuthContext{true, "ci"});
  CHECK(shown.skills.size() == 2);
  CHECK(shown.stages[1].records == 1);
}

TEST_CASE("a result of private skills only is 'no skills' to a request without a token", "[unit]") {
  SearchResult result;
  result.skills = {FoundBy(Private("secret"), Source::kLocal)};
  result.private_skills = 1;
  result.stages = {StageReport{"local", "found", 1, 0, "", ""}};
  HidePrivate(result, auth::AuthContext{});
  CHECK(result.skills.empty());
  REQUIRE(result.error);
  CHECK(*result.error == DiscError::kNoSkills);
  CHECK(result.message == "no skill matches the query");
  CHECK(result.stages[0].outcome == "none");
}

TEST_CASE("Visible is the result itself unless it hides something, else a copy without it",
          "[unit]") {
  const SearchResult mixed = Mixed();
  std::optional<SearchResult> copy;
  CHECK(&Visible(mixed, auth::AuthContext{true, "ci"}, copy) == &mixed);
  CHECK_FALSE(copy);
  const SearchResult& hidden = Visible(mixed, auth::AuthContext{}, copy);
  REQUIRE(copy);
  CHECK(&hidden == &*copy);
  CHECK(hidden.skills.size() == 1);
  CHECK(mixed.skills.size() == 2);

  SearchResult plain;
  plain.skills = {FoundBy(testing::SampleRecord(), Source::kLocal)};
  std::optional<SearchResult> unused;
  CHECK(&Visible(plain, auth::AuthContext{}, unused) == &plain);
  CHECK_FALSE(unused);
}

TEST_CASE("registration is taken from loopback and refused with 403 from another host", "[uv]") {
  http::HttpRequest local;
  local.peer = transport::Endpoint(transport::Address::Loopback4(), 50000);
  Answer accepted;
  CHECK(RequestFromThisHost(local, accepted.responder, "registration"));
  CHECK_FALSE(accepted.sent);

  // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): no interface of a test machine has it.
  http::HttpRequest remote;
  remote.peer = transport::Endpoint(transport::Address::V4({203, 0, 113, 7}), 50000);
  Answer refused;
  CHECK_FALSE(RequestFromThisHost(remote, refused.responder, "a heartbeat"));
  REQUIRE(refused.sent);
  CHECK(refused.sent->status == 403);
  const json body = refused.Body();
  CHECK(body["error"] == "UNAUTHORIZED");
  CHECK(body["message"] ==
        "a heartbeat is accepted only from this node's own host; 203.0.113.7 is not");
  CHECK(body["details"] == json{{"status", "UNAUTHORIZED"}, {"peer", "203.0.113.7"}});
}

}  // namespace
}  // namespace skillnode::node

// The invocation protocol's messages (node/invoke/invoke_protocol.h, skill_target.h) as pure
// functions: endpoints, provider URLs, the 202 / status / result answers, error kinds, back-off.
#include "node/invoke/invoke_protocol.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "node/invoke/skill_target.h"

namespace skillnode::node::invoke {
namespace {

using nlohmann::json;

EndpointUrl Endpoint(const std::string& url) {
  auto parsed = ParseEndpoint(url);
  REQUIRE(parsed);
  return *parsed;
}

transport::uv::HttpClientResponse Answer(long status, const std::string& body,
                                         std::map<std::string, std::string> headers = {}) {
  transport::uv::HttpClientResponse response;
  response.status = status;
  response.body = body;
  response.headers = std::move(headers);
  return response;
}

TEST_CASE("an endpoint must be an http or https URL with a host to be invocable", "[unit]") {
  const auto endpoint = Endpoint("HTTP://Example.COM:8080/skills/x/?a=1");
  CHECK(endpoint.origin == "http://example.com:8080");
  CHECK(endpoint.base == "http://example.com:8080/skills/x");
  CHECK(Endpoint("https://h").base == "https://h");
  for (const char* bad : {"127.0.0.1:9999", "ftp://h/x", "http://", "http:///x", "http://u@h/x",
                          "http://h h/x", ""}) {
    auto parsed = ParseEndpoint(bad);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().kind == InvokeErrorKind::kNotInvocable);
    CHECK(parsed.error().message.find(std::string("'") + bad + "'") != std::string::npos);
  }
}

TEST_CASE("the default status and result URLs percent-encode the execution id", "[unit]") {
  const auto endpoint = Endpoint("http://h:1/run/");
  CHECK(DefaultStatusUrl(endpoint, "a b/c") == "http://h:1/run/executions/a%20b%2Fc");
  CHECK(DefaultResultUrl(endpoint, "7") == "http://h:1/run/executions/7/result");
}

TEST_CASE("provider URLs must stay on the endpoint's origin", "[unit]") {
  const auto endpoint = Endpoint("http://h:80/run");
  CHECK(*ResolveProviderUrl(endpoint, "/executions/1", "status_url") == "http://h:80/executions/1");
  CHECK(*ResolveProviderUrl(endpoint, "http://H/executions/1", "status_url") ==
        "http://H/executions/1");
  for (const char* bad :
       {"http://other/executions/1", "https://h/x", "//other/x", "executions/1", "/a b"}) {
    auto resolved = ResolveProviderUrl(endpoint, bad, "status_url");
    REQUIRE_FALSE(resolved);
    CHECK(resolved.error().kind == InvokeErrorKind::kProtocol);
  }
}

TEST_CASE("a 202 answer gives the execution id and its URLs", "[unit]") {
  const auto endpoint = Endpoint("http://h/run");
  auto accepted = ParseAccepted(endpoint, Answer(202, R"({"execution_id": "e1"})"));
  REQUIRE(accepted);
  CHECK(accepted->status_url == "http://h/run/executions/e1");
  CHECK(accepted->result_url == "http://h/run/executions/e1/result");
  accepted =
      ParseAccepted(endpoint, Answer(202, R"({"execution_id": "e1"})", {{"location", "/jobs/e1"}}));
  REQUIRE(accepted);
  CHECK(accepted->status_url == "http://h/jobs/e1");
  accepted = ParseAccepted(
      endpoint, Answer(202, R"({"execution_id": "e1", "status_url": "http://h/s", "result_url":
                       "/r"})",
                       {{"location", "/ignored"}}));
  REQUIRE(accepted);
  CHECK(accepted->status_url == "http://h/s");
  CHECK(accepted->result_url == "http://h/r");
  for (const char* bad : {R"({"execution_id": ""})", R"({"execution_id": 7})", R"({})", "[1]", "{",
                          R"({"execution_id": "e", "status_url": 3})"}) {
    auto parsed = ParseAccepted(endpoint, Answer(202, bad));
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().kind == InvokeErrorKind::kProtocol);
  }
  CHECK_FALSE(
      ParseAccepted(endpoint, Answer(202, json{{"execution_id", std::string(300, 'e')}}.dump())));
}

TEST_CASE("status answers are pending, running, completed or failed", "[unit]") {
  auto status = ParseStatus(R"({"status": "running", "progress": 0.25, "message": "step 2"})");
  REQUIRE(status);
  CHECK(status->status == "running");
  CHECK(*status->progress == 0.25);
  CHECK(status->message == "step 2");
  status = ParseStatus(R"({"status": "failed", "error": {"code": 7}})");
  REQUIRE(status);
  CHECK(status->error == R"({"code":7})");
  CHECK(ParseStatus(R"({"status": "failed"})")->error == "(the provider gave no reason)");
  for (const char* bad :
       {R"({"status": "done"})", R"({"status": "running", "progress": 2})", R"({"progress": 0.5})",
        R"({"status": "running", "message": 1})", "not json"}) {
    CHECK_FALSE(ParseStatus(bad));
  }
}

TEST_CASE("an output answer needs \"output\"; deep JSON is refused", "[unit]") {
  auto output = ParseOutput(R"({"output": [1, 2], "execution_id": "x"})", "the result answer");
  REQUIRE(output);
  CHECK(output->output == json::array({1, 2}));
  CHECK(output->execution_id == "x");
  CHECK(ParseOutput(R"({"output": null})", "r")->output.is_null());
  CHECK_FALSE(ParseOutput(R"({"result": 1})", "r"));
  const std::string deep = R"({"output": )" + std::string(100, '[') + std::string(100, ']') + "}";
  auto refused = ParseOutput(deep, "the result answer");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("deeper than 64") != std::string::npos);
}

TEST_CASE("HTTP statuses map to error kinds", "[unit]") {
  CHECK(ErrorForStatus(Answer(401, ""), "u").kind == InvokeErrorKind::kUnauthorized);
  CHECK(ErrorForStatus(Answer(403, ""), "u").kind == InvokeErrorKind::kUnauthorized);
  CHECK(ErrorForStatus(Answer(404, ""), "u").kind == InvokeErrorKind::kProvider4xx);
  CHECK(ErrorForStatus(Answer(503, ""), "u").kind == InvokeErrorKind::kProvider5xx);
  CHECK(ErrorForStatus(Answer(302, ""), "u").kind == InvokeErrorKind::kProtocol);
  const auto error = ErrorForStatus(Answer(422, R"({"error": "bad language"})"), "http://h/x");
  CHECK(error.message == "http://h/x answered 422: bad language");
  CHECK(*error.http_status == 422);
}

TEST_CASE("each failure kind has its own exit status", "[unit]") {
  std::set<int> statuses;
  for (int i = 0; i < static_cast<int>(InvokeErrorKind::kCancelled); ++i) {
    statuses.insert(ExitStatusOf(static_cast<InvokeErrorKind>(i)));
  }
  CHECK(statuses.size() == static_cast<size_t>(InvokeErrorKind::kCancelled));
  CHECK_FALSE(statuses.contains(kExitOk));
  CHECK_FALSE(statuses.contains(kExitNodeFailure));
  CHECK_FALSE(statuses.contains(kExitUsage));
}

TEST_CASE("polling backs off by doubling, honouring Retry-After within bounds", "[unit]") {
  InvokeOptions options;
  CHECK(NextPollDelay(std::nullopt, std::nullopt, options) == transport::Millis(100));
  CHECK(NextPollDelay(transport::Millis(100), std::nullopt, options) == transport::Millis(200));
  CHECK(NextPollDelay(transport::Millis(1500), std::nullopt, options) == transport::Seconds(2));
  CHECK(NextPollDelay(transport::Millis(100), transport::Seconds(3), options) ==
        transport::Seconds(3));
  CHECK(NextPollDelay(transport::Millis(100), transport::Seconds(0), options) ==
        transport::Millis(100));
  CHECK(NextPollDelay(transport::Millis(100), transport::Seconds(3600), options) == kRetryAfterMax);
  CHECK(*ParseRetryAfter({{"retry-after", " 4 "}}) == transport::Seconds(4));
  CHECK_FALSE(ParseRetryAfter({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}));
  CHECK_FALSE(ParseRetryAfter({}));
}

TEST_CASE("the target is the asked provider, else the node's first", "[unit]") {
  const json skill = {{"id", "s"},
                      {"providers",
                       {{{"skillId", "s"}, {"agentId", "a"}, {"endpoint", "http://a/x"}},
                        {{"skillId", "s"},
                         {"agentId", "b"},
                         {"endpoint", "http://b/x"},
                         {"access", "restricted"},
                         {"inputSchema", {{"type", "object"}}}}}}};
  auto target = TargetFromSkillJson(skill, std::nullopt, "t");
  REQUIRE(target);
  CHECK(target->agent_id == "a");
  CHECK(target->input_schema.empty());
  target = TargetFromSkillJson(skill, std::string("b"), "t");
  REQUIRE(target);
  CHECK(target->endpoint == "http://b/x");
  CHECK(target->access == "restricted");
  CHECK(target->input_schema == R"({"type":"object"})");
  CHECK(target->token == "t");
  auto missing = TargetFromSkillJson(skill, std::string("c"), "");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == InvokeErrorKind::kNotFound);
  CHECK(missing.error().message.find("a, b") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::invoke

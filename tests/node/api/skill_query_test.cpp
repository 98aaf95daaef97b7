// The search routes' query parsing (node/api/skill_query.h): `q` beside every other filter,
// from GET /api/skills's parameters and from POST /api/skills/search's body, and each
// refusal a FieldError naming `q`.
#include "node/api/skill_query.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/api/query_text.h"

namespace skillnode::node::api {
namespace {

using nlohmann::json;

http::HttpRequest Get(std::string query) {
  http::HttpRequest request;
  request.method = "GET";
  request.path = "/api/skills";
  request.query = std::move(query);
  request.target = request.path + "?" + request.query;
  return request;
}

TEST_CASE("GET /api/skills reads q, decoded, beside every other filter", "[unit]") {
  const auto query = QueryFromParams(
      Get("q=summarising+pdfs%20fast&capability=doc-summary,pdf&scene=office&type=tool-skill"
          "&keyword=acme&version=%5E1.2&agentId=a1&skillId=s1&status=HEALTHY"));
  REQUIRE(query);
  CHECK(query->text == "summarising pdfs fast");
  CHECK(query->capabilities == std::vector<std::string>{"doc-summary", "pdf"});
  CHECK(query->scenes == std::vector<std::string>{"office"});
  CHECK(query->types == std::vector<std::string>{"tool-skill"});
  CHECK(query->keywords == std::vector<std::string>{"acme"});
  CHECK(query->version);
  CHECK(query->agent_id == "a1");
  CHECK(query->skill_id == "s1");
  CHECK(query->status == kademlia::store::SkillStatus::kHealthy);
  CHECK(QueryFromParams(Get("capability=x"))->text.empty());
  CHECK(QueryFromParams(Get("q=%20%20"))->text.empty());
}

TEST_CASE("GET /api/skills refuses a q too long, with too many words or not UTF-8, naming q",
          "[unit]") {
  for (const std::string& bad :
       {"q=" + std::string(kQueryTextBytesMax + 1, 'a'), std::string("q=pdf%C0%AF"),
        std::string("q=a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q")}) {
    INFO(bad);
    const auto query = QueryFromParams(Get(bad + "&capability=x"));
    REQUIRE_FALSE(query);
    CHECK(query.error().field == "q");
  }
  CHECK(QueryFromParams(Get("q=pdf%C0%AF")).error().message == "must be UTF-8 text");
}

TEST_CASE("POST /api/skills/search reads q beside the other fields", "[unit]") {
  const auto query = QueryFromJson({{"q", "Summarize PDF"},
                                    {"capabilities", {"doc-summary"}},
                                    {"scenes", {"office"}},
                                    {"version", ">=1.0.0"},
                                    {"status", "DEGRADED"},
                                    {"limit", 5}});
  REQUIRE(query);
  CHECK(query->text == "Summarize PDF");
  CHECK(query->capabilities == std::vector<std::string>{"doc-summary"});
  CHECK(query->scenes == std::vector<std::string>{"office"});
  CHECK(query->version);
  CHECK(query->status == kademlia::store::SkillStatus::kDegraded);
  CHECK(QueryFromJson({{"q", nullptr}})->text.empty());
  CHECK(QueryFromJson(json::object())->text.empty());
}

TEST_CASE("POST /api/skills/search refuses a q that is not a string, too long or too many words",
          "[unit]") {
  std::string many;
  for (size_t i = 0; i <= kQueryWordsMax; ++i) many += "word ";
  const std::vector<json> bads = {json(42),
                                  json::array({"pdf"}),
                                  json::object({{"text", "pdf"}}),
                                  json(true),
                                  json(std::string(kQueryTextBytesMax + 1, 'x')),
                                  json(many)};
  for (const json& bad : bads) {
    INFO(bad.dump());
    const auto query = QueryFromJson({{"q", bad}, {"capabilities", {"x"}}});
    REQUIRE_FALSE(query);
    CHECK(query.error().field == "q");
  }
  CHECK(QueryFromJson({{"q", 42}}).error().message == "must be a string");
}

}  // namespace
}  // namespace skillnode::node::api

#include "discovery/capabilities/capability_filter.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/ascii.h"

namespace skillnode::discovery::capabilities {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

bool Match(const char* pattern, const char* value) {
  return Pattern::Parse(pattern).value().Matches(AsciiLower(value));
}

ParamError Error(const Params& params) {
  auto parsed = ParseCapabilityParams(params);
  REQUIRE_FALSE(parsed.has_value());
  return parsed.error();
}

TEST_CASE("Patterns match exactly, by prefix, by suffix or anywhere, ignoring case", "[unit]") {
  CHECK(Match("deep_research", "deep_research"));
  CHECK_FALSE(Match("deep_research", "deep_research_2"));
  CHECK(Match("web_*", "web_search"));
  CHECK(Match("web_*", "web_"));
  CHECK_FALSE(Match("web_*", "my_web_search"));
  CHECK(Match("*search", "web_search"));
  CHECK_FALSE(Match("*search", "web_searcher"));
  CHECK(Match("*research*", "deep_research"));
  CHECK(Match("*research*", "web_researcher"));
  CHECK(Match("*research*", "research_agent"));
  CHECK_FALSE(Match("*research*", "web_search"));
  CHECK(Match("ML*", "mlops"));
  CHECK(Match("ml*", "ML_Vision"));
}

TEST_CASE("Star, double star and the empty pattern match everything", "[unit]") {
  for (const char* all : {"", "*", "**"}) {
    const Pattern pattern = Pattern::Parse(all).value();
    CHECK(pattern.kind() == Pattern::Kind::kAll);
    CHECK(pattern.Matches(""));
    CHECK(pattern.Matches("anything"));
  }
}

TEST_CASE("A star inside a pattern is refused", "[unit]") {
  CHECK_FALSE(Pattern::Parse("web*search").has_value());
  CHECK_FALSE(Pattern::Parse("*a*b*").has_value());
  const ParamError error = Error({{"reasoner", "a*b"}});
  CHECK(error.parameter == "reasoner");
  CHECK(error.provided == "a*b");
  CHECK_FALSE(error.allowed.empty());
}

TEST_CASE("No parameters give the document's defaults", "[unit]") {
  const CapabilityRequest request = ParseCapabilityParams({}).value();
  CHECK(request.format == Format::kJson);
  CHECK(request.limit == 100);
  CHECK(request.offset == 0);
  CHECK(request.include == kIncludeDescription);
  CHECK_FALSE(request.agents_set);
  CHECK_FALSE(request.FiltersItems());
  CHECK_FALSE(request.UsesNetwork());
}

TEST_CASE("Agent aliases and lists join into one sorted set", "[unit]") {
  const CapabilityRequest request =
      ParseCapabilityParams(
          {{"node_id", "b"}, {"agent", "a"}, {"agent_ids", "c,a,,d"}, {"node_ids", "e"}})
          .value();
  CHECK(request.agents_set);
  CHECK(request.agent_ids == std::vector<std::string>{"a", "b", "c", "d", "e"});
  CHECK(ParseCapabilityParams({{"agent", ""}}).value().agents_set == false);
}

TEST_CASE("Too many agent ids, tags or parameters are refused with a named limit", "[unit]") {
  std::string ids;
  for (size_t i = 0; i <= kAgentIdsMax; ++i) ids.append("a").append(std::to_string(i)).append(",");
  CHECK(Error({{"agent_ids", ids}}).parameter == "agent_ids");
  std::string tags;
  for (size_t i = 0; i <= kTagPatternsMax; ++i)
    tags.append("t").append(std::to_string(i)).append(",");
  CHECK(Error({{"tags", tags}}).parameter == "tags");
  CHECK(Error({{"skill", std::string(kPatternLengthMax + 1, 'x')}}).parameter == "skill");
  Params many(kParamsMax + 1, {"limit", "1"});
  CHECK(Error(many).message.find("at most") != std::string::npos);
}

TEST_CASE("Booleans take true/1/yes and false/0/no in any case, nothing else", "[unit]") {
  for (const char* yes : {"true", "1", "yes", "TRUE", "Yes"}) {
    const auto request = ParseCapabilityParams({{"include_input_schema", yes},
                                                {"include_output_schema", yes},
                                                {"include_examples", yes}})
                             .value();
    CHECK(request.include ==
          (kIncludeDescription | kIncludeInputSchema | kIncludeOutputSchema | kIncludeExamples));
  }
  for (const char* no : {"false", "0", "no", "NO"}) {
    CHECK(ParseCapabilityParams({{"include_descriptions", no}}).value().include == 0);
  }
  const ParamError error = Error({{"include_examples", "maybe"}});
  CHECK(error.parameter == "include_examples");
  CHECK(error.provided == "maybe");
  CHECK(error.allowed == std::vector<std::string>{"true", "false", "1", "0", "yes", "no"});
}

TEST_CASE("Compact leaves descriptions out unless asked for them", "[unit]") {
  CHECK(ParseCapabilityParams({{"format", "compact"}}).value().include == 0);
  CHECK(ParseCapabilityParams({{"format", "compact"}, {"include_descriptions", "true"}})
            .value()
            .include == kIncludeDescription);
  CHECK(ParseCapabilityParams({{"format", "XML"}}).value().format == Format::kXml);
}

TEST_CASE("Format, health, limit and offset values outside their sets are 400s", "[unit]") {
  ParamError error = Error({{"format", "yaml"}});
  CHECK(error.parameter == "format");
  CHECK(error.allowed == std::vector<std::string>{"json", "xml", "compact"});
  CHECK(error.message == "Invalid format parameter. Must be one of: json, xml, compact");
  error = Error({{"health_status", "bad"}});
  CHECK(error.allowed == std::vector<std::string>{"active", "inactive", "degraded"});
  for (const char* limit : {"501", "-1", "abc", "", "1e2", "10 "}) {
    CAPTURE(limit);
    CHECK(Error({{"limit", limit}}).parameter == "limit");
  }
  CHECK(ParseCapabilityParams({{"limit", "0"}}).value().limit == 0);
  CHECK(ParseCapabilityParams({{"limit", "500"}}).value().limit == 500);
  CHECK(Error({{"offset", "-5"}}).parameter == "offset");
  CHECK(ParseCapabilityParams({{"health_status", "Degraded"}}).value().health == Health::kDegraded);
}

TEST_CASE("An unknown parameter is refused, listing the known ones", "[unit]") {
  const ParamError error = Error({{"agnet", "x"}});
  CHECK(error.parameter == "agnet");
  CHECK(error.allowed == KnownParams());
  CHECK(std::find(error.allowed.begin(), error.allowed.end(), "node_ids") != error.allowed.end());
}

TEST_CASE("The first value of a repeated parameter counts", "[unit]") {
  const auto request = ParseCapabilityParams({{"limit", "5"}, {"limit", "7"}}).value();
  CHECK(request.limit == 5);
}

TEST_CASE("Health maps the registry's four states onto three", "[unit]") {
  CHECK(HealthOf(kademlia::store::SkillStatus::kHealthy) == Health::kActive);
  CHECK(HealthOf(kademlia::store::SkillStatus::kDegraded) == Health::kDegraded);
  CHECK(HealthOf(kademlia::store::SkillStatus::kUnhealthy) == Health::kInactive);
  CHECK(HealthOf(kademlia::store::SkillStatus::kMaintenance) == Health::kInactive);
  CHECK(HealthName(Health::kActive) == "active");
}

}  // namespace
}  // namespace skillnode::discovery::capabilities

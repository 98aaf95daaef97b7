#include "node/importers/plans/planned_skill.h"

#include <catch2/catch.hpp>

#include "discovery/skillmd/front_matter.h"

namespace skillnode::node::importers::plans {
namespace {

using kademlia::store::kDescriptionLengthMax;

// Whether `text` ends at a character boundary: its last character is whole.
bool EndsWhole(std::string_view text) { return discovery::skillmd::FirstNonUtf8Line(text) == 0; }

kademlia::store::SkillRecord Fields() {
  kademlia::store::SkillRecord fields;
  fields.agent_id = "route-planner@agent.example.org";
  fields.skill_id = "plan-route";
  fields.version = "2.1.0";
  fields.skill_type = "a2a-agent";
  fields.endpoint = "https://agent.example.org/a2a";
  fields.capabilities = {"routing"};
  fields.descriptor.emplace();
  fields.descriptor->name = "Plan route";
  return fields;
}

TEST_CASE("ImportId keeps lowercase letters, digits and . - _ and makes the rest one '-'",
          "[unit]") {
  CHECK(ImportId("Route Planner!", 128) == "route-planner");
  CHECK(ImportId("  --Track_Shipment.v2--  ", 128) == "track_shipment.v2");
  CHECK(ImportId("a  /  b", 128) == "a-b");
  CHECK(ImportId("io.github.Alice", 128) == "io.github.alice");
  CHECK(ImportId("路线规划", 128).empty());
  CHECK(ImportId("...", 128).empty());
}

TEST_CASE("ImportId cuts to the length and trims what the cut leaves at the end", "[unit]") {
  CHECK(ImportId("abc-def", 4) == "abc");
  CHECK(ImportId("abcdefgh", 5) == "abcde");
  CHECK(ImportId(std::string(300, 'x'), 128).size() == 128);
}

TEST_CASE("a description within 1,024 characters is kept whole, multibyte included", "[unit]") {
  CHECK(FitDescription("Plans routes.") == "Plans routes.");
  std::string wide;
  for (size_t i = 0; i < kDescriptionLengthMax; ++i) wide += "\xF0\x9F\x9A\x9A";  // 4 bytes each
  CHECK(FitDescription(wide) == wide);
}

TEST_CASE("a description over 1,024 characters is cut at a UTF-8 boundary with \"...\"", "[unit]") {
  std::string text;
  for (int i = 0; i < 1500; ++i)
    text += (i % 3 == 0) ? "\xC3\xA9" : (i % 3 == 1 ? "a" : "\xE2\x82\xAC");
  const std::string fitted = FitDescription(text);
  REQUIRE(fitted.ends_with("..."));
  CHECK(discovery::skillmd::CharacterCount(fitted) == kDescriptionLengthMax);
  CHECK(EndsWhole(fitted));
  CHECK(text.starts_with(fitted.substr(0, fitted.size() - 3)));
}

TEST_CASE("a description is also cut to the record's bytes when its characters are few", "[unit]") {
  // Continuation bytes alone are no characters to the record's count, but they are bytes.
  const std::string odd(5000, '\x80');
  const std::string fitted = FitDescription(odd);
  CHECK(fitted.size() <= kademlia::store::kDescriptionBytesMax);
  CHECK(fitted.ends_with("..."));
}

TEST_CASE("FitText turns separators and control characters into single spaces", "[unit]") {
  CHECK(FitText("Plan, route | book;\tnow\n", 128) == "Plan route book now");
  CHECK(FitText(";,|", 128).empty());
  CHECK(FitText("Plan route", 128) == "Plan route");
}

TEST_CASE("FitText cuts at a UTF-8 boundary within the byte limit", "[unit]") {
  CHECK(FitText("\xC3\xA9\xC3\xA9\xC3\xA9", 5) == "\xC3\xA9\xC3\xA9");
  CHECK(FitText("ab \xE2\x82\xAC", 5) == "ab");  // the cut space is trimmed too
}

TEST_CASE("ImportVersion keeps a semantic version and maps the common short forms", "[unit]") {
  CHECK(ImportVersion("2.1.0").value() == "2.1.0");
  CHECK(ImportVersion(" v1.2.3 ").value() == "1.2.3");
  CHECK(ImportVersion("1.0.0-beta.1+build.5").value() == "1.0.0-beta.1+build.5");
  CHECK(ImportVersion("1.2").value() == "1.2.0");
  CHECK(ImportVersion("v3").value() == "3.0.0");
}

TEST_CASE("ImportVersion refuses what is no semantic version, naming it", "[unit]") {
  for (const char* text : {"latest", "1.x", "01.2", "2024-05-01", "", "1.2.3.4"}) {
    auto version = ImportVersion(text);
    REQUIRE_FALSE(version);
    CHECK(version.error().message.find("'" + std::string(text) + "'") != std::string::npos);
  }
  const std::string long_version = "1.0.0-" + std::string(70, 'a');
  auto version = ImportVersion(long_version);
  REQUIRE_FALSE(version);
  CHECK(version.error().message.find("longer than 64") != std::string::npos);
}

TEST_CASE("CheckRegistrable accepts fields the registry takes and names what it refuses",
          "[unit]") {
  CHECK(CheckRegistrable(Fields()));
  auto fields = Fields();
  fields.capabilities.clear();
  CHECK(CheckRegistrable(fields).error().message.starts_with("capabilities"));
  fields = Fields();
  fields.version = "2";
  CHECK(CheckRegistrable(fields).error().message == "version: '2' is not a semantic version");
  fields = Fields();
  fields.agent_id = "a,b";
  CHECK(CheckRegistrable(fields).error().message.starts_with("agentId"));
  fields = Fields();
  fields.descriptor->access = "secret";
  CHECK(CheckRegistrable(fields).error().message.starts_with("descriptor.access"));
  fields = Fields();
  fields.origin.emplace();  // no source URL, no document
  CHECK(CheckRegistrable(fields).error().message.starts_with("origin.sourceUrl"));
}

}  // namespace
}  // namespace skillnode::node::importers::plans

#include "discovery/semver.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::discovery {
namespace {

struct Case {
  const char* range;
  const char* version;
  bool expected;
};

// (range, version, satisfied) as node-semver documents and behaves.
const std::vector<Case> kCases = {
    // Primitives and bare versions.
    {"1.0.0", "1.0.0", true},
    {"1.0.0", "1.0.1", false},
    {"=1.0.0", "1.0.0", true},
    {">=1.0.0", "1.0.0", true},
    {">=1.0.0", "1.1.0", true},
    {">=1.0.0", "0.1.0", false},
    {">1.0.0", "1.0.1", true},
    {">1.0.0", "1.0.0", false},
    {"<=2.0.0", "2.0.0", true},
    {"<=2.0.0", "2.2.9", false},
    {"<2.0.0", "1.9999.9999", true},
    {"<2.0.0", "2.0.0", false},
    {">= 1.0.0", "1.0.0", true},
    {">  1.0.0", "1.0.1", true},
    {"<=   2.0.0", "2.0.0", true},
    {">=0.1.97", "v0.1.93", false},
    {">=0.1.97", "v0.1.97", true},
    // X-ranges and partial versions.
    {"", "1.0.0", true},
    {"*", "1.2.3", true},
    {"x", "1.2.3", true},
    {">=*", "0.2.4", true},
    {">*", "1.2.3", false},
    {"2.x.x", "2.1.3", true},
    {"2.x.x", "3.1.3", false},
    {"1.2.x", "1.2.3", true},
    {"1.2.x", "1.3.3", false},
    {"2.*.*", "2.1.3", true},
    {"1.2.*", "1.2.3", true},
    {"2", "2.1.2", true},
    {"2", "1.1.2", false},
    {"2.3", "2.3.1", true},
    {"2.3", "2.4.1", false},
    {"=0.7.x", "0.7.2", true},
    {"=0.7.x", "0.8.2", false},
    {"<=0.7.x", "0.7.2", true},
    {">=0.7.x", "0.6.2", false},
    {"<0.7.x", "0.7.2", false},
    {"<0.7.x", "0.6.9", true},
    {">=1.2", "1.2.8", true},
    {">=1.2", "1.1.1", false},
    {">1.2", "1.2.8", false},
    {">1.2", "1.3.0", true},
    {"<1.2", "1.1.1", true},
    {"< 1.2", "1.2.0", false},
    {"<=7.x", "7.9.9", true},
    {">1", "1.9.9", false},
    {">1", "2.0.0", true},
    // Tilde.
    {"~1.2.3", "1.2.9", true},
    {"~1.2.3", "1.3.0", false},
    {"~1.2.3", "1.2.2", false},
    {"~0.0.1", "0.0.2", true},
    {"~0.0.1", "0.1.0", false},
    {"~2.4", "2.4.5", true},
    {"~2.4", "2.5.0", false},
    {"~1", "1.2.3", true},
    {"~1", "2.2.3", false},
    {"~>3.2.1", "3.2.2", true},
    {"~>3.2.1", "3.3.2", false},
    {"~> 1", "1.2.3", true},
    {"~ 1.0", "1.0.2", true},
    {"~x", "0.0.9", true},
    {"~v0.5.4-pre", "0.5.5", true},
    {"~v0.5.4-pre", "0.5.4", true},
    {"~v0.5.4-beta", "0.5.4-alpha", false},
    // Caret.
    {"^1.2.3", "1.8.1", true},
    {"^1.2.3", "2.0.0", false},
    {"^1.2.3", "1.2.2", false},
    {"^0.2.3", "0.2.9", true},
    {"^0.2.3", "0.3.0", false},
    {"^0.0.3", "0.0.3", true},
    {"^0.0.3", "0.0.4", false},
    {"^1.2", "1.4.2", true},
    {"^1.2", "1.1.9", false},
    {"^0.1", "0.1.2", true},
    {"^0.x", "0.9.0", true},
    {"^0.x", "1.0.0", false},
    {"^0.0.x", "0.0.5", true},
    {"^0.0.x", "0.1.0", false},
    {"^x", "1.2.3", true},
    {"^1.2 ^1", "1.4.2", true},
    {"^1.2.3+build", "1.3.0", true},
    {"^1.2.3+build", "1.2.0", false},
    // Hyphen ranges.
    {"1.0.0 - 2.0.0", "1.2.3", true},
    {"1.0.0 - 2.0.0", "2.2.3", false},
    {"1.2 - 2.3", "1.2.0", true},
    {"1.2 - 2.3", "2.3.9", true},
    {"1.2 - 2.3", "2.4.0", false},
    {"1.2.3 - 2", "2.9.9", true},
    {"1.2.3 - 2", "3.0.0", false},
    {"x - 1.0.0", "0.9.7", true},
    {"1.0.0 - x", "1.9.7", true},
    {"1.2.3+asdf - 2.4.3+asdf", "1.2.3", true},
    // AND and OR.
    {"~1.2.1 >=1.2.3", "1.2.3", true},
    {"~1.2.1 =1.2.3", "1.2.3", true},
    {">=1.2.3 >=1.2.1", "1.2.3", true},
    {">=1.0.0 <1.1.0", "1.1.0", false},
    {"0.1.20 || 1.2.4", "1.2.4", true},
    {"0.1.20 || 1.2.4", "1.2.3", false},
    {">=0.2.3 || <0.0.1", "0.0.0", true},
    {">=0.2.3 || <0.0.1", "0.2.2", false},
    {"1.2.x || 2.x", "2.1.3", true},
    {"1.2.x || 2.x", "1.1.3", false},
    {"||", "1.3.4", true},
    {"1.2.3 ||", "9.9.9", true},
    // Prereleases: admitted only by a comparator naming the same major.minor.patch.
    {">1.2.3-alpha.3", "1.2.3-alpha.7", true},
    {">1.2.3-alpha.3", "3.4.5-alpha.9", false},
    {">1.2.3-alpha.3", "3.4.5", true},
    {">1.2.3-alpha.3", "1.2.3-alpha.2", false},
    {"^1.2.3-alpha", "1.2.3-pre", true},
    {"^1.2.3-alpha", "1.2.4-pre", false},
    {"^0.0.1-alpha", "0.0.1-beta", true},
    {"^0.0.1-alpha", "0.0.1", true},
    {"1.2.3-pre+asdf - 2.4.3-pre+asdf", "1.2.3-pre.2", true},
    {"1.2.3-pre+asdf - 2.4.3-pre+asdf", "2.4.3-alpha", true},
    {"1.2.3+asdf - 2.4.3+asdf", "1.2.3-pre.2", false},
    {"*", "1.2.3-foo", false},
    {"", "1.0.0-rc.1", false},
    {"^1.2.3", "1.2.3-beta", false},
    {"^1.2.3", "2.0.0-alpha", false},
    {"^1.0.0", "2.0.0-rc1", false},
    {"<=1.2.3", "1.2.3-beta", false},
    {"<1.2.3", "1.2.3-beta", false},
    {"=1.2.3", "1.2.3-beta", false},
    {"1 - 2", "2.0.0-pre", false},
    {"1.1.x", "1.1.0-a", false},
    {"~0.0.1", "0.1.0-alpha", false},
    {">=0.7.x", "0.7.0-asdf", false},
    {"1.2.3-beta.2", "1.2.3-beta.2", true},
    {"1.2.3-beta.2 || 2.x", "1.2.3-beta.3", false},
    // Unparsable versions satisfy nothing.
    {"1", "1.0.0beta", false},
    {"*", "1.2", false},
    {"*", "not-a-version", false},
};

TEST_CASE("A range admits exactly the versions node-semver admits", "[unit]") {
  REQUIRE(kCases.size() >= 60);
  for (const Case& c : kCases) {
    INFO("range '" << c.range << "' version '" << c.version << "'");
    auto range = SemverRange::Parse(c.range);
    REQUIRE(range.has_value());
    CHECK(range->Satisfies(std::string_view(c.version)) == c.expected);
  }
}

TEST_CASE("Ranges desugar to node-semver's documented comparators", "[unit]") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"1.2.3 - 2.3.4", ">=1.2.3 <=2.3.4"},
      {"1.2 - 2.3.4", ">=1.2.0 <=2.3.4"},
      {"1.2.3 - 2.3", ">=1.2.3 <2.4.0-0"},
      {"1.2.3 - 2", ">=1.2.3 <3.0.0-0"},
      {"1.2 - 2.3", ">=1.2.0 <2.4.0-0"},
      {"*", "*"},
      {"", "*"},
      {"1.x", ">=1.0.0 <2.0.0-0"},
      {"1.2.x", ">=1.2.0 <1.3.0-0"},
      {"1", ">=1.0.0 <2.0.0-0"},
      {"1.2", ">=1.2.0 <1.3.0-0"},
      {"~1.2.3", ">=1.2.3 <1.3.0-0"},
      {"~1.2", ">=1.2.0 <1.3.0-0"},
      {"~1", ">=1.0.0 <2.0.0-0"},
      {"~0.2.3", ">=0.2.3 <0.3.0-0"},
      {"~0", ">=0.0.0 <1.0.0-0"},
      {"~1.2.3-beta.2", ">=1.2.3-beta.2 <1.3.0-0"},
      {"^1.2.3", ">=1.2.3 <2.0.0-0"},
      {"^0.2.3", ">=0.2.3 <0.3.0-0"},
      {"^0.0.3", ">=0.0.3 <0.0.4-0"},
      {"^1.2.3-beta.2", ">=1.2.3-beta.2 <2.0.0-0"},
      {"^0.0.3-beta", ">=0.0.3-beta <0.0.4-0"},
      {"^1.2.x", ">=1.2.0 <2.0.0-0"},
      {"^0.0.x", ">=0.0.0 <0.1.0-0"},
      {"^0.0", ">=0.0.0 <0.1.0-0"},
      {"^1.x", ">=1.0.0 <2.0.0-0"},
      {"^0.x", ">=0.0.0 <1.0.0-0"},
      {">1", ">=2.0.0"},
      {"<=1.2", "<1.3.0-0"},
      {"<1.2", "<1.2.0-0"},
      {">=1.2", ">=1.2.0"},
      {">1.2", ">=1.3.0"},
      {">*", "<0.0.0-0"},
      {"1.2.3 || 2", "1.2.3||>=2.0.0 <3.0.0-0"},
      {"> 1.2.3", ">1.2.3"},
      {"=v1.2.3+build", "1.2.3"},
  };
  for (const auto& [text, expected] : cases) {
    INFO("range '" << text << "'");
    auto range = SemverRange::Parse(text);
    REQUIRE(range.has_value());
    CHECK(range->ToString() == expected);
    CHECK(range->text() == text);
  }
}

TEST_CASE("An invalid range is an error that names the offending text", "[unit]") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"garbage", "garbage"},     {">=abc", ">=abc"},
      {"1.2.3.4", "1.2.3.4"},     {">=", ">="},
      {"1.2.3 <", "1.2.3 <"},     {"~", "~"},
      {"1.2.3 -", "1.2.3 -"},     {"- 1.2.3", "- 1.2.3"},
      {"1 - 2 - 3", "1 - 2 - 3"}, {"01.2.3", "01.2.3"},
      {"1.2.3-01", "1.2.3-01"},   {"1.2.3-", "1.2.3-"},
      {"1.2-beta", "1.2-beta"},   {">>1.2.3", ">>1.2.3"},
      {"1.2.3 || abc", "abc"},    {"1.2.3-alpha..1", "1.2.3-alpha..1"},
      {"1.2.3 | 2.0.0", "|"},     {"9007199254740992", "9007199254740992"},
  };
  for (const auto& [text, offending] : cases) {
    INFO("range '" << text << "'");
    auto range = SemverRange::Parse(text);
    REQUIRE_FALSE(range.has_value());
    CHECK(range.error().code == transport::ErrorCode::kInvalidArgument);
    CHECK(range.error().message.find(offending) != std::string::npos);
  }
  CHECK_FALSE(SemverRange::Parse(std::string(kRangeLengthMax + 1, '1')).has_value());
}

TEST_CASE("A version parses strictly, with an optional leading v or =", "[unit]") {
  auto v = SemVer::Parse(" v1.2.3-alpha.1+build.5 ");
  REQUIRE(v.has_value());
  CHECK(v->major == 1);
  CHECK(v->minor == 2);
  CHECK(v->patch == 3);
  CHECK(v->prerelease == std::vector<std::string>{"alpha", "1"});
  CHECK(v->build == "build.5");
  CHECK(v->ToString() == "1.2.3-alpha.1+build.5");
  CHECK(SemVer::Parse("=1.2.3").has_value());
  CHECK(SemVer::Parse("9007199254740991.0.0").has_value());
  for (const char* bad : {"", "1.2", "1.2.x", "01.2.3", "1.2.3-", "1.2.3+", "1.2.3-01", "a.b.c",
                          "1.2.3.4", "9007199254740992.0.0", "1.2.3 4", "vv1.2.3"}) {
    INFO("version '" << bad << "'");
    auto parsed = SemVer::Parse(bad);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().message.find(bad) != std::string::npos);
  }
  CHECK_FALSE(SemVer::Parse(std::string(kSemVerLengthMax - 4, '1') + ".0.0").has_value());
}

TEST_CASE("Versions order by semver 2.0 precedence", "[unit]") {
  const std::vector<const char*> ascending = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                              "1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
                                              "1.0.0-rc.1",  "1.0.0",         "1.0.1",
                                              "1.1.0",       "2.0.0",         "10.0.0"};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      INFO(ascending[i] << " vs " << ascending[j]);
      const int c =
          CompareSemVer(SemVer::Parse(ascending[i]).value(), SemVer::Parse(ascending[j]).value());
      CHECK((c < 0) == (i < j));
      CHECK((c == 0) == (i == j));
    }
  }
  CHECK(CompareSemVer(SemVer::Parse("1.0.0+a").value(), SemVer::Parse("1.0.0+b").value()) == 0);
  CHECK(CompareSemVer(SemVer::Parse("1.0.0-2").value(), SemVer::Parse("1.0.0-10").value()) < 0);
}

}  // namespace
}  // namespace skillnode::discovery

// SemverParser (discovery/semver_parser.h) on its own: the comparator sets it builds from range
// text, operator by operator, and the versions it reads. semver_test.cpp checks the same
// grammar through SemverRange against node-semver's answers.
#include "discovery/semver_parser.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::discovery {
namespace {

// "op version" per comparator, sets joined by " || ".
std::string Written(const std::vector<SemverComparatorSet>& sets) {
  static const char* kOps[] = {"*", "=", "<", "<=", ">", ">="};
  std::string out;
  for (const SemverComparatorSet& set : sets) {
    if (!out.empty()) out += " || ";
    for (size_t i = 0; i < set.size(); ++i) {
      if (i > 0) out += ' ';
      out += kOps[static_cast<size_t>(set[i].op)];
      if (set[i].op != SemverOp::kAny) out += set[i].version.ToString();
    }
  }
  return out;
}

std::string Parsed(const std::string& text) {
  auto sets = SemverParser::Range(text);
  REQUIRE(sets);
  return Written(*sets);
}

TEST_CASE("The parser turns each operator into plain comparators", "[unit]") {
  CHECK(Parsed("1.2.3") == "=1.2.3");
  CHECK(Parsed("=v1.2.3") == "=1.2.3");
  CHECK(Parsed(">=1.2.3") == ">=1.2.3");
  CHECK(Parsed("<1.2") == "<1.2.0-0");
  CHECK(Parsed(">1.2") == ">=1.3.0");
  CHECK(Parsed("<=1") == "<2.0.0-0");
  CHECK(Parsed("1.2.x") == ">=1.2.0 <1.3.0-0");
  CHECK(Parsed("~1.2.3") == ">=1.2.3 <1.3.0-0");
  CHECK(Parsed("~>1") == ">=1.0.0 <2.0.0-0");
  CHECK(Parsed("^1.2.3") == ">=1.2.3 <2.0.0-0");
  CHECK(Parsed("^0.2.3") == ">=0.2.3 <0.3.0-0");
  CHECK(Parsed("^0.0.3") == ">=0.0.3 <0.0.4-0");
  CHECK(Parsed("^1.2.3-beta.2") == ">=1.2.3-beta.2 <2.0.0-0");
}

TEST_CASE("The parser reads sets, hyphens, wildcards and operators written apart", "[unit]") {
  CHECK(Parsed("") == "*");
  CHECK(Parsed("*") == "*");
  CHECK(Parsed(">*") == "<0.0.0-0");  // admits nothing
  CHECK(Parsed("1.2 - 2.3.4") == ">=1.2.0 <=2.3.4");
  CHECK(Parsed("1.2.3 - 2") == ">=1.2.3 <3.0.0-0");
  CHECK(Parsed("* - 2.x") == "<3.0.0-0");
  CHECK(Parsed(">= 1.0.0 < 2") == ">=1.0.0 <2.0.0-0");
  CHECK(Parsed("1.x || >=2.5.0 || 5.0.0 - 7.2.3") ==
        ">=1.0.0 <2.0.0-0 || >=2.5.0 || >=5.0.0 <=7.2.3");
}

TEST_CASE("The parser refuses bad ranges and names what is wrong", "[unit]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"1.2.3 - ", "hyphen range"},
      {">=", "operator without a version"},
      {"~ ", "operator without a version"},
      {"1.02.3", "leading zero"},
      {"1.2.3.4", "more than three numbers"},
      {"1.2-rc", "prerelease or build without a patch number"},
      {std::string(kRangeLengthMax + 1, '1'), "longer than the limit"},
  };
  for (const auto& [text, reason] : bad) {
    INFO(text.substr(0, 40));
    auto sets = SemverParser::Range(text);
    REQUIRE_FALSE(sets);
    CHECK(sets.error().message.find(reason) != std::string::npos);
  }
}

TEST_CASE("The parser reads a strict version with its prerelease and build", "[unit]") {
  auto version = SemverParser::Version("  v1.22.333-rc.01a.7+build.5 ");
  REQUIRE(version);
  CHECK(version->major == 1);
  CHECK(version->minor == 22);
  CHECK(version->patch == 333);
  CHECK(version->prerelease == std::vector<std::string>{"rc", "01a", "7"});
  CHECK(version->build == "build.5");
  for (const char* bad : {"1.2", "1.x.3", "1.2.3-01", "1.2.3+", "01.2.3", "9007199254740992.0.0"}) {
    INFO(bad);
    CHECK_FALSE(SemverParser::Version(bad));
  }
  CHECK(IsNumericIdentifier("0042"));
  CHECK_FALSE(IsNumericIdentifier("4a"));
  CHECK_FALSE(IsNumericIdentifier(""));
}

}  // namespace
}  // namespace skillnode::discovery

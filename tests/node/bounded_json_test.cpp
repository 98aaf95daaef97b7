#include "node/bounded_json.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node {
namespace {

TEST_CASE("nesting is counted on the text, brackets inside strings not counted", "[unit]") {
  CHECK(NestingDepth("{}", 10) == 1);
  CHECK(NestingDepth(R"({"a": [[1], {"b": 2}]})", 10) == 3);
  CHECK(NestingDepth(R"({"a": "[[[\"[[["})", 10) == 1);
  CHECK(NestingDepth(std::string(100000, '['), 10) == 11);  // stops past the limit
}

TEST_CASE("bounded JSON parses, and names what is not JSON or nests too deep", "[unit]") {
  auto parsed = ParseBoundedJson(R"({"a": [1, 2]})", 2, "the page");
  REQUIRE(parsed);
  CHECK((*parsed)["a"][1] == 2);
  auto deep = ParseBoundedJson(R"({"a": [[1]]})", 2, "the page");
  REQUIRE_FALSE(deep);
  CHECK(deep.error().message == "the page nests JSON deeper than 2 levels");
  auto broken = ParseBoundedJson("{", 2, "the page");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message == "the page is not valid JSON");
  CHECK(broken.error().code == transport::ErrorCode::kParse);
}

}  // namespace
}  // namespace skillnode::node

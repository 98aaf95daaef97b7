// The one YAML reader: lines in values and errors, counted from where the document starts.
#include "discovery/yaml/yaml_tree.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery::yaml {
namespace {

TEST_CASE("Values carry their line, offset by the document's first line", "[unit]") {
  auto tree = ParseYaml("a: 1\nb:\n  - x\n", 10);
  REQUIRE(tree);
  REQUIRE(tree->Find("a") != nullptr);
  CHECK(tree->Find("a")->line == 10);
  CHECK(tree->Find("b")->items.at(0).line == 12);
}

TEST_CASE("Errors name the line in the enclosing file", "[unit]") {
  auto error = ParseYaml("a: 1\nb: [x\n", 5);
  REQUIRE_FALSE(error);
  CHECK(error.error().message.starts_with("line "));
  auto duplicate = ParseYaml("a: 1\na: 2\n", 2);
  REQUIRE_FALSE(duplicate);
  CHECK(duplicate.error().message == "line 3: duplicate key 'a'");
}

TEST_CASE("CRLF line endings read as LF ones", "[unit]") {
  auto tree = ParseYaml("a: 1\r\nb: two words\r\n");
  REQUIRE(tree);
  CHECK(tree->Find("b")->scalar == "two words");
  CHECK(tree->Find("b")->line == 2);
}

}  // namespace
}  // namespace skillnode::discovery::yaml

#include "node/importers/documents/json_fields.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

TEST_CASE("a field reader reads typed fields and names the first failure by its path", "[unit]") {
  const json doc =
      json::parse(R"({"name": "a", "empty": "", "list": ["x", "y"], "inner": {"n": 1, "s": "t"}})");
  FieldReader root(doc, "");
  CHECK(root.String("name", Presence::kRequired, 10) == "a");
  CHECK(root.String("missing", Presence::kOptional, 10).empty());
  CHECK_FALSE(root.MaybeString("missing", 10));
  CHECK(root.Strings("list", Presence::kRequired, 2, 1) == std::vector<std::string>{"x", "y"});
  CHECK(root.Array("absent", Presence::kOptional, 5).empty());
  REQUIRE(root.MaybeObject("inner") != nullptr);
  FieldReader inner = root.At(*root.MaybeObject("inner"), "inner");
  CHECK(inner.String("s", Presence::kRequired, 10) == "t");
  REQUIRE(root.ok());

  inner.String("n", Presence::kRequired, 10);     // a number: the first failure
  root.String("empty", Presence::kRequired, 10);  // a later one is not recorded
  CHECK_FALSE(root.ok());
  CHECK_FALSE(inner.ok());  // the two share one failure
  CHECK(root.error().message == "inner.n: not a string");
  CHECK(root.error().code == transport::ErrorCode::kParse);
  CHECK(root.String("name", Presence::kRequired, 10).empty());  // reads after it give nothing
}

TEST_CASE("a field reader enforces lengths, item counts, presence and types", "[unit]") {
  const json doc = json::parse(R"({"s": "abcdef", "l": ["a", "b", "c"], "o": 3, "e": ""})");
  auto failure = [&doc](auto read) {
    FieldReader reader(doc, "doc");
    read(reader);
    REQUIRE_FALSE(reader.ok());
    return reader.error().message;
  };
  CHECK(failure([](FieldReader& r) { r.String("s", Presence::kRequired, 3); }) ==
        "doc.s: longer than 3 bytes");
  CHECK(failure([](FieldReader& r) { r.Strings("l", Presence::kRequired, 2, 5); }) ==
        "doc.l: more than 2 items");
  CHECK(failure([](FieldReader& r) { r.Strings("l", Presence::kRequired, 5, 0); }) ==
        "doc.l[0]: longer than 0 bytes");
  CHECK(failure([](FieldReader& r) { r.String("e", Presence::kRequired, 5); }) ==
        "doc.e: required, a non-empty string");
  CHECK(failure([](FieldReader& r) { r.Array("x", Presence::kRequired, 5); }) ==
        "doc.x: required, an array");
  CHECK(failure([](FieldReader& r) { r.Array("s", Presence::kOptional, 5); }) ==
        "doc.s: not an array");
  CHECK(failure([](FieldReader& r) { r.MaybeObject("o"); }) == "doc.o: not an object");
  FieldReader not_object(json::array(), "");
  REQUIRE_FALSE(not_object.ok());
  CHECK(not_object.error().message == "the document: not an object");
}

}  // namespace
}  // namespace skillnode::node::importers::documents

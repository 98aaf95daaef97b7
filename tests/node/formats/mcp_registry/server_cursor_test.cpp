// The MCP Registry API's cursor (node/formats/mcp_registry/server_cursor.h): opaque to clients,
// read back exactly, and nothing this node did not make is taken for one.
#include "node/formats/mcp_registry/server_cursor.h"

#include <catch2/catch.hpp>

namespace skillnode::node::formats::mcp_registry {
namespace {

TEST_CASE("a cursor names a server version and reads back to it", "[unit]") {
  const ServerKey key{"io.github.alice/weather", "1.4.0+build.7"};
  const std::string cursor = EncodeServerCursor(key);
  CHECK(cursor.starts_with("c1."));
  // Opaque and safe in a query string without encoding: base64url, no padding.
  CHECK(cursor.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
        std::string::npos);
  CHECK(cursor.find("weather") == std::string::npos);
  CHECK(DecodeServerCursor(cursor) == key);
  // Every length of name (all three base64 tails).
  for (std::string name = "a/b"; name.size() < 12; name += "c") {
    CHECK(DecodeServerCursor(EncodeServerCursor({name, "1.0.0"})) == ServerKey{name, "1.0.0"});
  }
}

TEST_CASE("text this node did not give out is not a cursor", "[unit]") {
  const std::string good = EncodeServerCursor({"a.b/c", "1.0.0"});
  for (const std::string& bad :
       {std::string(""), std::string("zzz"), std::string("c1."),
        std::string("c2.") + good.substr(3), good + "=", good + "A",
        good.substr(0, good.size() - 1) + "+", std::string("c1.!!!!"),
        // Well-formed base64url of text without the newline, or with two.
        EncodeServerCursor({"a.b/c", "1.0\n0"}), EncodeServerCursor({"no name", "1.0.0"}),
        EncodeServerCursor({"a.b/c", "1.0.0\x01"}), std::string("c1.YWJj"),
        "c1." + std::string(600, 'A')}) {
    INFO(bad);
    CHECK_FALSE(DecodeServerCursor(bad).has_value());
  }
}

}  // namespace
}  // namespace skillnode::node::formats::mcp_registry

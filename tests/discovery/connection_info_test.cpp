#include "discovery/connection_info.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery {
namespace {

TEST_CASE("connection info is read from host:port, [v6]:port and URL endpoints", "[unit]") {
  auto plain = ParseEndpoint("192.168.1.100:8080");
  REQUIRE(plain);
  CHECK(plain->protocol == "http");
  CHECK(plain->host == "192.168.1.100");
  CHECK(plain->port == 8080);
  CHECK(plain->base_path.empty());
  auto v6 = ParseEndpoint("[2001:db8::1]:9000");
  REQUIRE(v6);
  CHECK(v6->host == "2001:db8::1");
  CHECK(v6->port == 9000);
  auto url = ParseEndpoint("https://skills.example.org/api/v1");
  REQUIRE(url);
  CHECK(url->protocol == "https");
  CHECK(url->host == "skills.example.org");
  CHECK(url->port == 443);
  CHECK(url->base_path == "/api/v1");
  auto with_port = ParseEndpoint("http://127.0.0.1:8080/api");
  REQUIRE(with_port);
  CHECK(with_port->port == 8080);
  CHECK(with_port->base_path == "/api");
}

TEST_CASE("endpoints without a usable host or port are refused with the reason", "[unit]") {
  for (const char* bad : {"", ":80", "host", "host:0", "host:70000", "host:8x", "[::1:80",
                          "tcp://host", "://host:1"}) {
    auto parsed = ParseEndpoint(bad);
    INFO(bad);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message.rfind("endpoint:", 0) == 0);
  }
}

}  // namespace
}  // namespace skillnode::discovery

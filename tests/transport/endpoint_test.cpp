#include "transport/endpoint.h"

#include <catch2/catch.hpp>
#include <unordered_set>

namespace skillnode::transport {
namespace {

TEST_CASE("an IPv4 endpoint parses and prints back the same", "[unit]") {
  auto e = Endpoint::Parse("1.2.3.4:6881");
  REQUIRE(e);
  CHECK(e->address().is_v4());
  CHECK(e->port() == 6881);
  CHECK(e->ToString() == "1.2.3.4:6881");
}

TEST_CASE("a bracketed IPv6 endpoint parses and prints back the same", "[unit]") {
  auto e = Endpoint::Parse("[::1]:6881");
  REQUIRE(e);
  CHECK_FALSE(e->address().is_v4());
  CHECK(e->address().IsLoopback());
  CHECK(e->ToString() == "[::1]:6881");
  auto full = Endpoint::Parse("[2001:db8::17]:443");
  REQUIRE(full);
  CHECK(full->ToString() == "[2001:db8::17]:443");
}

TEST_CASE("an IPv4-mapped IPv6 address is folded to IPv4", "[unit]") {
  auto e = Endpoint::Parse("[::ffff:10.0.0.1]:80");
  REQUIRE(e);
  CHECK(e->address().is_v4());
  CHECK(e->ToString() == "10.0.0.1:80");
}

TEST_CASE("bad endpoints give an error that names the problem", "[unit]") {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"", "empty"},
      {"[::1", "missing ']'"},
      {"[::1]", "':port'"},
      {"[::1]6881", "':port'"},
      {"1.2.3.4:70000", "out of range"},
      {"1.2.3.4:99999999999999999999", "out of range"},
      {"1.2.3.4:0", "port 0"},
      {"1.2.3.4:", "missing port"},
      {"1.2.3.4:-1", "not a number"},
      {"1.2.3.4:68a", "not a number"},
      {"1.2.3.4", "missing ':port'"},
      {"::1:6881", "brackets"},
      {"[1.2.3.4]:80", "brackets"},
      {"1.2.3.256:80", "not an IPv4 or IPv6"},
      {"example.org:80", "not an IPv4 or IPv6"},
  };
  for (const auto& c : cases) {
    INFO("input: '" << c.text << "'");
    auto e = Endpoint::Parse(c.text);
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error().message, Catch::Contains(c.says));
  }
}

TEST_CASE("a listen endpoint may use port 0 but a peer endpoint may not", "[unit]") {
  CHECK(Endpoint::ParseListen("127.0.0.1:0"));
  CHECK_FALSE(Endpoint::Parse("127.0.0.1:0"));
}

TEST_CASE("host:port accepts names and literals and keeps names unresolved", "[unit]") {
  auto named = HostPort::Parse("bootstrap.example.org:6881");
  REQUIRE(named);
  CHECK(named->host == "bootstrap.example.org");
  CHECK(named->port == 6881);
  CHECK_FALSE(named->AsEndpoint().has_value());

  auto literal = HostPort::Parse("[::1]:6881");
  REQUIRE(literal);
  CHECK(literal->host == "::1");
  REQUIRE(literal->AsEndpoint().has_value());
  CHECK(literal->AsEndpoint()->ToString() == "[::1]:6881");
  CHECK(literal->ToString() == "[::1]:6881");

  CHECK(HostPort::Parse("localhost:1")->ToString() == "localhost:1");
}

TEST_CASE("bad host:port values are refused", "[unit]") {
  for (const char* text : {"", ":6881", "host:", "host:70000", "bad_host!:80", "-lead.org:80",
                           "a..b:80", "[example.org]:80", "[::1", "trail-.org:80"}) {
    INFO("input: '" << text << "'");
    CHECK_FALSE(HostPort::Parse(text));
  }
}

TEST_CASE("address classes are recognised", "[unit]") {
  auto a = [](const char* text) { return *Address::Parse(text); };
  CHECK(a("127.0.0.1").IsLoopback());
  CHECK(a("::1").IsLoopback());
  CHECK(a("10.1.2.3").IsPrivate());
  CHECK(a("172.16.0.1").IsPrivate());
  CHECK_FALSE(a("172.32.0.1").IsPrivate());
  CHECK(a("192.168.1.1").IsPrivate());
  CHECK(a("100.64.0.1").IsPrivate());
  CHECK(a("fd00::1").IsPrivate());
  CHECK(a("169.254.1.1").IsLinkLocal());
  CHECK(a("fe80::1").IsLinkLocal());
  CHECK(a("224.0.0.1").IsMulticast());
  CHECK(a("8.8.8.8").IsPublic());
  CHECK(a("2001:db8::1").IsPublic());
  CHECK_FALSE(a("0.0.0.0").IsPublic());
}

TEST_CASE("masking keeps exactly the requested prefix", "[unit]") {
  auto v4 = *Address::Parse("203.0.113.77");
  CHECK(v4.Masked(24).ToString() == "203.0.113.0");
  CHECK(v4.Masked(20).ToString() == "203.0.112.0");
  CHECK(v4.Masked(0).ToString() == "0.0.0.0");
  CHECK(v4.Masked(32) == v4);
  auto v6 = *Address::Parse("2001:db8:1:2:3:4:5:6");
  CHECK(v6.Masked(64).ToString() == "2001:db8:1:2::");
}

TEST_CASE("addresses round-trip through their wire bytes", "[unit]") {
  for (const char* text : {"1.2.3.4", "::1", "2001:db8::5"}) {
    auto a = *Address::Parse(text);
    auto back = Address::FromBytes(a.bytes());
    REQUIRE(back);
    CHECK(*back == a);
  }
  const uint8_t five[5] = {1, 2, 3, 4, 5};
  CHECK_FALSE(Address::FromBytes(five));
}

TEST_CASE("endpoints hash and compare by value", "[unit]") {
  std::unordered_set<Endpoint> set;
  set.insert(*Endpoint::Parse("1.2.3.4:1"));
  set.insert(*Endpoint::Parse("1.2.3.4:1"));
  set.insert(*Endpoint::Parse("1.2.3.4:2"));
  set.insert(*Endpoint::Parse("[::1]:1"));
  CHECK(set.size() == 3);
  CHECK(*Endpoint::Parse("1.2.3.4:1") < *Endpoint::Parse("1.2.3.4:2"));
}

}  // namespace
}  // namespace skillnode::transport

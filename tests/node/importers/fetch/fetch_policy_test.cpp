#include "node/importers/fetch/fetch_policy.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::fetch {
namespace {

FetchPolicy Policy(const std::vector<std::string>& allowed = {}, bool allow_http = false) {
  auto policy = FetchPolicy::Create(allowed, allow_http);
  REQUIRE(policy);
  return *policy;
}

TEST_CASE("addresses are classified by their ranges, IPv4-mapped ones as IPv4", "[unit]") {
  CHECK(ClassifyAddress("8.8.8.8") == AddressClass::kPublic);
  CHECK(ClassifyAddress("127.0.0.1") == AddressClass::kLoopback);
  CHECK(ClassifyAddress("127.255.0.9") == AddressClass::kLoopback);
  CHECK(ClassifyAddress("10.1.2.3") == AddressClass::kPrivate);
  CHECK(ClassifyAddress("172.16.0.1") == AddressClass::kPrivate);
  CHECK(ClassifyAddress("172.31.255.255") == AddressClass::kPrivate);
  CHECK(ClassifyAddress("172.32.0.1") == AddressClass::kPublic);
  CHECK(ClassifyAddress("192.168.1.1") == AddressClass::kPrivate);
  CHECK(ClassifyAddress("169.254.169.254") == AddressClass::kLinkLocal);
  CHECK(ClassifyAddress("100.64.0.1") == AddressClass::kShared);
  CHECK(ClassifyAddress("100.128.0.1") == AddressClass::kPublic);
  CHECK(ClassifyAddress("0.0.0.0") == AddressClass::kUnspecified);
  CHECK(ClassifyAddress("224.0.0.251") == AddressClass::kMulticast);
  CHECK(ClassifyAddress("255.255.255.255") == AddressClass::kReserved);
  CHECK(ClassifyAddress("192.0.2.7") == AddressClass::kReserved);
  CHECK(ClassifyAddress("::1") == AddressClass::kLoopback);
  CHECK(ClassifyAddress("::") == AddressClass::kUnspecified);
  CHECK(ClassifyAddress("fd12::1") == AddressClass::kPrivate);
  CHECK(ClassifyAddress("fe80::1") == AddressClass::kLinkLocal);
  CHECK(ClassifyAddress("ff02::1") == AddressClass::kMulticast);
  CHECK(ClassifyAddress("2001:db8::1") == AddressClass::kReserved);
  CHECK(ClassifyAddress("2a00:1450::1") == AddressClass::kPublic);
  CHECK(ClassifyAddress("::ffff:127.0.0.1") == AddressClass::kLoopback);
  CHECK(ClassifyAddress("::ffff:8.8.8.8") == AddressClass::kPublic);
  CHECK(ClassifyAddress("example.org") == AddressClass::kInvalid);
  CHECK(ClassifyAddress("") == AddressClass::kInvalid);
}

TEST_CASE("only https is fetched unless http is allowed, and never with credentials", "[unit]") {
  const FetchPolicy policy = Policy({"127.0.0.1"});
  auto https = policy.CheckUrl("https://Example.org/.well-known/agent-card.json");
  REQUIRE(https);
  CHECK(https->scheme == "https");
  CHECK(https->host == "example.org");
  CHECK(https->port == 443);
  auto plain = policy.CheckUrl("http://example.org/card.json");
  REQUIRE_FALSE(plain);
  CHECK_THAT(plain.error().message, Catch::Contains("plain http is refused"));
  CHECK_FALSE(policy.CheckUrl("http://127.0.0.1:8080/x"));  // allowed hosts are about addresses
  const FetchPolicy http = Policy({"127.0.0.1"}, true);
  CHECK(http.CheckUrl("http://127.0.0.1:8080/x"));
  CHECK(http.CheckUrl("http://registry.local/v0.1/servers"));
  auto ftp = policy.CheckUrl("ftp://example.org/x");
  REQUIRE_FALSE(ftp);
  auto credentials = policy.CheckUrl("https://user:secret@example.org/x");
  REQUIRE_FALSE(credentials);
  CHECK_THAT(credentials.error().message, Catch::Contains("user name or password"));
  // An address literal is checked at once, before any connection.
  auto loopback = Policy({}, true).CheckUrl("http://[::1]:8080/x");
  REQUIRE_FALSE(loopback);
  CHECK(loopback.error().code == transport::ErrorCode::kRefused);
  CHECK_THAT(loopback.error().message, Catch::Contains("loopback"));
  CHECK_FALSE(Policy({"127.0.0.1"}, true).CheckUrl("http://169.254.169.254/latest/meta-data"));
  auto relative = policy.CheckUrl("/card.json");
  REQUIRE_FALSE(relative);
  CHECK_THAT(relative.error().message, Catch::Contains("not an absolute URL"));
}

TEST_CASE("a connection to a private, loopback or link-local address is refused unless allowed",
          "[unit]") {
  const FetchPolicy none = Policy();
  CHECK_FALSE(none.CheckPeer("example.org", "93.184.216.34"));
  auto loopback = none.CheckPeer("evil.example", "127.0.0.1");
  REQUIRE(loopback);
  CHECK_THAT(*loopback, Catch::Contains("127.0.0.1, a loopback address"));
  CHECK_THAT(*loopback, Catch::Contains("import.allowedHosts"));
  CHECK(none.CheckPeer("meta.example", "169.254.169.254"));
  CHECK(none.CheckPeer("x.example", "::ffff:10.0.0.1"));
  CHECK(none.CheckPeer("x.example", "fe80::1"));

  const FetchPolicy by_name = Policy({"lab.internal"});
  CHECK_FALSE(by_name.CheckPeer("LAB.internal", "10.0.0.5"));
  CHECK(by_name.CheckPeer("other.internal", "10.0.0.5"));

  const FetchPolicy by_range = Policy({"10.99.0.0/16", "fd00::/8", "127.0.0.1"});
  CHECK_FALSE(by_range.CheckPeer("a.example", "10.99.3.4"));
  CHECK(by_range.CheckPeer("a.example", "10.98.3.4"));
  CHECK_FALSE(by_range.CheckPeer("a.example", "fd00::7"));
  CHECK_FALSE(by_range.CheckPeer("localhost", "127.0.0.1"));
  CHECK(by_range.CheckPeer("localhost", "127.0.0.2"));
}

TEST_CASE("a malformed allowed-hosts entry is refused by name", "[unit]") {
  auto bad_prefix = FetchPolicy::Create({"10.0.0.0/33"});
  REQUIRE_FALSE(bad_prefix);
  CHECK_THAT(bad_prefix.error().message, Catch::Contains("\"10.0.0.0/33\""));
  CHECK_FALSE(FetchPolicy::Create({"fd00::/129"}));
  CHECK_FALSE(FetchPolicy::Create({"name/8"}));
  CHECK_FALSE(FetchPolicy::Create({""}));
  CHECK(FetchPolicy::Create({"fd00::/128", "0.0.0.0/0"}));
}

TEST_CASE("a redirect is followed only within the host and never from https to http", "[unit]") {
  const FetchPolicy policy = Policy({"127.0.0.1"}, true);
  auto from = policy.CheckUrl("https://example.org/a/card.json");
  REQUIRE(from);
  auto relative = policy.CheckRedirect(*from, "../b/agent.json");
  REQUIRE(relative);
  CHECK(relative->url == "https://example.org/b/agent.json");
  auto absolute = policy.CheckRedirect(*from, "https://example.org/c");
  REQUIRE(absolute);
  auto away = policy.CheckRedirect(*from, "https://attacker.example/c");
  REQUIRE_FALSE(away);
  CHECK_THAT(away.error().message, Catch::Contains("leaves the host"));
  auto downgrade = policy.CheckRedirect(*from, "http://example.org/c");
  REQUIRE_FALSE(downgrade);
  auto other_port = policy.CheckRedirect(*from, "https://example.org:8443/c");
  REQUIRE_FALSE(other_port);
  auto local = policy.CheckUrl("http://127.0.0.1:9000/x");
  REQUIRE(local);
  auto to_metadata = policy.CheckRedirect(*local, "http://169.254.169.254/latest");
  REQUIRE_FALSE(to_metadata);
}

}  // namespace
}  // namespace skillnode::node::importers::fetch

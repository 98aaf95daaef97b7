// RouterPortMapping (node/reach/router_port_mapping.h): which DHT port a router is asked to map.
// A router maps IPv4 only, and a node whose DHT socket is bound to loopback has nothing to map.
#include "node/reach/router_port_mapping.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::node::reach {
namespace {

std::vector<transport::Endpoint> Sockets(const std::vector<std::string>& texts) {
  std::vector<transport::Endpoint> sockets;
  for (const std::string& text : texts) {
    auto endpoint = transport::Endpoint::Parse(text);
    REQUIRE(endpoint);
    sockets.push_back(*endpoint);
  }
  return sockets;
}

TEST_CASE("the port mapped is the first IPv4 DHT socket's that is not loopback", "[unit]") {
  CHECK(MappablePort(Sockets({"0.0.0.0:6881"})) == 6881);
  CHECK(MappablePort(Sockets({"192.168.1.20:7000"})) == 7000);
  CHECK(MappablePort(Sockets({"[::]:6881", "0.0.0.0:6882"})) == 6882);
  CHECK(MappablePort(Sockets({"127.0.0.1:6881", "10.0.0.2:6883"})) == 6883);
}

TEST_CASE("a node bound to loopback or IPv6 only asks for no mapping", "[unit]") {
  CHECK_FALSE(MappablePort(Sockets({"127.0.0.1:6881"})));
  CHECK_FALSE(MappablePort(Sockets({"127.0.0.2:6881"})));
  CHECK_FALSE(MappablePort(Sockets({"[::]:6881", "[::1]:6882"})));
  CHECK_FALSE(MappablePort({}));
}

}  // namespace
}  // namespace skillnode::node::reach

// The LAN adapter's sockets (UvMulticast) on the loopback interface: a datagram sent to the
// group reaches every member on the host (its sender too, from its own send socket), a reply
// comes back to the send socket, and everything closes with uv_loop_close returning 0.
#include "transport/uv/uv_multicast.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport {
namespace {

constexpr Duration kCaseLimit = Seconds(10);

std::vector<uint8_t> Bytes(const std::string& text) { return {text.begin(), text.end()}; }

struct Heard {
  Endpoint from;
  std::string text;
  bool to_group = false;
};

TEST_CASE("interfaces are chosen by name or address, and an unknown one is named", "[uv]") {
  auto lo = uv::FindMulticastInterfaces({"lo"});
  REQUIRE(lo);
  REQUIRE(lo->size() == 1);
  CHECK(lo->front().address == Address::Loopback4());
  auto by_address = uv::FindMulticastInterfaces({"127.0.0.1"});
  REQUIRE(by_address);
  CHECK(by_address->front().name == "lo");
  auto missing = uv::FindMulticastInterfaces({"no-such-interface0"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("no-such-interface0") != std::string::npos);
  auto all = uv::FindMulticastInterfaces({});
  REQUIRE(all);
  for (const uv::MulticastInterface& interface : *all) CHECK_FALSE(interface.address.IsLoopback());
}

TEST_CASE("two members of a group on loopback hear each other and answer by unicast", "[uv]") {
  uv::UvLoop loop;
  NullLogger logger;
  uv::UvMulticast a(loop, logger), b(loop, logger);
  uv::UvTimer limit(loop);
  uv::MulticastOptions options;
  options.group = Address::V4({239, 255, 77, 1});
  options.port = 54000 + static_cast<uint16_t>(::getpid() % 1000);
  options.interfaces = uv::FindMulticastInterfaces({"lo"}).value();
  std::vector<Heard> heard_by_a, heard_by_b;
  auto close_all = [&] {
    a.Close();
    b.Close();
    limit.Close();
  };
  REQUIRE(a.Open(options, [&](const Endpoint& from, std::span<const uint8_t> bytes, bool group) {
    heard_by_a.push_back(Heard{from, std::string(bytes.begin(), bytes.end()), group});
    if (heard_by_a.back().text == "reply") close_all();
  }));
  REQUIRE(b.Open(options, [&](const Endpoint& from, std::span<const uint8_t> bytes, bool group) {
    heard_by_b.push_back(Heard{from, std::string(bytes.begin(), bytes.end()), group});
    if (heard_by_b.back().text == "hello") b.SendTo(from, Bytes("reply"));
  }));
  REQUIRE(a.joined() == std::vector<std::string>{"lo"});
  REQUIRE(a.send_endpoints().size() == 1);
  const Endpoint a_sends_from = a.send_endpoints().front();
  CHECK(a_sends_from.address() == Address::Loopback4());
  a.SendToGroup(Bytes("hello"));
  limit.Start(kCaseLimit, [&] {
    FAIL_CHECK("no reply within the limit");
    close_all();
  });
  loop.Run();
  // Both sockets bound to the group's port hear the datagram, each on its group socket; the
  // sender recognises its own by the source address of its send socket.
  REQUIRE_FALSE(heard_by_b.empty());
  CHECK(heard_by_b.front().text == "hello");
  CHECK(heard_by_b.front().to_group);
  CHECK(heard_by_b.front().from == a_sends_from);
  bool a_heard_itself = false;
  bool a_got_reply = false;
  for (const Heard& h : heard_by_a) {
    if (h.text == "hello" && h.to_group && h.from == a_sends_from) a_heard_itself = true;
    if (h.text == "reply" && !h.to_group) a_got_reply = true;
  }
  CHECK(a_heard_itself);
  CHECK(a_got_reply);
  CHECK(a.stats().sent == 1);
  CHECK(b.stats().sent == 1);
  const uv::LoopCloseReport report = loop.Close();
  CHECK(report.leaked_handles.empty());
  CHECK(report.close_result == 0);
}

}  // namespace
}  // namespace skillnode::transport

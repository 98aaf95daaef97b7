// Round trips, sizes and encoding rules of the wire codec (kademlia/wire/wire.h). Hand-built,
// forward-compatible and malformed datagrams are in wire_malformed_test.cpp and
// wire_damaged_test.cpp; the messages all three start from are in support/wire_datagrams.h, and
// the sample bodies round-tripped here are wire_golden_test.cpp's (wire_samples.h).
#include "kademlia/wire/wire.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <msgpack.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "support/wire_datagrams.h"
#include "wire_samples.h"

namespace skillnode::kademlia::wire {
namespace {

// ---- Valid messages ----------------------------------------------------------------------

using samples::EveryBody;
using wire_datagrams::Contact;
using wire_datagrams::Contacts;
using wire_datagrams::DecodeOk;
using wire_datagrams::EncodeOk;
using wire_datagrams::Ep;
using wire_datagrams::Filled;
using wire_datagrams::FullHeader;
using wire_datagrams::MinimalHeader;

// ---- Round trips -----------------------------------------------------------------------

TEST_CASE("every message type round-trips with every optional field present and absent", "[unit]") {
  Header requester = MinimalHeader();
  requester.proof_wanted = true;
  Header replier = MinimalHeader();
  replier.proof = Filled<64>(1);
  Header observed_only = MinimalHeader();
  observed_only.observed = Ep("192.0.2.7:6881");
  Header client = FullHeader();
  client.client = true;
  for (const Header& header :
       {MinimalHeader(), FullHeader(), requester, replier, observed_only, client}) {
    for (const Body& body : EveryBody()) {
      const Message message{header, body};
      INFO("type " << int(message.type()));
      CHECK(DecodeOk(EncodeOk(message)) == message);
    }
  }
}

TEST_CASE("a header of all zero values and the widest integers both round-trip", "[unit]") {
  Message zero{Header{}, PingBody{}};
  zero.header.version = 0;
  CHECK(DecodeOk(EncodeOk(zero)) == zero);
  Message widest{FullHeader(), PongBody{}};
  widest.header.version = 0xffffffff;
  CHECK(DecodeOk(EncodeOk(widest)) == widest);
}

TEST_CASE("IPv4 and IPv6 contacts and observed addresses round-trip", "[unit]") {
  for (const char* observed :
       {"1.2.3.4:1", "255.255.255.255:65535", "[::1]:6881", "[fe80::1234:5678:9abc:def0]:443"}) {
    Message message{MinimalHeader(), NodesBody{{Contact(1, false), Contact(2, true)}, {}, {}}};
    message.header.observed = Ep(observed);
    const Message back = DecodeOk(EncodeOk(message));
    CHECK(back == message);
    CHECK(back.header.observed->ToString() == observed);
  }
  const Message reply{MinimalHeader(), NodesBody{{Contact(1, false), Contact(2, true)}, {}, {}}};
  const Message back = DecodeOk(EncodeOk(reply));
  const auto& nodes = std::get<NodesBody>(back.body).nodes;
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0].endpoint.ToString() == "10.1.2.1:1001");
  CHECK(nodes[1].endpoint.ToString() == "[2001:db8:ffff:ffff:ffff:ffff:ffff:2]:1002");
}

TEST_CASE("the round-trip bodies cover every body type", "[unit]") {
  std::set<size_t> kinds;
  for (const Body& body : EveryBody()) kinds.insert(body.index());
  CHECK(kinds.size() == std::variant_size_v<Body>);
}

TEST_CASE("Encode writes exactly the documented keys", "[unit]") {
  auto keys_of = [](const std::vector<uint8_t>& bytes) {
    msgpack::object_handle handle =
        msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::vector<std::string> keys;
    for (const auto& kv : handle.get().via.map) keys.push_back(kv.key.as<std::string>());
    return keys;
  };
  using V = std::vector<std::string>;
  CHECK(keys_of(EncodeOk({MinimalHeader(), PingBody{}})) == V{"v", "n", "t", "y", "id", "k", "a"});
  CHECK(keys_of(EncodeOk({FullHeader(), PongBody{}})) ==
        V{"v", "n", "t", "y", "id", "k", "p", "s", "o", "a"});
  Header client = FullHeader();
  client.client = true;
  CHECK(keys_of(EncodeOk({client, PongBody{}})) ==
        V{"v", "n", "t", "y", "id", "k", "p", "s", "o", "c", "a"});
  const auto body = [](const std::vector<uint8_t>& bytes) {
    msgpack::object_handle handle =
        msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto& top = handle.get().via.map;
    V keys;
    for (const auto& kv : top.ptr[top.size - 1].val.via.map)
      keys.push_back(kv.key.as<std::string>());
    return keys;
  };
  CHECK(body(EncodeOk({MinimalHeader(), PingBody{}})).empty());
  CHECK(body(EncodeOk({MinimalHeader(), UnknownBody{42}})).empty());
  CHECK(body(EncodeOk({MinimalHeader(), FindNodeBody{}})) == V{"tg"});
  CHECK(body(EncodeOk({MinimalHeader(), NodesBody{}})) == V{"ns"});
  CHECK(body(EncodeOk({MinimalHeader(), NodesBody{{}, {1}, {}}})) == V{"ns", "tk"});
  CHECK(body(EncodeOk({MinimalHeader(), ErrorBody{}})) == V{"c", "m"});
  CHECK(body(EncodeOk({MinimalHeader(), FindValueBody{}})) == V{"tg", "cu"});
  CHECK(body(EncodeOk({MinimalHeader(), ValuesBody{}})) == V{"ns", "rs", "tt"});
  CHECK(body(EncodeOk({MinimalHeader(), ValuesBody{{}, {1}, {}, 0, 3, {}, {}, {}}})) ==
        V{"ns", "tk", "rs", "tt", "nx"});
  CHECK(body(EncodeOk({MinimalHeader(), ValuesBody{{}, {1}, {{{1}, {}}}, 1, 3, {60}, {}, {}}})) ==
        V{"ns", "tk", "rs", "lf", "tt", "nx"});
  CHECK(body(EncodeOk({MinimalHeader(), FindValueBody{{}, 2, {7, 9}}})) == V{"tg", "cu", "wf"});
  CHECK(body(EncodeOk({MinimalHeader(), ValuesBody{{}, {}, {}, 9, 3, {}, 4, {}}})) ==
        V{"ns", "rs", "tt", "nx", "tm"});
  CHECK(body(EncodeOk({MinimalHeader(), ValuesBody{{}, {}, {}, 256, {}, {}, {}, 120}})) ==
        V{"ns", "rs", "tt", "lw"});
  CHECK(body(EncodeOk({MinimalHeader(), StoreBody{}})) == V{"tg", "tk", "rc", "lt"});
  CHECK(body(EncodeOk({MinimalHeader(), StoredBody{}})).empty());
  CHECK(body(EncodeOk({MinimalHeader(), ListenBody{}})) == V{"tg", "lt"});
  CHECK(body(EncodeOk({MinimalHeader(), ListeningBody{}})) == V{"lt"});
  CHECK(body(EncodeOk({MinimalHeader(), PushBody{}})) == V{"tg"});
  CHECK(body(EncodeOk({MinimalHeader(), PushBody{{}, WireRecord{}, GoneRecord{}}})) ==
        V{"tg", "rc", "gn"});
  CHECK(body(EncodeOk({MinimalHeader(), PushAckBody{}})).empty());
}

TEST_CASE("a k = 20 NODES reply of IPv6 contacts with a full header fits in one datagram",
          "[unit]") {
  Header header = FullHeader();
  header.proof_wanted = false;  // a reply
  const Message reply{header,
                      NodesBody{Contacts(20, true), std::vector<uint8_t>(kTokenSizeMax, 7), {}}};
  const auto bytes = EncodeOk(reply);
  INFO("encoded size " << bytes.size());
  CHECK(bytes.size() <= kDatagramSizeMax);
  CHECK(DecodeOk(bytes) == reply);
  // Even with "p" set as well, it still fits.
  CHECK(Encode(Message{FullHeader(), reply.body}));
}

TEST_CASE("a STORE of the largest inline record with the longest token fits in one datagram",
          "[unit]") {
  Header request = FullHeader();  // a request carries "p" but never "s" or "o"
  request.proof.reset();
  request.observed.reset();
  const Message store{
      request, StoreBody{Key::Sha256("skill"),
                         std::vector<uint8_t>(kTokenSizeMax, 1),
                         {std::vector<uint8_t>(store::kRecordInlineSizeMax, 2), Filled<64>(3)},
                         0xffffffff}};
  const auto bytes = EncodeOk(store);
  INFO("encoded size " << bytes.size());
  CHECK(DecodeOk(bytes) == store);
}

TEST_CASE("EncodeFitting drops contacts from the end of a NODES reply until it fits", "[unit]") {
  const Message big{FullHeader(), NodesBody{Contacts(32, true), std::vector<uint8_t>(32, 7), {}}};
  auto too_big = Encode(big);
  REQUIRE_FALSE(too_big);
  CHECK_THAT(too_big.error().message, Catch::Contains("1280-byte datagram limit"));

  auto fitted = EncodeFitting(big);
  REQUIRE(fitted);
  CHECK(fitted->size() <= kDatagramSizeMax);
  const auto kept = std::get<NodesBody>(DecodeOk(*fitted).body).nodes;
  REQUIRE(kept.size() >= 20);
  REQUIRE(kept.size() < 32);
  const auto& all = std::get<NodesBody>(big.body).nodes;
  CHECK(std::equal(kept.begin(), kept.end(), all.begin()));  // the closest, in order
  // It dropped no more than it had to: one more contact does not fit.
  Message one_more = big;
  std::get<NodesBody>(one_more.body).nodes.resize(kept.size() + 1);
  CHECK_FALSE(Encode(one_more));
}

TEST_CASE("EncodeFitting trims more than 32 contacts and leaves other bodies alone", "[unit]") {
  // 40 contacts are over the count limit for Encode; EncodeFitting keeps the longest prefix
  // that fits (32 IPv4 contacts alone take 1,280 bytes, so fewer than that).
  const Message many{MinimalHeader(), NodesBody{Contacts(40, false), {}, {}}};
  REQUIRE_FALSE(Encode(many));
  auto fitted = EncodeFitting(many);
  REQUIRE(fitted);
  CHECK(fitted->size() <= kDatagramSizeMax);
  const auto kept = std::get<NodesBody>(DecodeOk(*fitted).body).nodes;
  CHECK(kept == Contacts(static_cast<int>(kept.size()), false));
  CHECK(kept.size() >= 20);
  CHECK_FALSE(Encode({MinimalHeader(), NodesBody{Contacts(kept.size() + 1, false), {}, {}}}));

  const Message ping{FullHeader(), PingBody{}};
  CHECK(*EncodeFitting(ping) == EncodeOk(ping));
  // Limits other than the contact count still fail.
  CHECK_FALSE(EncodeFitting({MinimalHeader(), NodesBody{{}, std::vector<uint8_t>(33, 1), {}}}));
  CHECK_FALSE(EncodeFitting({MinimalHeader(), ErrorBody{1, std::string(201, 'x')}}));
}

TEST_CASE("Encode refuses fields over their limits and invalid values", "[unit]") {
  struct Case {
    Message message;
    const char* says;
  };
  Message observed_port_zero{MinimalHeader(), PingBody{}};
  observed_port_zero.header.observed = transport::Endpoint(transport::Address::Loopback4(), 0);
  const Case cases[] = {
      {{MinimalHeader(), NodesBody{{}, std::vector<uint8_t>(kTokenSizeMax + 1, 1), {}}}, "'a.tk'"},
      {{MinimalHeader(), ErrorBody{1, std::string(kErrorTextSizeMax + 1, 'x')}}, "'a.m'"},
      {{MinimalHeader(), NodesBody{Contacts(kNodesPerReplyMax + 1, false), {}, {}}}, "'a.ns'"},
      {{MinimalHeader(),
        NodesBody{{{Key(), transport::Endpoint(transport::Address::Loopback4(), 0)}}, {}, {}}},
       "'a.ns[0]': port 0"},
      {observed_port_zero, "'o': port 0"},
      {{MinimalHeader(), UnknownBody{1}}, "type 1 (ping)"},
      {{MinimalHeader(), UnknownBody{127}}, "type 127 (error)"},
      {{MinimalHeader(),
        ValuesBody{Contacts(kNodesPerReplyMax + 1, false), {}, {}, 0, {}, {}, {}, {}}},
       "VALUES over its limits"},
      {{MinimalHeader(),
        ValuesBody{{}, {}, std::vector<WireRecord>(kRecordsPerReplyMax + 1), 0, {}, {}, {}, {}}},
       "VALUES over its limits"},
      {{MinimalHeader(),
        ValuesBody{{Contact(1, false), {Key(), transport::Endpoint(Ep("[::1]:1").address(), 0)}},
                   {},
                   {},
                   0,
                   {},
                   {},
                   {},
                   {}}},
       "'a.ns[1]': port 0"},
      {{MinimalHeader(), StoreBody{{}, std::vector<uint8_t>(kTokenSizeMax + 1, 1), {}, 0}},
       "'a.tk'"},
      {{MinimalHeader(), ValuesBody{{}, {}, {{{1}, {}}, {{2}, {}}}, 2, {}, {60}, {}, {}}},
       "'a.lf': 1 lifetimes for 2 records"},
      {{MinimalHeader(), FindValueBody{{}, 0, std::vector<uint16_t>(kFindValueTermsMax + 1, 1)}},
       "'a.wf': 9 term hashes, more than the limit of 8 (FIND_VALUE over its limits)"},
  };
  for (const Case& c : cases) {
    auto bytes = Encode(c.message);
    REQUIRE_FALSE(bytes);
    CHECK(bytes.error().code == transport::ErrorCode::kInvalidArgument);
    CHECK_THAT(bytes.error().message, Catch::Contains(c.says));
  }
}

// Regression: Encode wrote a VALUES reply holding a port-0 contact, which Decode then refused.
TEST_CASE("Encode and EncodeFitting refuse a port-0 contact in VALUES, as Decode does", "[unit]") {
  const Message values{
      MinimalHeader(),
      ValuesBody{{{Key::Sha256("c"), transport::Endpoint(transport::Address::Loopback4(), 0)}},
                 {1, 2},
                 {{{1}, Filled<64>(2)}},
                 1,
                 std::nullopt,
                 {},
                 {},
                 {}}};
  auto bytes = Encode(values);
  REQUIRE_FALSE(bytes);
  CHECK(bytes.error().code == transport::ErrorCode::kInvalidArgument);
  CHECK_THAT(bytes.error().message, Catch::Contains("'a.ns[0]': port 0"));
  CHECK_FALSE(EncodeFitting(values));
  // The same reply with a valid port encodes and round-trips.
  Message fixed = values;
  std::get<ValuesBody>(fixed.body).nodes[0].endpoint =
      transport::Endpoint(transport::Address::Loopback4(), 1);
  CHECK(DecodeOk(EncodeOk(fixed)) == fixed);
}

// ---- Types, names, proof ---------------------------------------------------------------

TEST_CASE("Encode refuses a PUSH whose gone record has an id Decode would refuse", "[unit]") {
  Message push{
      {},
      PushBody{Key::Sha256("k"), std::nullopt, GoneRecord{{}, std::string(257, 'a'), "skill", 1}}};
  CHECK_FALSE(Encode(push));
  std::get<PushBody>(push.body).gone->agent_id = std::string(256, 'a');
  auto bytes = Encode(push);
  REQUIRE(bytes);
  CHECK(Decode(*bytes));
}

TEST_CASE("a relay's envelope around the largest datagram fits kRelayDatagramSizeMax, no other",
          "[unit]") {
  // The header a node sends a notice under, at its largest: no proof, no observed address.
  Header header = FullHeader();
  header.proof_wanted = false;
  header.proof.reset();
  header.observed.reset();
  header.client = true;
  const std::vector<uint8_t> whole(kDatagramSizeMax, 7);
  const transport::Endpoint v6 = wire_datagrams::Ep("[2001:db8:ffff:ffff:ffff:ffff:ffff:1]:65535");
  for (const Body& body : std::vector<Body>{RelayBody{Key::Sha256("client"), whole},
                                            RelayBackBody{v6, whole}, RelayedBody{v6, whole}}) {
    const Message envelope{header, body};
    INFO(MessageTypeName(envelope.type()));
    const auto bytes = EncodeOk(envelope);
    CHECK(bytes.size() > kDatagramSizeMax);
    CHECK(bytes.size() <= kDatagramSizeMax + 153);  // the overhead wire.h states
    CHECK(wire_datagrams::DecodeOk(bytes) == envelope);
    // Any other type in a datagram that long is refused, before its body is read.
    std::vector<uint8_t> retyped = bytes;
    const uint8_t type_key[] = {0xa1, 'y'};
    auto at = std::search(retyped.begin(), retyped.end(), std::begin(type_key), std::end(type_key));
    REQUIRE(at != retyped.end());
    *(at + 2) = static_cast<uint8_t>(MessageType::kPing);
    const auto refused = Decode(retyped);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("-byte limit") != std::string::npos);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire

// What a node puts on the wire (kademlia/message_sender.h): headers under its identity, replies
// with the requester's address and the proof it asked for, the send counters, the transport
// chosen, and a message that cannot be encoded counted and never sent.
#include "kademlia/message_sender.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using testing::Peer;
using testing::RecordingTransport;

struct Fixture {
  Fixture() { config.network_id = 7; }
  MessageSender Make() {
    return MessageSender(
        config, self.identity, Ed25519Signatures(), transport, logger, stats,
        [this](transport::TimePoint, const transport::Endpoint& to) { heard.push_back(to); });
  }
  KademliaConfig config;
  Peer self{"sender", "10.0.0.1:6881", 7};
  Peer asker{"asker", "10.0.0.2:6881", 7};
  RecordingTransport transport;
  transport::NullLogger logger;
  NodeStats stats;
  std::vector<transport::Endpoint> heard;  // what on_sent was told
};

TEST_CASE("a reply carries the asker's address, and a proof only when asked", "[unit]") {
  Fixture f;
  MessageSender sender = f.Make();
  const transport::TimePoint now = transport::kTimeZero + transport::Seconds(1);
  sender.Reply(now, f.asker.endpoint, f.asker.Request(wire::PingBody{}, 42, true).header,
               wire::PongBody{});
  sender.Reply(now, f.asker.endpoint, f.asker.Request(wire::PingBody{}, 43, false).header,
               wire::PongBody{});
  const auto sent = f.transport.Take();
  REQUIRE(sent.size() == 2);
  const wire::Message signed_reply = sent[0].Decoded();
  CHECK(sent[0].to == f.asker.endpoint);
  CHECK(signed_reply.header.txid == 42);
  CHECK(signed_reply.header.network_id == 7);
  CHECK(signed_reply.header.sender_id == f.self.id());
  CHECK(signed_reply.header.observed == f.asker.endpoint);
  REQUIRE(signed_reply.header.proof.has_value());
  CHECK(Ed25519Signatures().Verify(f.self.identity.public_key(),
                                   wire::ProofBytes(7, 42, f.self.id(), f.asker.id()),
                                   *signed_reply.header.proof));
  CHECK_FALSE(sent[1].Decoded().header.proof.has_value());
  CHECK(f.stats.datagrams_sent == 2);
  CHECK(f.stats.bytes_sent == sent[0].bytes.size() + sent[1].bytes.size());
  CHECK(f.heard == std::vector<transport::Endpoint>{f.asker.endpoint, f.asker.endpoint});
}

TEST_CASE("a message sent through another transport is counted, and on_sent does not hear it",
          "[unit]") {
  Fixture f;
  MessageSender sender = f.Make();
  RecordingTransport dial_port;
  sender.Send(transport::kTimeZero, f.asker.endpoint,
              wire::Message{sender.Header(5), wire::DialBackBody{9}}, &dial_port);
  CHECK(f.transport.sent.empty());
  REQUIRE(dial_port.sent.size() == 1);
  CHECK(std::get<wire::DialBackBody>(dial_port.sent[0].Decoded().body).nonce == 9);
  CHECK(f.stats.datagrams_sent == 1);
  CHECK(f.heard.empty());
}

TEST_CASE("a message that cannot be encoded is counted and never sent", "[unit]") {
  Fixture f;
  MessageSender sender = f.Make();
  wire::ErrorBody too_long{1, std::string(wire::kErrorTextSizeMax + 1, 'x')};
  sender.Send(transport::kTimeZero, f.asker.endpoint, wire::Message{sender.Header(6), too_long});
  CHECK(f.transport.sent.empty());
  CHECK(f.stats.send_failures == 1);
  CHECK(f.stats.datagrams_sent == 0);
  CHECK(f.heard.empty());
}

}  // namespace
}  // namespace skillnode::kademlia

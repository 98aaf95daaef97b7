// Test helpers for driving one kademlia::Node by hand: a transport that records what the
// node sends, and a Peer that builds the messages a remote node would send.
#ifndef SKILLNODE_TESTS_SUPPORT_PEER_H_
#define SKILLNODE_TESTS_SUPPORT_PEER_H_

#include <span>
#include <string>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/wire/wire.h"
#include "transport/transport.h"

namespace skillnode::testing {

class RecordingTransport : public transport::Transport {
 public:
  struct Sent {
    transport::Endpoint to;
    std::vector<uint8_t> bytes;
    kademlia::wire::Message Decoded() const { return kademlia::wire::Decode(bytes).value(); }
  };

  void Send(const transport::Endpoint& to, std::span<const uint8_t> datagram) override {
    sent.push_back(Sent{to, {datagram.begin(), datagram.end()}});
  }
  // Returns and forgets everything sent so far.
  std::vector<Sent> Take() { return std::exchange(sent, {}); }

  std::vector<Sent> sent;
};

struct Peer {
  explicit Peer(const std::string& name, const char* endpoint, uint32_t network_id = 0)
      : identity(kademlia::Identity::FromSeed(SeedFor(name))),
        endpoint(*transport::Endpoint::Parse(endpoint)),
        network_id(network_id) {}

  static kademlia::Seed SeedFor(const std::string& name) {
    return kademlia::Key::Sha256("peer-seed:" + name).bytes();
  }
  const kademlia::NodeId& id() const { return identity.node_id(); }

  kademlia::wire::Header HeaderFor(uint64_t txid) const {
    kademlia::wire::Header header;
    header.network_id = network_id;
    header.txid = txid;
    header.sender_id = identity.node_id();
    header.sender_key = identity.public_key();
    return header;
  }
  kademlia::wire::Message Request(kademlia::wire::Body body, uint64_t txid,
                                  bool proof_wanted = true) const {
    kademlia::wire::Message message{HeaderFor(txid), std::move(body)};
    message.header.proof_wanted = proof_wanted;
    return message;
  }
  // A reply to `request` (sent by the node `requester`), signed when asked.
  kademlia::wire::Message Reply(const kademlia::wire::Message& request,
                                kademlia::wire::Body body) const {
    kademlia::wire::Message message{HeaderFor(request.header.txid), std::move(body)};
    if (request.header.proof_wanted) {
      message.header.proof = identity.Sign(kademlia::wire::ProofBytes(
          network_id, request.header.txid, identity.node_id(), request.header.sender_id));
    }
    return message;
  }
  static std::vector<uint8_t> Bytes(const kademlia::wire::Message& message) {
    return kademlia::wire::Encode(message).value();
  }

  kademlia::Identity identity;
  transport::Endpoint endpoint;
  uint32_t network_id;
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_PEER_H_

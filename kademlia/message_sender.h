// MessageSender: puts a node's messages on the wire. It makes their headers under the node's
// identity, gives a reply the address its request came from ("o") and the proof it asked for
// ("s"), encodes (EncodeFitting), counts what goes out in the node's stats, and hands the bytes
// to the node's transport, or to another one (the dial port of docs/protocol.md
// "Reachability"). `on_sent` hears of each datagram sent through the node's own transport.
// A message for a client may go through its relay, wrapped in a RELAY, and a client's replies to
// what a relay carried to it go back through that relay, wrapped in a RELAY_BACK
// (docs/protocol.md "Relays").
//
// Owned by Node (kademlia/node.h), which decides what to send and when. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_MESSAGE_SENDER_H_
#define SKILLNODE_KADEMLIA_MESSAGE_SENDER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/identity.h"
#include "kademlia/node_stats.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/logger.h"
#include "transport/transport.h"

namespace skillnode::kademlia {

class MessageSender {
 public:
  using OnSent = std::function<void(transport::TimePoint now, const transport::Endpoint& to)>;

  // Every argument is the node's and must outlive this.
  MessageSender(const KademliaConfig& config, const Identity& identity,
                const SignatureScheme& signatures, transport::Transport& transport,
                transport::Logger& logger, NodeStats& stats, OnSent on_sent);
  MessageSender(const MessageSender&) = delete;
  MessageSender& operator=(const MessageSender&) = delete;

  // A header from this node with transaction id `txid` (and "c" in client mode).
  wire::Header Header(uint64_t txid) const;
  // Whether this node's messages say it is a client (Node::SetClientMode).
  void SetClient(bool client) { client_ = client; }
  bool client() const { return client_; }
  // Answers the request with header `request`, which came from `to` (through the reply relay,
  // when one is set).
  void Reply(transport::TimePoint now, const transport::Endpoint& to, const wire::Header& request,
             wire::Body body);
  // While set, replies go back through this relay (RELAY_BACK): the node is answering a request
  // that the relay carried to it.
  void SetReplyRelay(std::optional<transport::Endpoint> relay) { reply_relay_ = relay; }
  // Sends `message` to `to` through `through`, or the node's transport when null. A message
  // that cannot be encoded is counted (send_failures) and logged, never sent.
  void Send(transport::TimePoint now, const transport::Endpoint& to, const wire::Message& message,
            transport::Transport* through = nullptr);
  // Sends `message` to the client `client` through its relay at `relay` (a RELAY).
  void SendToClient(transport::TimePoint now, const transport::Endpoint& relay,
                    const NodeId& client, const wire::Message& message);

 private:
  const KademliaConfig& config_;
  const Identity& identity_;
  const SignatureScheme& signatures_;
  transport::Transport& transport_;
  transport::Logger& logger_;
  NodeStats& stats_;
  OnSent on_sent_;
  bool client_ = false;
  std::optional<transport::Endpoint> reply_relay_;

  // `message` encoded, or nullopt (counted and logged) when it cannot be.
  std::optional<std::vector<uint8_t>> Encode(const transport::Endpoint& to,
                                             const wire::Message& message);
  // Wraps the encoded `datagram` in `envelope` (RELAY or RELAY_BACK) and sends it to `relay`.
  void SendEnvelope(transport::TimePoint now, const transport::Endpoint& relay, uint64_t txid,
                    wire::Body envelope);
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_MESSAGE_SENDER_H_

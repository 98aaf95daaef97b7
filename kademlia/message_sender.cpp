// MessageSender (message_sender.h).
#include "kademlia/message_sender.h"

#include <string>
#include <utility>

namespace skillnode::kademlia {

MessageSender::MessageSender(const KademliaConfig& config, const Identity& identity,
                             const SignatureScheme& signatures, transport::Transport& transport,
                             transport::Logger& logger, NodeStats& stats, OnSent on_sent)
    : config_(config),
      identity_(identity),
      signatures_(signatures),
      transport_(transport),
      logger_(logger),
      stats_(stats),
      on_sent_(std::move(on_sent)),
      client_(config.client_mode == ClientMode::kOn) {}

wire::Header MessageSender::Header(uint64_t txid) const {
  wire::Header header;
  header.network_id = config_.network_id;
  header.txid = txid;
  header.sender_id = identity_.node_id();
  header.sender_key = identity_.public_key();
  header.client = client_;
  return header;
}

void MessageSender::Reply(transport::TimePoint now, const transport::Endpoint& to,
                          const wire::Header& request, wire::Body body) {
  wire::Message reply{Header(request.txid), std::move(body)};
  reply.header.observed = to;
  if (request.proof_wanted) {
    reply.header.proof = signatures_.Sign(
        identity_,
        wire::ProofBytes(config_.network_id, request.txid, identity_.node_id(), request.sender_id));
  }
  Send(now, to, reply);
}

std::optional<std::vector<uint8_t>> MessageSender::Encode(const transport::Endpoint& to,
                                                          const wire::Message& message) {
  auto bytes = wire::EncodeFitting(message);
  if (bytes) return std::move(*bytes);
  ++stats_.send_failures;
  if (logger_.Enabled(transport::LogLevel::kError)) {
    logger_.Log(transport::LogLevel::kError,
                "cannot encode " + std::string(wire::MessageTypeName(message.type())) + " for " +
                    to.ToString() + ": " + bytes.error().message);
  }
  return std::nullopt;
}

void MessageSender::Send(transport::TimePoint now, const transport::Endpoint& to,
                         const wire::Message& message, transport::Transport* through) {
  if (reply_relay_ && !wire::IsRequest(message.type()) && !wire::IsNotice(message.type())) {
    // A reply to what a relay carried: back the same way.
    auto datagram = Encode(to, message);
    if (!datagram) return;
    ++stats_.relayed_sent;
    SendEnvelope(now, *reply_relay_, message.header.txid,
                 wire::RelayBackBody{to, std::move(*datagram)});
    return;
  }
  auto bytes = Encode(to, message);
  if (!bytes) return;
  ++stats_.datagrams_sent;
  stats_.bytes_sent += bytes->size();
  if (through != nullptr) return through->Send(to, *bytes);
  if (on_sent_) on_sent_(now, to);
  transport_.Send(to, *bytes);
}

void MessageSender::SendToClient(transport::TimePoint now, const transport::Endpoint& relay,
                                 const NodeId& client, const wire::Message& message) {
  auto datagram = Encode(relay, message);
  if (!datagram) return;
  ++stats_.relayed_sent;
  SendEnvelope(now, relay, message.header.txid, wire::RelayBody{client, std::move(*datagram)});
}

void MessageSender::SendEnvelope(transport::TimePoint now, const transport::Endpoint& relay,
                                 uint64_t txid, wire::Body envelope) {
  // The envelope's transaction id is the message's: it matches nothing (a notice).
  Send(now, relay, wire::Message{Header(txid), std::move(envelope)});
}

}  // namespace skillnode::kademlia

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

void MessageSender::Send(transport::TimePoint now, const transport::Endpoint& to,
                         const wire::Message& message, transport::Transport* through) {
  auto bytes = wire::EncodeFitting(message);
  if (!bytes) {
    ++stats_.send_failures;
    if (logger_.Enabled(transport::LogLevel::kError)) {
      logger_.Log(transport::LogLevel::kError,
                  "cannot encode " + std::string(wire::MessageTypeName(message.type())) + " for " +
                      to.ToString() + ": " + bytes.error().message);
    }
    return;
  }
  ++stats_.datagrams_sent;
  stats_.bytes_sent += bytes->size();
  if (through != nullptr) return through->Send(to, *bytes);
  if (on_sent_) on_sent_(now, to);
  transport_.Send(to, *bytes);
}

}  // namespace skillnode::kademlia

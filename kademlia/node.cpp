// Node (node.h): datagrams in and out, requests answered, requests completed by their replies,
// rejections and timeouts, the timer, and the wiring of the helpers that own the checks
// on incoming messages (MessageScreen, kademlia/message_screen.h), the peer bookkeeping
// (PeerBook, kademlia/routing/peer_book.h), what is done about the peers heard from and failed
// (PeerUpkeep, kademlia/routing/peer_upkeep.h), the lookups (LookupDriver,
// kademlia/lookup/lookup_driver.h), joining (TableFiller, kademlia/routing/table_filler.h) and the
// answer to FIND_NODE (NodesAnswer, kademlia/routing/nodes_answer.h); the LEAVE at shutdown is
// LeaveNotices' (kademlia/leave_notices.h).
#include "kademlia/node.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "kademlia/leave_notices.h"

namespace skillnode::kademlia {

auto Node::SendAction() {
  return [this](transport::TimePoint at, const transport::Endpoint& to, const NodeId& to_id,
                wire::Body body, rpc::RpcCallback done) {
    return SendRequest(at, to, to_id, std::move(body), std::move(done));
  };
}

Node::Node(const KademliaConfig& config, const Identity& identity, transport::Transport& transport,
           transport::Rng& rng, transport::Logger& logger, transport::TimePoint now,
           const SignatureScheme& signatures, std::optional<HashKey> hash_key,
           const NodeSharing& sharing)
    : own_config_(sharing.config == NodeSharing::Config::kCopy
                      ? std::make_unique<const KademliaConfig>(config)
                      : nullptr),
      config_(own_config_ ? *own_config_ : config),
      identity_(identity),
      signatures_(signatures),
      rng_(rng),
      logger_(logger),
      hash_key_(hash_key ? *hash_key : HashKeyFromCopyOf(rng)),
      own_directory_(sharing.peers == nullptr ? std::make_unique<routing::PeerDirectory>(hash_key_)
                                              : nullptr),
      routing_(identity.node_id(), config.routing,
               sharing.peers != nullptr ? sharing.peers : own_directory_.get()),
      peers_(config_, routing_, hash_key_),
      rpcs_(config.rpcs_in_flight_max),
      own_stats_(sharing.stats == nullptr ? std::make_unique<NodeStats>() : nullptr),
      stats_(sharing.stats != nullptr ? *sharing.stats : *own_stats_),
      sender_(config_, identity_, signatures_, transport, logger, stats_,
              [this](transport::TimePoint at, const transport::Endpoint& to) {
                reach_.OnSent(at, to);
              }),
      screen_(config_, identity_.node_id(), rpcs_, peers_, signatures_, stats_, now, hash_key_),
      tokens_(rng, now, config.token_rotation),
      lookups_(config_, identity_.node_id(), routing_, rtt_, stats_, SendAction()),
      upkeep_(
          config_, routing_, peers_, stats_,
          routing::PeerUpkeep::Actions{
              .send = SendAction(),
              .added = [this](transport::TimePoint at,
                              const Contact& contact) { services_.ContactAdded(at, contact); },
              .evicted = [this](transport::TimePoint at,
                                const NodeId& evicted) { services_.ContactEvicted(at, evicted); },
              .rejoin =
                  [this](transport::TimePoint at) { FindNode(at, identity_.node_id(), nullptr); }}),
      reach_(
          config_, routing_, rng_, now,
          reach::ReachDriver::Actions{
              .send =
                  [this](transport::TimePoint at, const transport::Endpoint& to,
                         const NodeId& to_id, wire::Body body, transport::Duration timeout,
                         rpc::RpcCallback done) {
                    return SendRequest(at, to, to_id, std::move(body), std::move(done), timeout);
                  },
              .reply =
                  [this](transport::TimePoint at, const transport::Endpoint& to,
                         const wire::Header& request, wire::Body body) {
                    if (!shut_down_) sender_.Reply(at, to, request, std::move(body));
                  },
              .dial =
                  [this](transport::TimePoint at, const transport::Endpoint& to, wire::Body body) {
                    sender_.Send(at, to,
                                 wire::Message{sender_.Header(rng_.Next64()), std::move(body)},
                                 dial_transport_);
                  }}),
      relay_(
          config_.relay, identity_.node_id(), routing_,
          reach::RelayDriver::Actions{
              .send = SendAction(),
              .notice =
                  [this](transport::TimePoint at, const transport::Endpoint& to, wire::Body body) {
                    sender_.Send(at, to,
                                 wire::Message{sender_.Header(rng_.Next64()), std::move(body)});
                  }}),
      filler_(routing_, rng_,
              routing::TableFiller::Actions{
                  .ping = [this](transport::TimePoint at, const transport::Endpoint& to,
                                 rpc::RpcCallback done) { return Ping(at, to, std::move(done)); },
                  .find_node =
                      [this](transport::TimePoint at, const Key& target, LookupCallback done) {
                        // A join outliving its node stops here, uncounted as a refusal.
                        return !shut_down_ && FindNode(at, target, std::move(done));
                      }}),
      puncher_(config_.punch,
               reach::HolePuncher::Actions{
                   .lookup =
                       [this](transport::TimePoint at, const Key& target, LookupOptions options,
                              LookupCallback done) {
                         return StartLookup(at, target, std::move(options), std::move(done));
                       },
                   .send =
                       [this](transport::TimePoint at, const transport::Endpoint& to,
                              const NodeId& to_id, wire::Body body, rpc::RpcCallback done,
                              std::optional<transport::Endpoint> relay) {
                         return Request(at, to, to_id, std::move(body), std::move(done), relay);
                       }}),
      nodes_answer_(routing_, relay_.table(), tokens_) {
  relay_.OnTimer(now, sender_.client());  // a client from the start (client_mode on) keeps relays
}

void Node::Drop(DropReason reason, const transport::Endpoint& from, std::string_view detail) {
  ++stats_.dropped[static_cast<size_t>(reason)];
  if (logger_.Enabled(transport::LogLevel::kDebug)) {
    std::string line = "dropped datagram from " + from.ToString() + ": ";
    line += DropReasonName(reason);
    if (!detail.empty()) {
      line += ": ";
      line += detail;
    }
    logger_.Log(transport::LogLevel::kDebug, line);
  }
}

void Node::VerifyRequester(transport::TimePoint now, const transport::Endpoint& from,
                           const NodeId& id) {
  upkeep_.VerifyRequester(now, from, id);
}

void Node::OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                      std::span<const uint8_t> datagram) {
  if (shut_down_) return;
  RefreshClientMode(now);
  ++stats_.datagrams_received;
  stats_.bytes_received += datagram.size();
  auto decoded = wire::Decode(datagram);
  if (!decoded) return Drop(DropReason::kMalformed, from, decoded.error().message);
  Dispatch(now, from, *decoded);
}

void Node::Dispatch(transport::TimePoint now, const transport::Endpoint& from,
                    const wire::Message& message) {
  const MessageScreen::Verdict verdict = screen_.Screen(now, from, message);
  switch (verdict.action) {
    case MessageScreen::Action::kRequest:
      return HandleRequest(now, from, message);
    case MessageScreen::Action::kReply:
      return HandleReply(now, from, message);
    case MessageScreen::Action::kNotice:
      return HandleNotice(now, from, message);
    case MessageScreen::Action::kReject:
      RejectPending(now, message.header);
      break;
    case MessageScreen::Action::kDrop:
      break;
  }
  Drop(verdict.reason, from, verdict.detail);
}

void Node::HandleRequest(transport::TimePoint now, const transport::Endpoint& from,
                         const wire::Message& request) {
  ++stats_.requests_received[static_cast<size_t>(SlotOf(request.type()))];
  if (std::holds_alternative<wire::PingBody>(request.body)) {
    sender_.Reply(now, from, request.header, wire::PongBody{});
  } else if (const auto* find = std::get_if<wire::FindNodeBody>(&request.body)) {
    sender_.Reply(now, from, request.header,
                  nodes_answer_.For(now, from, request.header.sender_id, find->target));
  } else if (const auto* keep = std::get_if<wire::RelayKeepBody>(&request.body)) {
    const NodeId& client = request.header.sender_id;
    const bool proven = IsVerified(client, from);
    if (!proven) upkeep_.VerifyRequester(now, from, client);
    sender_.Reply(now, from, request.header, relay_.OnKeep(now, from, client, proven, *keep));
  } else if (std::holds_alternative<wire::PunchBody>(request.body)) {
    sender_.Reply(now, from, request.header, puncher_.OnPunch(now, from, request.header.sender_id));
  } else if (std::holds_alternative<wire::ReachAskBody>(request.body) ||
             std::holds_alternative<wire::DialRequestBody>(request.body)) {
    // A REACH_ASK may be answered later, once its third party has (ReachDriver).
    if (auto body = reach_.OnRequest(now, from, request)) {
      sender_.Reply(now, from, request.header, std::move(*body));
    }
  } else if (auto body = services_.Answer(now, from, request)) {
    sender_.Reply(now, from, request.header, std::move(*body));
  } else {
    const std::string text = "unknown request type " + std::to_string(request.type());
    sender_.Reply(now, from, request.header,
                  wire::ErrorBody{static_cast<uint16_t>(wire::ErrorReplyCode::kUnknownType), text});
  }
  upkeep_.ConsiderRequester(now, from, request);
}

void Node::RejectPending(transport::TimePoint now, const wire::Header& header) {
  auto taken = rpcs_.Take(header.txid);
  assert(taken.has_value());  // the screen found it pending: answered (rejected) here, once
  rpc::PendingRpc rpc = std::move(*taken);
  ++stats_.rpcs_rejected;
  upkeep_.FailedAt(now, header.sender_id, rpc.to);
  if (rpc.done)
    rpc.done(rpc::RpcResult{rpc::RpcStatus::kRejected, nullptr, rpc.to, now - rpc.sent, now});
}

void Node::HandleReply(transport::TimePoint now, const transport::Endpoint& from,
                       const wire::Message& reply) {
  const wire::Header& header = reply.header;
  auto taken = rpcs_.Take(header.txid);
  assert(taken.has_value());  // the screen matched it to this request: answered here, once
  rpc::PendingRpc rpc = std::move(*taken);
  const TypeSlot slot = SlotOf(rpc.type);
  if (std::holds_alternative<wire::ErrorBody>(reply.body)) {
    ++stats_.rpcs_errored[static_cast<size_t>(slot)];
  } else {
    ++stats_.rpcs_replied[static_cast<size_t>(slot)];
  }
  const transport::Duration rtt = now - rpc.sent;
  // A REACH_ASK is answered once the helper's third party has (ReachDriver): its round trip is
  // that wait, not the path's, and teaches no RTT estimate (a zero sample is none).
  const bool path_rtt = rpc.type != static_cast<uint8_t>(wire::MessageType::kReachAsk);
  const transport::Duration rtt_sample = path_rtt ? rtt : transport::Duration::zero();
  if (path_rtt) rtt_.Sample(rtt);
  if (header.observed) {
    observed_ = header.observed;
    reach_.OnObserved(now, from, *header.observed);
  }
  if (rpc.to_id && *rpc.to_id != header.sender_id) {
    // Someone else answers at that address now: the peer we meant is gone from it.
    upkeep_.FailedAt(now, *rpc.to_id, rpc.to);
  }
  upkeep_.HearVerified(now, from, header, rtt_sample);
  if (rpc.done) rpc.done(rpc::RpcResult{rpc::RpcStatus::kReplied, &reply, from, rtt, now});
  RefreshClientMode(now);  // a helper's answer may have decided the verdict
}

void Node::HandleNotice(transport::TimePoint now, const transport::Endpoint& from,
                        const wire::Message& notice) {
  if (const auto* dial_back = std::get_if<wire::DialBackBody>(&notice.body)) {
    reach_.OnDialBack(now, from, *dial_back);
    RefreshClientMode(now);  // a dial-back may have decided the verdict
  } else if (const auto* relayed = std::get_if<wire::RelayedBody>(&notice.body)) {
    OpenRelayed(now, from, *relayed);
  } else if (std::holds_alternative<wire::LeaveBody>(notice.body)) {
    upkeep_.Left(now, from, notice.header.sender_id);
  } else {
    relay_.OnRelay(now, from, notice.body);  // RELAY or RELAY_BACK: the rest of wire::IsNotice
  }
}

void Node::OpenRelayed(transport::TimePoint now, const transport::Endpoint& relay,
                       const wire::RelayedBody& relayed) {
  auto opened = relay_.Open(now, relay, relayed, rpcs_);
  if (!opened) return Drop(DropReason::kBadRelayed, relay, opened.error().message);
  ++stats_.relayed_received;
  // A request's reply goes back through the relay; what it carried is then screened and
  // handled as any datagram from where it counts as coming from. Open refuses notices, so this
  // does not nest.
  if (opened->reply_through_relay) sender_.SetReplyRelay(relay);
  Dispatch(now, opened->from, opened->message);
  sender_.SetReplyRelay(std::nullopt);
}

uint64_t Node::NewTxid() {
  uint64_t txid = 0;
  do {
    txid = rng_.Next64();
  } while (txid == 0 || rpcs_.contains(txid));
  return txid;
}

bool Node::SendRequest(transport::TimePoint now, const transport::Endpoint& to,
                       std::optional<NodeId> to_id, wire::Body body, rpc::RpcCallback done,
                       std::optional<transport::Duration> timeout,
                       std::optional<transport::Endpoint> relay) {
  assert(!relay || to_id);  // a relay carries to a client by its id
  if (shut_down_) return false;
  if (rpcs_.full()) {
    ++stats_.rpcs_refused;
    return false;
  }
  wire::Message message{sender_.Header(NewTxid()), std::move(body)};
  message.header.proof_wanted = !to_id || !IsVerified(*to_id, to);
  rpc::PendingRpc rpc;
  rpc.to = to;
  rpc.to_id = to_id;
  rpc.relay = relay;
  rpc.type = message.type();
  rpc.proof_wanted = message.header.proof_wanted;
  if (!rpc.proof_wanted) rpc.verified_key = *ProvenKey(*to_id, &to);
  rpc.sent = now;
  // The full timeout for every request: only then is a peer counted as failed. Lookups stop
  // waiting sooner (their soft deadline, LookupDriver::Step) but still take a late reply.
  rpc.deadline = now + timeout.value_or(config_.rpc_timeout);
  rpc.done = std::move(done);
  ++stats_.rpcs_sent[static_cast<size_t>(SlotOf(rpc.type))];
  rpcs_.Add(message.header.txid, std::move(rpc));
  if (relay) {
    sender_.SendToClient(now, *relay, *to_id, message);
  } else {
    sender_.Send(now, to, message);
  }
  return true;
}

void Node::RecheckReachability(transport::TimePoint now) {
  reach_.Recheck(now);
  RefreshClientMode(now);
}

void Node::RefreshClientMode(transport::TimePoint now) {
  if (config_.client_mode != ClientMode::kWhenNat) return;
  const bool client = reach_.reachability(now) == reach::Reachability::kNat;
  if (client == sender_.client()) return;
  sender_.SetClient(client);
  ++stats_.client_mode_changes;
  relay_.OnTimer(now, client);  // a client keeps relays; a full node lets them go
  // The peers this node holds are the likeliest to hold it: a ping tells each at once, so that
  // a client leaves their tables now (and a full node again enters them), not at their next
  // exchange. Once per change, at most one per contact.
  for (const Contact& contact : routing_.Export()) {
    if (!SendRequest(now, contact.endpoint, contact.id, wire::PingBody{}, nullptr)) break;
  }
}

void Node::OnTimer(transport::TimePoint now) {
  if (shut_down_) return;
  for (rpc::PendingRpc& rpc : rpcs_.TakeExpired(now)) {
    ++stats_.rpcs_timed_out[static_cast<size_t>(SlotOf(rpc.type))];
    // A chunk's timeout says little about its holder (IsChunkRequest).
    if (rpc.to_id && !wire::IsChunkRequest(rpc.type)) upkeep_.FailedAt(now, *rpc.to_id, rpc.to);
    if (rpc.done)
      rpc.done(rpc::RpcResult{rpc::RpcStatus::kTimedOut, nullptr, rpc.to, now - rpc.sent, now});
  }
  // Lookups whose queries turned slow move on to other contacts.
  lookups_.OnTimer(now);
  if (tokens_.next_rotation() <= now) tokens_.Rotate(now);
  services_.OnTimer(now);
  filler_.OnTimer(now);  // idle buckets get a lookup
  // Departed contacts are probed in case they come back.
  upkeep_.OnTimer(now);
  if (reach_.NextDeadline() <= now) reach_.OnTimer(now);
  RefreshClientMode(now);  // a probe that ended, or outcomes that aged out, may turn it
  if (relay_.NextDeadline() <= now) relay_.OnTimer(now, sender_.client());
}

transport::TimePoint Node::NextDeadline() const {
  if (shut_down_) return transport::kTimeNever;
  transport::TimePoint next = std::min(rpcs_.NextDeadline(), tokens_.next_rotation());
  next = std::min(next, services_.NextDeadline());
  next = std::min(next, filler_.NextDeadline());
  next = std::min(next, upkeep_.NextDeadline());
  next = std::min(next, reach_.NextDeadline());
  next = std::min(next, relay_.NextDeadline());
  return std::min(next, lookups_.NextDeadline());
}

bool Node::Ping(transport::TimePoint now, const transport::Endpoint& to, rpc::RpcCallback done) {
  return SendRequest(now, to, std::nullopt, wire::PingBody{}, std::move(done));
}

bool Node::Request(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
                   wire::Body body, rpc::RpcCallback done,
                   std::optional<transport::Endpoint> relay) {
  return SendRequest(now, to, to_id, std::move(body), std::move(done), std::nullopt, relay);
}

void Node::Shutdown(transport::TimePoint now) {
  if (shut_down_) return;
  stats_.leaves_sent += LeaveNotices(routing_, sender_, rng_)
                            .Send(now, identity_.node_id(), config_.leave_notices_max);
  shut_down_ = true;
  for (rpc::PendingRpc& rpc : rpcs_.TakeAll()) {
    if (rpc.done)
      rpc.done(rpc::RpcResult{rpc::RpcStatus::kCancelled, nullptr, rpc.to, now - rpc.sent, now});
  }
  lookups_.FinishAll(now);
}

bool Node::FindNode(transport::TimePoint now, const Key& target, LookupCallback done) {
  LookupOptions options;
  options.slow_retries = config_.lookup_slow_retries;
  options.slow_retry_rank = 1;  // the closest node decides a node lookup's success
  return StartLookup(now, target, std::move(options), std::move(done));
}

bool Node::StartLookup(transport::TimePoint now, const Key& target, LookupOptions options,
                       LookupCallback done) {
  if (shut_down_) {
    ++stats_.lookups_refused;
    return false;
  }
  return lookups_.Start(now, target, std::move(options), std::move(done));
}

}  // namespace skillnode::kademlia

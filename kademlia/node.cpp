#include "kademlia/node.h"

#include <memory>
#include <string>
#include <utility>

namespace skillnode::kademlia {

Node::Node(const KademliaConfig& config, const Identity& identity, Transport& transport, Rng& rng,
           Logger& logger, TimePoint now, const SignatureScheme& signatures,
           std::optional<HashKey> hash_key)
    : config_(config),
      identity_(identity),
      signatures_(signatures),
      transport_(transport),
      rng_(rng),
      logger_(logger),
      hash_key_(hash_key ? *hash_key : HashKeyFromCopyOf(rng)),
      routing_(identity.node_id(), config.routing),
      departed_(config_.routing),
      rpcs_(config.rpcs_in_flight_max),
      rate_limiter_(config.rate_limit, now, hash_key_),
      tokens_(rng, now, config.token_rotation),
      verified_(KeyedHash<NodeId>(hash_key_)) {}

void Node::Drop(DropReason reason, const Endpoint& from, std::string_view detail) {
  ++stats_.dropped[static_cast<size_t>(reason)];
  if (logger_.Enabled(LogLevel::kDebug)) {
    std::string line = "dropped datagram from " + from.ToString() + ": ";
    line += DropReasonName(reason);
    if (!detail.empty()) {
      line += ": ";
      line += detail;
    }
    logger_.Log(LogLevel::kDebug, line);
  }
}

void Node::OnDatagram(TimePoint now, const Endpoint& from, std::span<const uint8_t> datagram) {
  if (shut_down_) return;
  ++stats_.datagrams_received;
  stats_.bytes_received += datagram.size();
  auto decoded = Decode(datagram);
  if (!decoded) return Drop(DropReason::kMalformed, from, decoded.error().message);
  const Message& message = *decoded;
  const Header& header = message.header;
  if (header.network_id != config_.network_id) {
    return Drop(DropReason::kWrongNetwork, from, "network " + std::to_string(header.network_id));
  }
  // A peer already verified under this id and key passed this check before: skip the hash.
  const PublicKey* proven = ProvenKey(header.sender_id);
  const bool known_key = proven != nullptr && *proven == header.sender_key;
  if (!known_key && NodeIdOf(header.sender_key) != header.sender_id) {
    if (!IsRequest(message.type())) RejectPending(now, from, header);
    return Drop(DropReason::kIdMismatch, from, header.sender_id.ShortHex());
  }
  if (header.sender_id == id()) return Drop(DropReason::kFromSelf, from, "");
  if (IsRequest(message.type())) {
    // A transfer's chunk requests are metered by the blob service (IsChunkRequest).
    switch (IsChunkRequest(message.type()) ? RateVerdict::kAllowed
                                           : rate_limiter_.Admit(from.address(), now)) {
      case RateVerdict::kPerIpExceeded:
        return Drop(DropReason::kRateLimitedIp, from, "");
      case RateVerdict::kGlobalExceeded:
        return Drop(DropReason::kRateLimitedGlobal, from, "");
      case RateVerdict::kAllowed:
        break;
    }
    HandleRequest(now, from, message);
  } else {
    HandleReply(now, from, message);
  }
}

void Node::HandleRequest(TimePoint now, const Endpoint& from, const Message& request) {
  ++stats_.requests_received[static_cast<size_t>(SlotOf(request.type()))];
  if (std::holds_alternative<PingBody>(request.body)) {
    SendReply(from, request, PongBody{});
  } else if (const auto* find = std::get_if<FindNodeBody>(&request.body)) {
    NodesBody nodes;
    nodes.nodes.reserve(config_.routing.bucket_size);
    // One extra so that the requester itself can be left out and k still remain.
    for (const Contact& c : routing_.Closest(find->target, config_.routing.bucket_size + 1)) {
      if (c.id == request.header.sender_id) continue;
      if (nodes.nodes.size() == config_.routing.bucket_size) break;
      nodes.nodes.push_back(WireContact{c.id, c.endpoint});
    }
    nodes.token = tokens_.For(from.address());
    SendReply(from, request, std::move(nodes));
  } else if (auto body = HandlerReply(now, from, request)) {
    SendReply(from, request, std::move(*body));
  } else {
    const std::string text = "unknown request type " + std::to_string(request.type());
    SendReply(from, request, ErrorBody{static_cast<uint16_t>(ErrorReplyCode::kUnknownType), text});
  }
  ConsiderRequester(now, from, request.header);
}

std::optional<Body> Node::HandlerReply(TimePoint now, const Endpoint& from,
                                       const Message& request) {
  if (handler_ != nullptr) {
    if (auto body = handler_->OnRequest(now, from, request)) return body;
  }
  for (RequestHandler* service : services_) {
    if (auto body = service->OnRequest(now, from, request)) return body;
  }
  return std::nullopt;
}

void Node::NotifyAdded(TimePoint now, const Contact& contact) {
  if (handler_ != nullptr) handler_->OnContactAdded(now, contact);
  for (RequestHandler* service : services_) service->OnContactAdded(now, contact);
}

void Node::NotifyEvicted(TimePoint now, const NodeId& id) {
  if (handler_ != nullptr) handler_->OnContactEvicted(now, id);
  for (RequestHandler* service : services_) service->OnContactEvicted(now, id);
}

void Node::AddService(RequestHandler* service) { services_.push_back(service); }

void Node::RemoveService(RequestHandler* service) { std::erase(services_, service); }

void Node::RejectPending(TimePoint now, const Endpoint& from, const Header& header) {
  const PendingRpc* pending = rpcs_.Find(header.txid);
  if (pending == nullptr || pending->to != from || pending->to_id != header.sender_id) return;
  PendingRpc rpc = std::move(*rpcs_.Take(header.txid));
  ++stats_.rpcs_rejected;
  FailedAt(now, header.sender_id, rpc.to);
  if (rpc.done) rpc.done(RpcResult{RpcStatus::kRejected, nullptr, rpc.to, now - rpc.sent, now});
}

void Node::HandleReply(TimePoint now, const Endpoint& from, const Message& reply) {
  const uint64_t txid = reply.header.txid;
  const PendingRpc* pending = rpcs_.Find(txid);
  if (pending == nullptr) return Drop(DropReason::kUnmatchedReply, from, "");
  if (pending->to != from) {
    return Drop(DropReason::kWrongSource, from, "expected " + pending->to.ToString());
  }
  const Header& header = reply.header;
  const bool same_peer = pending->to_id && *pending->to_id == header.sender_id;
  // A request sent to a verified peer asked for no signature; the answer is taken if it comes
  // from the key verified then, even if the peer was forgotten since (a timeout of another
  // request): the answer carries our random txid, and the key was proven at this address.
  const bool verified_then = pending->verified_key && *pending->verified_key == header.sender_key;
  if (pending->proof_wanted || !same_peer ||
      (!verified_then && !IsVerified(header.sender_id, from))) {
    // Without a cached verification the reply must carry a fresh signature.
    if (!header.proof) {
      RejectPending(now, from, header);
      return Drop(DropReason::kBadProof, from, "no signature");
    }
    ++stats_.signatures_verified;
    const auto signed_bytes = ProofBytes(config_.network_id, txid, header.sender_id, id());
    if (!signatures_.Verify(header.sender_key, signed_bytes, *header.proof)) {
      RejectPending(now, from, header);
      return Drop(DropReason::kBadProof, from, "signature does not verify");
    }
  } else {
    ++stats_.verification_cache_hits;
  }
  PendingRpc rpc = std::move(*rpcs_.Take(txid));
  const TypeSlot slot = SlotOf(rpc.type);
  if (std::holds_alternative<ErrorBody>(reply.body)) {
    ++stats_.rpcs_errored[static_cast<size_t>(slot)];
  } else {
    ++stats_.rpcs_replied[static_cast<size_t>(slot)];
  }
  const Duration rtt = now - rpc.sent;
  rtt_.Sample(rtt);
  if (header.observed) observed_ = header.observed;
  if (rpc.to_id && *rpc.to_id != header.sender_id) {
    // Someone else answers at that address now: the peer we meant is gone from it.
    FailedAt(now, *rpc.to_id, rpc.to);
  }
  NoteVerified(now, from, header, rtt);
  if (rpc.done) rpc.done(RpcResult{RpcStatus::kReplied, &reply, from, rtt, now});
}

uint64_t Node::NewTxid() {
  uint64_t txid = 0;
  do {
    txid = rng_.Next64();
  } while (txid == 0 || rpcs_.contains(txid));
  return txid;
}

Header Node::MakeHeader(uint64_t txid) const {
  Header header;
  header.network_id = config_.network_id;
  header.txid = txid;
  header.sender_id = id();
  header.sender_key = identity_.public_key();
  return header;
}

bool Node::SendRequest(TimePoint now, const Endpoint& to, std::optional<NodeId> to_id, Body body,
                       RpcCallback done) {
  if (shut_down_) return false;
  if (rpcs_.full()) {
    ++stats_.rpcs_refused;
    return false;
  }
  Message message{MakeHeader(NewTxid()), std::move(body)};
  message.header.proof_wanted = !to_id || !IsVerified(*to_id, to);
  PendingRpc rpc;
  rpc.to = to;
  rpc.to_id = to_id;
  rpc.type = message.type();
  rpc.proof_wanted = message.header.proof_wanted;
  if (!rpc.proof_wanted) rpc.verified_key = *ProvenKey(*to_id, &to);
  rpc.sent = now;
  // The full timeout for every request: only then is a peer counted as failed. Lookups stop
  // waiting sooner (their soft deadline, StepLookup) but still take a late reply.
  rpc.deadline = now + config_.rpc_timeout;
  rpc.done = std::move(done);
  ++stats_.rpcs_sent[static_cast<size_t>(SlotOf(rpc.type))];
  rpcs_.Add(message.header.txid, std::move(rpc));
  SendMessage(to, message);
  return true;
}

void Node::SendReply(const Endpoint& to, const Message& request, Body body) {
  Message reply{MakeHeader(request.header.txid), std::move(body)};
  reply.header.observed = to;
  if (request.header.proof_wanted) {
    reply.header.proof = signatures_.Sign(
        identity_,
        ProofBytes(config_.network_id, request.header.txid, id(), request.header.sender_id));
  }
  SendMessage(to, reply);
}

void Node::SendMessage(const Endpoint& to, const Message& message) {
  auto bytes = EncodeFitting(message);
  if (!bytes) {
    ++stats_.send_failures;
    if (logger_.Enabled(LogLevel::kError)) {
      logger_.Log(LogLevel::kError, "cannot encode " +
                                        std::string(MessageTypeName(message.type())) + " for " +
                                        to.ToString() + ": " + bytes.error().message);
    }
    return;
  }
  ++stats_.datagrams_sent;
  stats_.bytes_sent += bytes->size();
  transport_.Send(to, *bytes);
}

void Node::PingOldest(TimePoint now, const Contact& oldest) {
  if (liveness_pings_.contains(oldest.id)) return;
  liveness_pings_.insert(oldest.id);
  const NodeId pinged = oldest.id;
  // A reply refreshes the contact (NoteVerified); a timeout counts a failure (OnTimer).
  if (!SendRequest(now, oldest.endpoint, pinged, PingBody{},
                   [this, pinged](const RpcResult&) { liveness_pings_.erase(pinged); })) {
    liveness_pings_.erase(pinged);
  }
}

void Node::OnTimer(TimePoint now) {
  if (shut_down_) return;
  for (PendingRpc& rpc : rpcs_.TakeExpired(now)) {
    ++stats_.rpcs_timed_out[static_cast<size_t>(SlotOf(rpc.type))];
    // A chunk's timeout says little about its holder (IsChunkRequest).
    if (rpc.to_id && !IsChunkRequest(rpc.type)) FailedAt(now, *rpc.to_id, rpc.to);
    if (rpc.done) rpc.done(RpcResult{RpcStatus::kTimedOut, nullptr, rpc.to, now - rpc.sent, now});
  }
  // Lookups whose queries turned slow move on to other contacts.
  std::vector<uint64_t> slow;
  for (auto& [lookup_id, active] : lookups_) {
    if (active.lookup.ExpireSlow(now)) slow.push_back(lookup_id);
  }
  for (uint64_t lookup_id : slow) {
    auto it = lookups_.find(lookup_id);
    if (it == lookups_.end()) continue;
    if (it->second.lookup.done()) {
      FinishLookup(now, lookup_id);
    } else {
      StepLookup(now, lookup_id);
    }
  }
  if (tokens_.next_rotation() <= now) tokens_.Rotate(now);
  if (handler_ != nullptr && handler_->NextDeadline() <= now) handler_->OnTimer(now);
  for (RequestHandler* service : services_) {
    if (service->NextDeadline() <= now) service->OnTimer(now);
  }
  if (routing_.NextRefreshDue() <= now) {
    for (const Key& target : routing_.RefreshTargets(now, rng_)) {
      if (!FindNode(now, target, nullptr)) break;
    }
  }
  // A departed contact that answers is verified and heard like any other (NoteVerified).
  if (departed_.NextDue() <= now) {
    if (auto contact = departed_.TakeDue(now)) {
      ++stats_.departed_probes;
      SendRequest(now, contact->endpoint, contact->id, PingBody{}, nullptr);
    }
  }
}

TimePoint Node::NextDeadline() const {
  if (shut_down_) return kTimeNever;
  TimePoint next = std::min(rpcs_.NextDeadline(), tokens_.next_rotation());
  if (handler_ != nullptr) next = std::min(next, handler_->NextDeadline());
  for (const RequestHandler* service : services_) next = std::min(next, service->NextDeadline());
  if (routing_.size() > 0) next = std::min(next, routing_.NextRefreshDue());
  next = std::min(next, departed_.NextDue());
  for (const auto& [lookup_id, active] : lookups_) {
    next = std::min(next, active.lookup.NextSlowDeadline());
  }
  return next;
}

bool Node::Ping(TimePoint now, const Endpoint& to, RpcCallback done) {
  return SendRequest(now, to, std::nullopt, PingBody{}, std::move(done));
}

bool Node::Request(TimePoint now, const Endpoint& to, const NodeId& to_id, Body body,
                   RpcCallback done) {
  return SendRequest(now, to, to_id, std::move(body), std::move(done));
}

void Node::Shutdown(TimePoint now) {
  if (shut_down_) return;
  shut_down_ = true;
  for (PendingRpc& rpc : rpcs_.TakeAll()) {
    if (rpc.done) rpc.done(RpcResult{RpcStatus::kCancelled, nullptr, rpc.to, now - rpc.sent, now});
  }
  while (!lookups_.empty()) FinishLookup(now, lookups_.begin()->first);
}

}  // namespace skillnode::kademlia

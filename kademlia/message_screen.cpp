// MessageScreen (message_screen.h): the header checks every message passes, a request's rate
// budgets, and the matching of a reply to its pending request with its proof.
#include "kademlia/message_screen.h"

#include <string>
#include <utility>

namespace skillnode::kademlia {
namespace {

using Action = MessageScreen::Action;
using Verdict = MessageScreen::Verdict;

Verdict Pass(Action action) { return Verdict{action, DropReason::kCount, ""}; }

Verdict Drop(DropReason reason, std::string detail = "") {
  return Verdict{Action::kDrop, reason, std::move(detail)};
}

}  // namespace

MessageScreen::MessageScreen(const KademliaConfig& config, const NodeId& self,
                             const rpc::RpcTable& rpcs, const routing::PeerBook& peers,
                             const SignatureScheme& signatures, NodeStats& stats,
                             transport::TimePoint now, const HashKey& hash_key)
    : config_(config),
      self_(self),
      rpcs_(rpcs),
      peers_(peers),
      signatures_(signatures),
      stats_(stats),
      rate_limiter_(config.rate_limit, now, hash_key) {}

Verdict MessageScreen::Screen(transport::TimePoint now, const transport::Endpoint& from,
                              const wire::Message& message) {
  const wire::Header& header = message.header;
  if (header.network_id != config_.network_id) {
    return Drop(DropReason::kWrongNetwork, "network " + std::to_string(header.network_id));
  }
  const bool request = wire::IsRequest(message.type());
  // A peer already verified under this id and key passed this check before: skip the hash.
  const PublicKey* proven = peers_.ProvenKey(header.sender_id);
  const bool known_key = proven != nullptr && *proven == header.sender_key;
  if (!known_key && NodeIdOf(header.sender_key) != header.sender_id) {
    std::string detail = header.sender_id.ShortHex();
    if (request) return Drop(DropReason::kIdMismatch, std::move(detail));
    return Refuse(DropReason::kIdMismatch, from, header, std::move(detail));
  }
  if (header.sender_id == self_) return Drop(DropReason::kFromSelf);
  if (wire::IsNotice(message.type())) {
    const Verdict admitted = ScreenRequest(now, from, message);
    return admitted.action == Action::kRequest ? Pass(Action::kNotice) : admitted;
  }
  return request ? ScreenRequest(now, from, message) : ScreenReply(from, header);
}

Verdict MessageScreen::ScreenRequest(transport::TimePoint now, const transport::Endpoint& from,
                                     const wire::Message& request) {
  // A transfer's chunk requests are metered by the blob service (IsChunkRequest).
  if (wire::IsChunkRequest(request.type())) return Pass(Action::kRequest);
  switch (rate_limiter_.Admit(from.address(), now)) {
    case rpc::RateVerdict::kPerIpExceeded:
      return Drop(DropReason::kRateLimitedIp);
    case rpc::RateVerdict::kGlobalExceeded:
      return Drop(DropReason::kRateLimitedGlobal);
    case rpc::RateVerdict::kAllowed:
      break;
  }
  return Pass(Action::kRequest);
}

Verdict MessageScreen::ScreenReply(const transport::Endpoint& from, const wire::Header& header) {
  const rpc::PendingRpc* pending = rpcs_.Find(header.txid);
  if (pending == nullptr) return Drop(DropReason::kUnmatchedReply);
  if (pending->to != from) {
    return Drop(DropReason::kWrongSource, "expected " + pending->to.ToString());
  }
  const bool same_peer = pending->to_id && *pending->to_id == header.sender_id;
  // A request sent to a verified peer asked for no signature; the answer is taken if it comes
  // from the key verified then, even if the peer was forgotten since (a timeout of another
  // request): the answer carries our random txid, and the key was proven at this address.
  const bool verified_then = pending->verified_key && *pending->verified_key == header.sender_key;
  if (!pending->proof_wanted && same_peer &&
      (verified_then || peers_.ProvenKey(header.sender_id, &from) != nullptr)) {
    ++stats_.verification_cache_hits;
    return Pass(Action::kReply);
  }
  // Without a cached verification the reply must carry a fresh signature.
  if (!header.proof) return Refuse(DropReason::kBadProof, from, header, "no signature");
  ++stats_.signatures_verified;
  const auto signed_bytes =
      wire::ProofBytes(config_.network_id, header.txid, header.sender_id, self_);
  if (!signatures_.Verify(header.sender_key, signed_bytes, *header.proof)) {
    return Refuse(DropReason::kBadProof, from, header, "signature does not verify");
  }
  return Pass(Action::kReply);
}

Verdict MessageScreen::Refuse(DropReason reason, const transport::Endpoint& from,
                              const wire::Header& header, std::string detail) const {
  const rpc::PendingRpc* pending = rpcs_.Find(header.txid);
  const bool as_asked =
      pending != nullptr && pending->to == from && pending->to_id == header.sender_id;
  return Verdict{as_asked ? Action::kReject : Action::kDrop, reason, std::move(detail)};
}

}  // namespace skillnode::kademlia

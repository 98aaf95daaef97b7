#include "discovery/lan/lan_auth.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

#include "kademlia/wire/encoding.h"

namespace skillnode::discovery::lan {
namespace {

constexpr size_t kHmacBytes = 32;
constexpr size_t kNonceBytes = 24;

uint64_t Digest(std::string_view bytes) {
  std::array<uint8_t, 32> hash{};
  kademlia::wire::Sha256Into(kademlia::wire::AsBytes(bytes), hash);
  uint64_t out = 0;
  std::memcpy(&out, hash.data(), sizeof(out));
  return out;
}

uint64_t TimestampOf(const LanMessage& message) {
  return std::visit([](const auto& m) { return m.timestamp_ms; }, message);
}

Check Refuse(std::string label, std::string reason) {
  return Check{Verdict::kRefuse, std::move(reason), std::move(label)};
}

}  // namespace

LanAuthenticator::LanAuthenticator(AuthConfig config) : config_(std::move(config)) {}

void LanAuthenticator::Reconfigure(AuthConfig config) {
  config_ = std::move(config);
  agent_certs_.clear();
  node_certs_.clear();
  challenges_.clear();
}

std::string_view LanAuthenticator::Principal(const LanMessage& message) {
  return std::visit(
      [](const auto& m) -> std::string_view {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Discover> || std::is_same_v<T, DiscoverResponse>) {
          return m.requester_id;
        } else if constexpr (std::is_same_v<T, Hello>) {
          return m.node_id;
        } else {
          return m.agent_id;
        }
      },
      message);
}

Check LanAuthenticator::Verify(const LanMessage& message, std::string_view datagram,
                               const transport::Endpoint& from, bool from_this_host,
                               uint64_t now_ms) {
  if (config_.mode == AuthMode::kOff) return Check{Verdict::kAccept, {}, {}};
  const std::string_view signature_text = SignatureOf(message);
  if (signature_text.empty()) {
    if (config_.mode == AuthMode::kVerify && from_this_host) return Check{Verdict::kAccept, {}, {}};
    return Refuse("unsigned", config_.mode == AuthMode::kRequire
                                  ? "unsigned message (security mode require)"
                                  : "unsigned message from another host (security mode verify)");
  }
  auto signature = kademlia::wire::Base64Decode(signature_text);
  if (!signature) return Refuse("bad_signature", "signature: not base64");
  const std::string_view signed_bytes = SignedBytes(datagram);
  if (const auto* hello = std::get_if<Hello>(&message)) {
    return VerifyHello(*hello, signed_bytes, *signature, from, now_ms);
  }
  if (signature->size() == kHmacBytes && !config_.shared_key.empty()) {
    if (!HmacVerify(config_.shared_key, signed_bytes, *signature)) {
      return Refuse("bad_signature", "HMAC-SHA256 does not match the shared key");
    }
    return Fresh(message, signed_bytes, now_ms);
  }
  // The agent's own certificate, or that of the node the datagram comes from (a node announces
  // the skills registered with it, signed with its own key).
  std::vector<const VerifiedCertificate*> signers;
  if (auto it = agent_certs_.find(Principal(message)); it != agent_certs_.end()) {
    signers.push_back(it->second.certificate.get());
  }
  if (auto node = node_certs_.find(from.ToString()); node != node_certs_.end()) {
    signers.push_back(node->second.certificate.get());
  }
  if (signers.empty()) {
    if (std::holds_alternative<Register>(message) && from_this_host && config_.roots) {
      return Check{Verdict::kChallenge, {}, {}};
    }
    return Refuse("unknown_signer", "no certificate known for " + std::string(Principal(message)) +
                                        " or " + from.ToString());
  }
  const bool verified = std::any_of(signers.begin(), signers.end(), [&](const auto* signer) {
    return signer->not_after_ms() >= now_ms && signer->Verify(signed_bytes, *signature);
  });
  if (!verified) {
    return Refuse("bad_signature", "signature does not verify with the certificate of " +
                                       signers.front()->common_name() + " (or it has expired)");
  }
  return Fresh(message, signed_bytes, now_ms);
}

Check LanAuthenticator::VerifyHello(const Hello& hello, std::string_view signed_bytes,
                                    std::span<const uint8_t> signature,
                                    const transport::Endpoint& from, uint64_t now_ms) {
  if (signature.size() == kHmacBytes && !config_.shared_key.empty()) {
    if (!HmacVerify(config_.shared_key, signed_bytes, signature)) {
      return Refuse("bad_signature", "HMAC-SHA256 does not match the shared key");
    }
    return Fresh(hello, signed_bytes, now_ms);
  }
  if (!config_.roots || hello.certificates.empty()) {
    return Refuse("unknown_signer", "SKILLNODE_HELLO carries no certificate to verify");
  }
  auto chain = config_.roots->VerifyChain(hello.certificates, now_ms);
  if (!chain) return Refuse("bad_certificate", "certificate: " + chain.error().message);
  std::shared_ptr<VerifiedCertificate> certificate = std::move(*chain);
  // The certificate names this node: its Ed25519 key is the node's identity key (node id =
  // SHA-256 of it), or its commonName is the node id.
  bool bound = certificate->common_name() == hello.node_id;
  if (!bound && certificate->key_type() == "Ed25519") {
    std::array<uint8_t, 32> hash{};
    kademlia::wire::Sha256Into(certificate->public_key(), hash);
    bound = kademlia::wire::HexEncode(hash) == hello.node_id;
  }
  if (!bound) {
    return Refuse("bad_certificate", "the certificate (" + certificate->common_name() +
                                         ") does not name node " + hello.node_id);
  }
  if (!certificate->Verify(signed_bytes, signature)) {
    return Refuse("bad_signature", "SKILLNODE_HELLO's signature does not verify");
  }
  Check fresh = Fresh(hello, signed_bytes, now_ms);
  if (fresh.verdict == Verdict::kAccept) {
    Remember(node_certs_, from.ToString(), std::move(certificate));
  }
  return fresh;
}

Check LanAuthenticator::Fresh(const LanMessage& message, std::string_view signed_bytes,
                              uint64_t now_ms) {
  const uint64_t timestamp = TimestampOf(message);
  const uint64_t skew = timestamp > now_ms ? timestamp - now_ms : now_ms - timestamp;
  if (skew > config_.replay_window_ms) {
    return Refuse("stale", "timestamp " + std::to_string(timestamp) + " is " +
                               std::to_string(skew) + " ms from this node's clock (window " +
                               std::to_string(config_.replay_window_ms) + " ms)");
  }
  const uint64_t digest = Digest(signed_bytes);
  if (!seen_.insert(digest).second) return Refuse("replayed", "message seen before (replay)");
  seen_order_.push_back(digest);
  while (seen_order_.size() > config_.seen_max) {
    seen_.erase(seen_order_.front());
    seen_order_.pop_front();
  }
  return Check{Verdict::kAccept, {}, {}};
}

void LanAuthenticator::Remember(std::map<std::string, KnownCertificate, std::less<>>& table,
                                std::string key, std::shared_ptr<VerifiedCertificate> certificate) {
  table[std::move(key)] = KnownCertificate{std::move(certificate), ++added_};
  while (agent_certs_.size() + node_certs_.size() > config_.certificates_max) {
    auto* oldest_table = &agent_certs_;
    auto oldest = agent_certs_.end();
    for (auto* t : {&agent_certs_, &node_certs_}) {
      for (auto it = t->begin(); it != t->end(); ++it) {
        if (oldest == agent_certs_.end() || it->second.added < oldest->second.added) {
          oldest = it;
          oldest_table = t;
        }
      }
    }
    oldest_table->erase(oldest);
  }
}

void LanAuthenticator::Sign(LanMessage& message) const {
  if (config_.shared_key.empty() && !config_.signer) return;
  SetSignature(message, "");
  std::string text = Encode(message);
  text.pop_back();  // the empty signature field's ';': what remains is what is signed
  SetSignature(message, config_.shared_key.empty() ? config_.signer->Sign(text)
                                                   : HmacSign(config_.shared_key, text));
}

std::string LanAuthenticator::certificates() const {
  return config_.signer ? config_.signer->certificates() : std::string();
}

std::optional<Challenge> LanAuthenticator::StartChallenge(const std::string& agent_id,
                                                          std::string datagram,
                                                          const transport::Endpoint& from,
                                                          uint64_t now_ms, transport::Rng& rng) {
  if (challenges_.size() >= config_.challenges_max && !challenges_.contains(agent_id)) {
    return std::nullopt;
  }
  std::array<uint8_t, kNonceBytes> nonce{};
  rng.Fill(nonce);
  PendingChallenge& pending = challenges_[agent_id];
  pending =
      PendingChallenge{kademlia::wire::Base64Encode(nonce), std::move(datagram), from, now_ms};
  Challenge challenge;
  challenge.agent_id = agent_id;
  challenge.nonce = pending.nonce;
  challenge.timestamp_ms = now_ms;
  return challenge;
}

transport::Result<std::string> LanAuthenticator::AnswerChallenge(const ChallengeResponse& response,
                                                                 std::string_view datagram,
                                                                 const transport::Endpoint& from,
                                                                 uint64_t now_ms) {
  auto it = challenges_.find(response.agent_id);
  if (it == challenges_.end() || it->second.nonce != response.nonce) {
    return transport::Fail(transport::ErrorCode::kRefused,
                           "no challenge with that nonce is waiting for " + response.agent_id);
  }
  PendingChallenge pending = std::move(it->second);
  challenges_.erase(it);
  if (!(pending.from.address() == from.address())) {
    return transport::Fail(transport::ErrorCode::kRefused,
                           "the answer comes from another address than the challenge");
  }
  if (!config_.roots)
    return transport::Fail(transport::ErrorCode::kRefused, "no trusted roots are configured");
  auto chain = config_.roots->VerifyChain(response.certificates, now_ms);
  if (!chain)
    return transport::Fail(transport::ErrorCode::kCrypto, "certificate: " + chain.error().message);
  std::shared_ptr<VerifiedCertificate> certificate = std::move(*chain);
  if (certificate->common_name() != response.agent_id) {
    return transport::Fail(transport::ErrorCode::kCrypto, "the certificate is for " +
                                                              certificate->common_name() +
                                                              ", not agent " + response.agent_id);
  }
  auto signature = kademlia::wire::Base64Decode(response.signature);
  if (!signature || !certificate->Verify(SignedBytes(datagram), *signature)) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "CHALLENGE_RESPONSE's signature does not verify");
  }
  auto registration = Parse(pending.datagram);
  const auto* reg = registration ? std::get_if<Register>(&*registration) : nullptr;
  auto reg_signature = reg ? kademlia::wire::Base64Decode(reg->signature)
                           : transport::Result<std::vector<uint8_t>>{};
  if (reg == nullptr || !reg_signature ||
      !certificate->Verify(SignedBytes(pending.datagram), *reg_signature)) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           "the registration's signature does not verify with " +
                               response.agent_id + "'s certificate");
  }
  Check fresh = Fresh(*registration, SignedBytes(pending.datagram), now_ms);
  if (fresh.verdict != Verdict::kAccept)
    return transport::Fail(transport::ErrorCode::kRefused, fresh.reason);
  Remember(agent_certs_, response.agent_id, std::move(certificate));
  return std::move(pending.datagram);
}

size_t LanAuthenticator::ExpireChallenges(uint64_t now_ms) {
  return std::erase_if(challenges_, [&](const auto& entry) {
    return entry.second.started_ms + config_.challenge_timeout_ms <= now_ms;
  });
}

}  // namespace skillnode::discovery::lan

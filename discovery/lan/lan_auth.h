// LanAuthenticator: which LAN messages a node takes, and how it signs its own
// (skill-discovery-protocol §10; docs/protocol.md "LAN security").
//
// Modes:
//   off      nothing is checked (a LAN trusted as mDNS is); what this node sends is still signed
//            when it has a key;
//   verify   a signed message must verify; an unsigned one is taken only from this host;
//   require  every message must be signed and verify.
// A signature is an HMAC-SHA256 (32 bytes) under the shared key, or a signature by the key of a
// certificate that chains to a trusted root: the certificate of the message's agent (learnt
// through CHALLENGE / CHALLENGE_RESPONSE, bound by its commonName to the agentId) or of the node
// that sent it (learnt from its SKILLNODE_HELLO, bound to the node id by its Ed25519 key or its
// commonName). A signed message must also be fresh: its timestamp within `replay_window_ms` of
// our wall clock, and its signed bytes not seen before (a bounded set, oldest forgotten first).
//
// A SKILL_REGISTER from an agent on this host, signed by a key the node does not know yet,
// starts the challenge of §10.3: Check answers kChallenge, the caller sends the CHALLENGE that
// StartChallenge makes, and the CHALLENGE_RESPONSE (AnswerChallenge) proves the agent holds its
// certificate's key; the registration is then taken.
//
// Pure: the caller passes wall time and randomness. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_AUTH_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_AUTH_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_security.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::discovery::lan {

enum class AuthMode { kOff, kVerify, kRequire };

struct AuthConfig {
  AuthMode mode = AuthMode::kOff;
  std::vector<uint8_t> shared_key;    // empty: no HMAC
  std::shared_ptr<TrustStore> roots;  // null: no certificates are accepted
  std::shared_ptr<Signer> signer;     // this node's key and chain; null: none
  uint64_t replay_window_ms = 30000;
  // Signed messages remembered to refuse their replay: about 2 minutes of a busy LAN.
  size_t seen_max = 65536;
  // Certificates remembered (agents and nodes), oldest forgotten first.
  size_t certificates_max = 4096;
  // Challenges awaiting their answer; a new one past this is refused.
  size_t challenges_max = 256;
  uint64_t challenge_timeout_ms = 5000;
};

enum class Verdict {
  kAccept,     // signed and verified, or nothing needed checking
  kChallenge,  // a registration by an agent whose certificate is not known yet
  kRefuse,     // unsigned where a signature is needed, bad, stale or replayed
};

struct Check {
  Verdict verdict = Verdict::kRefuse;
  std::string reason;  // kRefuse: why, for the ACK and the log ("unsigned", "replayed", ...)
  std::string label;   // kRefuse: a metric label (unsigned, bad_signature, stale, replayed,
                       // unknown_signer)
};

class LanAuthenticator {
 public:
  explicit LanAuthenticator(AuthConfig config);
  LanAuthenticator(const LanAuthenticator&) = delete;
  LanAuthenticator& operator=(const LanAuthenticator&) = delete;

  AuthMode mode() const { return config_.mode; }
  // New settings (a configuration reload). Certificates learned and challenges started under
  // the old ones are forgotten; the replay window's memory of seen messages is kept.
  void Reconfigure(AuthConfig config);

  // Whether to take `message`, which arrived as `datagram` from `from`.
  Check Verify(const LanMessage& message, std::string_view datagram,
               const transport::Endpoint& from, bool from_this_host, uint64_t now_ms);

  // Signs `message` in place with the shared key, else this node's certificate key; leaves it
  // unsigned when the node has neither.
  void Sign(LanMessage& message) const;
  // This node's certificate chain for its SKILLNODE_HELLO ("" when it has none).
  std::string certificates() const;

  // A CHALLENGE for the agent of the registration `datagram` from `from`; nullopt when
  // challenges_max are waiting.
  std::optional<Challenge> StartChallenge(const std::string& agent_id, std::string datagram,
                                          const transport::Endpoint& from, uint64_t now_ms,
                                          transport::Rng& rng);
  // Checks a CHALLENGE_RESPONSE: its nonce, its certificate chain (commonName = agentId), its
  // signature, and then the waiting registration's signature by the same key. On success the
  // certificate is remembered for the agent and the registration's datagram is returned.
  [[nodiscard]] transport::Result<std::string> AnswerChallenge(const ChallengeResponse& response,
                                                               std::string_view datagram,
                                                               const transport::Endpoint& from,
                                                               uint64_t now_ms);
  // Forgets challenges older than challenge_timeout_ms; returns how many.
  size_t ExpireChallenges(uint64_t now_ms);
  size_t challenges() const { return challenges_.size(); }
  size_t certificates_known() const { return agent_certs_.size() + node_certs_.size(); }

 private:
  struct PendingChallenge {
    std::string nonce;
    std::string datagram;
    transport::Endpoint from;
    uint64_t started_ms = 0;
  };
  struct KnownCertificate {
    std::shared_ptr<VerifiedCertificate> certificate;
    uint64_t added = 0;  // order, for forgetting the oldest
  };

  // Who signs `message`: the agent or requester it names.
  static std::string_view Principal(const LanMessage& message);
  Check VerifyHello(const Hello& hello, std::string_view signed_bytes,
                    std::span<const uint8_t> signature, const transport::Endpoint& from,
                    uint64_t now_ms);
  Check Fresh(const LanMessage& message, std::string_view signed_bytes, uint64_t now_ms);
  void Remember(std::map<std::string, KnownCertificate, std::less<>>& table, std::string key,
                std::shared_ptr<VerifiedCertificate> certificate);

  AuthConfig config_;
  std::map<std::string, KnownCertificate, std::less<>> agent_certs_;  // by agentId
  std::map<std::string, KnownCertificate, std::less<>> node_certs_;   // by sender endpoint
  std::map<std::string, PendingChallenge, std::less<>> challenges_;   // by agentId
  std::set<uint64_t> seen_;                                           // signed-bytes digests
  std::deque<uint64_t> seen_order_;
  uint64_t added_ = 0;
};

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_AUTH_H_

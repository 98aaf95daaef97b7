// LAN messages: the seed protocol's UDP text messages (skill-discovery-protocol §2.1, §2.3,
// §3.1, §3.2, §8.1, §9.1, §10.3), parsed and encoded verbatim, plus skillnode's own
// SKILLNODE_HELLO (zero-configuration peers), which a node that does not know it ignores.
//
// A datagram is `{TYPE}:{payload}`; payload fields are separated by ';'. Lists inside a field
// are separated by ','; a skill in SKILL_DISCOVER_RESPONSE is `id|version|endpoint|caps|scenes`.
// The signed bytes of a message are its text before its final ';' (SignedBytes), and the
// signature is the last field, base64 (empty: unsigned).
//
//   SKILL_REGISTER:agentId;skillId;version;skillType;endpoint;caps;scenes;timestamp;signature
//   SKILL_REGISTER_ACK:agentId;status;message;timestamp[;signature]
//   SKILL_UNREGISTER:agentId;skillId;reason;timestamp;signature
//   SKILL_DISCOVER:requesterId;capabilityFilter;sceneFilter;typeFilter;timestamp[;signature]
//   SKILL_DISCOVER_RESPONSE:requesterId;skill;skill;...;timestamp[;signature]
//   SKILL_HEARTBEAT:agentId;skillId;status;timestamp;signature
//   SKILL_STATUS:agentId;skillId;status;timestamp;signature
//   CHALLENGE:agentId;nonce;timestamp[;signature]
//   CHALLENGE_RESPONSE:agentId;nonce;certificates;timestamp;signature
//   SKILLNODE_HELLO:nodeId;networkId;dhtPort;httpUrl;certificates;timestamp;signature
//
// Where the seed shows no signature field (ACK, DISCOVER, DISCOVER_RESPONSE, CHALLENGE) one may
// follow; a message is parsed with and without it, by field count (DISCOVER_RESPONSE: a last
// field after the timestamp). The parsed message remembers whether it was there, and Encode
// writes it only when it is set, for these four; the others always have theirs, possibly empty.
//
// In DISCOVER_RESPONSE every skill holds '|' and neither timestamp nor signature may; a response
// with no skills has one empty field in their place: `requesterId;;timestamp[;signature]`.
//
// Field rules (docs/protocol.md "LAN (UDP multicast)" has the full table): no field holds ';'
// or a control character; ids, versions, types, endpoints and list items hold no ',' or '|'
// either and are well-formed UTF-8; a list item is never empty (the empty field is the empty
// list); status and reason are [A-Z_]+; numbers are plain decimal without sign or leading
// zeros; the signature is printable ASCII other than ' ', ';' and '|' (base64, and the spec
// examples' "MEUCIQDxxx..."), checked cryptographically elsewhere. So every message has exactly
// one encoding.
//
// Parse never throws and never reads past the datagram; the error names the type, the field and
// the reason ("SKILL_REGISTER timestamp: expected epoch milliseconds, got 'abc'").
// Encode(Parse(x)) == x for every datagram Parse accepts, and Parse(Encode(m)) == m for every
// message that Validate accepts. Pure functions; no I/O.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_MESSAGE_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "transport/result.h"

namespace skillnode::discovery::lan {

// Limits. A datagram over kLanDatagramMax is dropped unread; what a node sends stays within
// kLanSendMax (one Ethernet frame) except CHALLENGE_RESPONSE and a SKILLNODE_HELLO with a
// certificate chain, which may need more (IP fragments on a LAN; docs/protocol.md "LAN").
constexpr size_t kLanDatagramMax = 4096;
constexpr size_t kLanSendMax = 1400;
constexpr size_t kLanIdLengthMax = 128;  // agentId, skillId, requesterId (nodeId: 64 hex)
constexpr size_t kLanVersionLengthMax = 64;
constexpr size_t kLanTypeLengthMax = 64;       // skillType
constexpr size_t kLanEndpointLengthMax = 256;  // host:port or a URL
constexpr size_t kLanNameLengthMax = 64;       // a capability, scene, filter, status, reason
constexpr size_t kLanCapabilitiesMax = 16;
constexpr size_t kLanScenesMax = 8;
constexpr size_t kLanMessageTextMax = 256;          // SKILL_REGISTER_ACK's message
constexpr size_t kLanSignatureLengthMax = 512;      // base64
constexpr size_t kLanCertificatesLengthMax = 3500;  // base64 DER, comma-separated
constexpr size_t kLanNonceLengthMax = 64;
constexpr size_t kLanSkillsPerResponseMax = 64;

enum class LanType {
  kRegister,
  kRegisterAck,
  kUnregister,
  kDiscover,
  kDiscoverResponse,
  kHeartbeat,
  kStatus,
  kChallenge,
  kChallengeResponse,
  kHello,
};
std::string_view LanTypeName(LanType type);  // "SKILL_REGISTER", ...

// Text of the seed's enumerations, kept as text so that an unknown value round-trips; the
// state machine checks them (HEALTHY, ...; SUCCESS, ...; SHUTDOWN, ...).
struct Register {
  std::string agent_id;
  std::string skill_id;
  std::string version;
  std::string skill_type;
  std::string endpoint;
  std::vector<std::string> capabilities;
  std::vector<std::string> scenes;
  uint64_t timestamp_ms = 0;
  std::string signature;
  bool operator==(const Register&) const = default;
};

struct RegisterAck {
  std::string agent_id;
  std::string status;  // SUCCESS, DUPLICATE, INVALID, UNAUTHORIZED
  std::string message;
  uint64_t timestamp_ms = 0;
  std::optional<std::string> signature;
  bool operator==(const RegisterAck&) const = default;
};

struct Unregister {
  std::string agent_id;
  std::string skill_id;
  std::string reason;  // SHUTDOWN, ERROR, MAINTENANCE, UPGRADE
  uint64_t timestamp_ms = 0;
  std::string signature;
  bool operator==(const Unregister&) const = default;
};

struct Discover {
  std::string requester_id;
  std::string capability_filter;  // one capability, or empty for any
  std::string scene_filter;
  std::string type_filter;
  uint64_t timestamp_ms = 0;
  std::optional<std::string> signature;
  bool operator==(const Discover&) const = default;
};

struct DiscoveredSkill {
  std::string skill_id;
  std::string version;
  std::string endpoint;
  std::vector<std::string> capabilities;
  std::vector<std::string> scenes;
  bool operator==(const DiscoveredSkill&) const = default;
};

struct DiscoverResponse {
  std::string requester_id;
  std::vector<DiscoveredSkill> skills;
  uint64_t timestamp_ms = 0;
  std::optional<std::string> signature;
  bool operator==(const DiscoverResponse&) const = default;
};

// SKILL_HEARTBEAT and SKILL_STATUS share their fields.
struct Heartbeat {
  std::string agent_id;
  std::string skill_id;
  std::string status;  // HEALTHY, DEGRADED, UNHEALTHY, MAINTENANCE
  uint64_t timestamp_ms = 0;
  std::string signature;
  bool operator==(const Heartbeat&) const = default;
};
struct Status : Heartbeat {
  bool operator==(const Status&) const = default;
};

struct Challenge {
  std::string agent_id;
  std::string nonce;  // base64 of random bytes
  uint64_t timestamp_ms = 0;
  std::optional<std::string> signature;
  bool operator==(const Challenge&) const = default;
};

struct ChallengeResponse {
  std::string agent_id;
  std::string nonce;
  // The signer's certificate, then any intermediates: base64 DER, comma-separated. May be
  // empty when the receiver already holds the signer's certificate.
  std::string certificates;
  uint64_t timestamp_ms = 0;
  std::string signature;
  bool operator==(const ChallengeResponse&) const = default;
};

// A skillnode announcing itself: what a peer needs to join its DHT (the DHT port on the
// datagram's source address) and to reach its HTTP API.
struct Hello {
  std::string node_id;       // 64 lowercase hex digits
  uint32_t network_id = 0;   // peers of another network ignore it
  uint16_t dht_port = 0;     // 0: the node runs no DHT
  std::string http_url;      // may be empty
  std::string certificates;  // the node's certificate chain, as in ChallengeResponse
  uint64_t timestamp_ms = 0;
  std::string signature;
  bool operator==(const Hello&) const = default;
};

using LanMessage = std::variant<Register, RegisterAck, Unregister, Discover, DiscoverResponse,
                                Heartbeat, Status, Challenge, ChallengeResponse, Hello>;

LanType TypeOf(const LanMessage& message);

// Parses one datagram. Fails for an unknown type (ErrorCode::kUnsupported, so callers can
// ignore what they do not understand) or a malformed one (kParse, naming the field).
[[nodiscard]] transport::Result<LanMessage> Parse(std::string_view datagram);

// Checks every field against the limits and the characters its place allows (no ';' in any
// field, no ',' in a list item, no '|' in a DISCOVER_RESPONSE skill, no control characters),
// and that the datagram fits kLanDatagramMax (kLanSendMax is the sender's own budget). Fails
// with ErrorCode::kInvalidArgument, naming the field. Whatever Parse returns passes.
[[nodiscard]] transport::Result<void> Validate(const LanMessage& message);

// The datagram text. Precondition: Validate(message) succeeded.
std::string Encode(const LanMessage& message);

// The bytes a signature covers: the datagram before its final ';' (the whole datagram when it
// holds no ';'). Meaningful only for a datagram with a signature field: for one without (an
// optional signature left out) there is no signature to check. To sign a message, encode it
// with an empty signature field (SetSignature(m, "")) and sign SignedBytes of that text.
std::string_view SignedBytes(std::string_view datagram);

// The message's signature field: empty when unsigned.
std::string_view SignatureOf(const LanMessage& message);
// The message with its signature field set (the field is added where it is optional).
void SetSignature(LanMessage& message, std::string signature);

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_MESSAGE_H_

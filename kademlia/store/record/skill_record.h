// SkillRecord: one skill as the DHT stores it — signed by its publisher, versioned by a
// sequence number, valid for a limited time.
//
// The fields follow the seed protocol's SKILL_REGISTER message (spec section 2.1), its health
// states (section 8), its unregistration reasons (section 9) and its cache structure (11.3).
// A record travels as its canonical encoding (a msgpack array in a fixed field order, so the
// same record always encodes to the same bytes) plus an Ed25519 signature over those bytes by
// the publisher key the encoding names. Holders verify the signature before storing, and keep
// the raw bytes so they can pass the record on without re-encoding. An encoding of at most
// kRecordInlineSizeMax bytes travels inline in one datagram; a larger one (up to
// kRecordEncodedSizeMax) travels as a reference and is pulled by digest (docs/protocol.md
// "Records larger than a datagram", kademlia/store/reader/record_pull.h).
//
// Identity: under one DHT key, the record of (publisher key, agentId, skillId) is replaced only
// by one with a higher sequence number. A tombstone (a record with `tombstone` set and a
// reason) replaces the live record and is kept until the record would have expired.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_H_

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/record_origin.h"
#include "kademlia/store/record/trailing_elements.h"
#include "transport/result.h"

namespace skillnode::kademlia::store {

// Field limits. A record over any of them is refused by its publisher and by every holder.
constexpr size_t kIdLengthMax = 128;        // agentId, skillId
constexpr size_t kVersionLengthMax = 64;    // semver text
constexpr size_t kSkillTypeLengthMax = 64;  // enterprise-skill, tool-skill, ...
constexpr size_t kEndpointLengthMax = 256;  // host:port or a URL
constexpr size_t kCapabilitiesMax = 16;
constexpr size_t kScenesMax = 8;
constexpr size_t kNameLengthMax = 64;    // a capability, scene or tag
constexpr size_t kTitleLengthMax = 128;  // descriptor name, capability_type, access
// A description in characters (Unicode code points), as the Agent Skills format counts it (a
// SKILL.md's description is 1..1024 characters), and in bytes: four per character in UTF-8.
constexpr size_t kDescriptionLengthMax = 1024;
constexpr size_t kDescriptionBytesMax = 4 * kDescriptionLengthMax;
constexpr size_t kTagsMax = 8;
constexpr size_t kSchemaLengthMax = 512;  // input/output schema, JSON text
// Examples: a few worked uses ({name, input, description} objects, as the capability document
// serves them, or text), each at most kExampleLengthMax bytes (an object as compact JSON).
constexpr size_t kExamplesMax = 8;
constexpr size_t kExampleLengthMax = 1024;
// A canonical encoding of at most this many bytes travels inline: with its signature, a token
// and a message header it fits one 1280-byte datagram (kDatagramSizeMax). Every record of the
// seed's fields fits; a long description, examples or an origin may not.
constexpr size_t kRecordInlineSizeMax = 960;
// The whole canonical encoding. One larger than kRecordInlineSizeMax travels as a reference
// {SHA-256, size, signature} and is pulled with BLOB_GET in kBlobChunkBytesMax chunks (nine at
// most). Large schemas belong in the SKILL.md the record names by hash.
constexpr size_t kRecordEncodedSizeMax = 8 * 1024;
// A publisher's X.509 certificate (DER) a record may carry: an Ed25519 leaf whose key is the
// publisher key, as a network that accepts only certified publishers asks (docs/security.md).
constexpr size_t kPublisherCertificateMax = 512;
// A SKILL.md folder a descriptor names by digest (discovery/skillmd): the largest SKILL.md and
// the largest deterministic archive of the folder any holder accepts a record for. A node's own
// limits (discovery/skillmd/skill_folder.h) may be lower, never higher.
constexpr uint64_t kSkillMdBytesMax = 1024 * 1024;
constexpr uint64_t kSkillArchiveBytesMax = 64 * 1024 * 1024;
// The publisher domains a record may claim (SkillRecord::publisher_domains).
constexpr size_t kPublisherDomainsMax = 4;
// Forward compatibility (docs/protocol.md "Forward compatibility"): a newer version adds fields
// only at the end of a record's, an origin's or a term pointer's array. A reader skips (and
// keeps, SkillRecord::unknown_trailing) at most this many elements after the ones it knows, so
// that a few versions' worth of new fields still verify; an array with more is refused.
constexpr uint32_t kRecordExtraElementsMax = 8;
// Lifetime bounds: records must be republished; tombstones live as long as the record would.
constexpr uint32_t kRecordTtlMinSeconds = 60;
constexpr uint32_t kRecordTtlMaxSeconds = 24 * 3600;

enum class SkillStatus : uint8_t { kHealthy = 0, kDegraded = 1, kUnhealthy = 2, kMaintenance = 3 };
enum class UnregisterReason : uint8_t {
  kNone = 0,
  kShutdown = 1,
  kError = 2,
  kMaintenance = 3,
  kUpgrade = 4,
};

std::string_view SkillStatusName(SkillStatus status);  // "HEALTHY", ...
[[nodiscard]] transport::Result<SkillStatus> ParseSkillStatus(std::string_view text);
std::string_view UnregisterReasonName(UnregisterReason reason);  // "SHUTDOWN", ...
[[nodiscard]] transport::Result<UnregisterReason> ParseUnregisterReason(std::string_view text);

struct SkillDescriptor {
  std::string name;
  std::string description;
  std::string capability_type;
  std::string access;  // public, restricted, private
  std::vector<std::string> tags;
  std::string input_schema;   // JSON text, may be empty
  std::string output_schema;  // JSON text, may be empty
  // Example uses, in the order given. With text examples only (the one form records had before
  // object examples), `examples` holds them and `examples_json` is empty. When any example is a
  // JSON object ({name, input, description}: the capability document's form), `examples` is
  // empty and `examples_json` holds every example in order as compact JSON text (a text example
  // as a JSON string), so that each is served back in the form it came in. Encoded only when
  // not empty, so descriptors without object examples encode as they always have.
  std::vector<std::string> examples;
  std::vector<std::string> examples_json;
  std::optional<std::array<uint8_t, 32>> skill_md_sha256;
  // A skill published from a SKILL.md folder: the size of SKILL.md (whose digest is above) and
  // the digest and size of the folder's deterministic archive. Encoded only when archive_sha256
  // is present (it then needs skill_md_sha256), so descriptors without a folder encode as they
  // always have; without it both sizes must be 0.
  uint64_t skill_md_size = 0;
  std::optional<std::array<uint8_t, 32>> archive_sha256 = std::nullopt;
  uint64_t archive_size = 0;
  bool operator==(const SkillDescriptor&) const = default;
};

struct SkillRecord {
  std::string agent_id;
  std::string skill_id;
  std::string version;
  std::string skill_type;
  std::string endpoint;
  std::vector<std::string> capabilities;
  std::vector<std::string> scenes;
  SkillStatus status = SkillStatus::kHealthy;
  uint64_t timestamp_ms = 0;  // the publisher's wall clock when it made this version
  uint64_t sequence = 0;      // strictly increases with every change by the publisher
  uint32_t ttl_seconds = 0;   // how long holders keep it after it is stored
  bool tombstone = false;
  UnregisterReason reason = UnregisterReason::kNone;  // set on tombstones
  std::optional<SkillDescriptor> descriptor;
  PublicKey publisher{};
  // The publisher's certificate (DER), empty when it has none; encoded only when present, so
  // records without one encode as they always have.
  std::vector<uint8_t> publisher_certificate;
  // Where an imported record came from (record_origin.h); none on a record first published on a
  // node. Encoded only when present, so records without one encode as they always have.
  std::optional<RecordOrigin> origin;
  // The DNS names the publisher claims to speak for (docs/formats.md "Publisher domains"): a
  // claim, not a proof. Every reader checks each one against the publisher proof the domain
  // serves before it shows it as verified. At most kPublisherDomainsMax, each IsDomainName, no
  // duplicates. Encoded only when present, so records without one encode as they always have.
  std::vector<std::string> publisher_domains;
  // Elements after publisherDomains that a newer version wrote (at most
  // kRecordExtraElementsMax), kept so that the record encodes again to the bytes its publisher
  // signed. Empty on every record this version makes.
  TrailingElements unknown_trailing;
  bool operator==(const SkillRecord&) const = default;
};

// Who a record belongs to: only a higher sequence from the same identity replaces it.
struct RecordIdentity {
  PublicKey publisher{};
  std::string agent_id;
  std::string skill_id;
  // Skill and agent first: the records a node holds mostly share a few publishers, whose 32
  // bytes would otherwise be compared in full at every step of a lookup in an ordered map.
  std::strong_ordering operator<=>(const RecordIdentity& other) const {
    if (auto c = skill_id <=> other.skill_id; c != 0) return c;
    if (auto c = agent_id <=> other.agent_id; c != 0) return c;
    return publisher <=> other.publisher;
  }
  bool operator==(const RecordIdentity&) const = default;
};
RecordIdentity IdentityOf(const SkillRecord& record);

// A record's validity window, inside its signature (docs/security.md "Replay"): from its
// timestamp to its timestamp plus its TTL, on the publisher's wall clock. Holders and readers
// take a record only while their own wall clock, give or take the skew they allow, is inside
// it, so a copy saved by an attacker cannot be replayed once its tombstone has expired: the
// tombstone, signed later, is held until its own window ends. A publisher keeps a live record
// published by signing it again, with a new timestamp and sequence, before its window ends.
uint64_t NotAfterMs(const SkillRecord& record);  // timestamp + TTL (saturating)
// Whether `now_ms` (the reader's wall clock) is inside the record's window widened by
// `skew_ms` on both sides; the error says which end it is outside and by how much.
[[nodiscard]] transport::Result<void> CheckValidityWindow(const SkillRecord& record,
                                                          uint64_t now_ms, uint64_t skew_ms);
// The same check of any signed value's window [timestamp_ms, not_after_ms] (a term pointer's).
[[nodiscard]] transport::Result<void> CheckValidityWindow(uint64_t timestamp_ms,
                                                          uint64_t not_after_ms, uint64_t now_ms,
                                                          uint64_t skew_ms);

// Checks every field against the limits above and the seed's text format (ids may not hold
// ';', ',', '|' or control characters, since SKILL_REGISTER could not carry them). The error
// names the field and the reason.
[[nodiscard]] transport::Result<void> ValidateRecord(const SkillRecord& record);

// The DHT keys a record is published under (docs/architecture.md "DHT keys"):
// SHA256(skillId + ":" + c) and SHA256("capability:" + c) for each capability c,
// SHA256("scene:" + s) for each scene s, SHA256("skill:" + skillId), and
// SHA256("type:" + t) when the descriptor names a capability type t (skill-sharing §5.4's
// registry query), SHA256("agent:" + agentId) (an agent's card gathers its skills), and
// SHA256("format:" + f) for each ecosystem format the record is listed in (FormatsOf).
// No duplicates.
std::vector<Key> RecordKeys(const SkillRecord& record);

// The agent-ecosystem formats a record is listed in network-wide (docs/formats.md): an MCP
// server (skillType "mcp-server", or imported from the MCP Registry; the MCP Registry API lists
// these) and an Agent Skill (a descriptor naming a SKILL.md, or imported from an Agent Skills
// index; the Agent Skills index lists these), and an A2A agent (skillType "a2a-agent", or
// imported from an A2A Agent Card: the AI Catalog lists their agents on every node). Every agent
// has an A2A card gathered under its agent key; the format key is what lists the agents.
enum class RecordFormat : uint8_t { kMcpServer, kAgentSkill, kA2aAgent };
// "mcp-server", "agent-skill", "a2a-agent"
std::string_view RecordFormatName(RecordFormat format);
std::vector<RecordFormat> FormatsOf(const SkillRecord& record);
// The skillType of a record that is an MCP server.
inline constexpr std::string_view kMcpServerSkillType = "mcp-server";
// The skillType of a record imported from an A2A Agent Card.
inline constexpr std::string_view kA2aAgentSkillType = "a2a-agent";
Key CapabilityTypeKey(std::string_view capability_type);
Key CapabilityKey(std::string_view capability);
Key SceneKey(std::string_view scene);
Key SkillKey(std::string_view skill_id);
Key SkillCapabilityKey(std::string_view skill_id, std::string_view capability);
Key AgentKey(std::string_view agent_id);
Key FormatKey(RecordFormat format);

// A record as it travels and is stored: canonical bytes, signature, and the decoded fields.
struct SignedRecord {
  std::vector<uint8_t> encoded;  // canonical encoding, what the signature covers
  Signature signature{};
  SkillRecord record;
  bool operator==(const SignedRecord& other) const {
    return encoded == other.encoded && signature == other.signature;
  }
};
// A verified record is immutable: the store, lookups and subscriptions share one copy of it
// (a record is stored under several keys, and read far more often than it changes).
using SignedRecordPtr = std::shared_ptr<const SignedRecord>;

// Validates, encodes canonically and signs with `publisher` (whose public key must be the
// record's publisher field; Sign sets it).
[[nodiscard]] transport::Result<SignedRecord> SignRecord(
    SkillRecord record, const Identity& publisher,
    const SignatureScheme& signatures = Ed25519Signatures());

// Decodes canonical bytes and verifies the signature and every limit. Never throws.
[[nodiscard]] transport::Result<SignedRecord> VerifyRecord(
    std::span<const uint8_t> encoded, const Signature& signature,
    const SignatureScheme& signatures = Ed25519Signatures());

// The canonical encoding alone (no validation); exposed for tests and tools.
std::vector<uint8_t> EncodeRecord(const SkillRecord& record);
[[nodiscard]] transport::Result<SkillRecord> DecodeRecord(std::span<const uint8_t> encoded);

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_H_

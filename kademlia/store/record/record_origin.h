// RecordOrigin: where an imported skill record came from, carried inside the signed record
// (kademlia/store/record/skill_record.h, SkillRecord::origin) so that every reader sees, and can
// check again, the provenance its importer vouched for (docs/protocol.md "Records", "Origin").
//
// A record published on a node first (native) has no origin. An importer (an A2A Agent Card, an
// MCP Registry entry, an Agent Skills index) sets one: the format the entry came from, the URL it
// was read at, the SHA-256 and size of the original document's bytes (which the importer keeps
// as a blob, so that any reader can fetch them by digest and verify them), whether the origin
// signed the document and the importer verified that signature, the publisher domain (the
// source's host name) and whether the importer proved it (OriginDomainState), and for MCP Registry
// entries the registry's status and its publishedAt and updatedAt as the registry wrote them (RFC
// 3339).
//
// Plain data and pure functions: the names of the enums and the check of every field
// (ValidateOrigin, which ValidateRecord calls; its error names the field, "origin.sourceUrl").
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_ORIGIN_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_ORIGIN_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kademlia/store/record/trailing_elements.h"
#include "transport/result.h"

namespace skillnode::kademlia::store {

// The agent-ecosystem format an imported record came from. The values are the encoding's.
enum class OriginFormat : uint8_t { kA2a = 0, kMcpRegistry = 1, kAgentSkills = 2 };
// Whether the origin signed the document (an A2A card's signatures[]) and the importer verified
// that signature; anything the importer could not verify is kUnsigned.
enum class OriginSignature : uint8_t { kUnsigned = 0, kVerified = 1 };
// Whether the importer proved the source's domain: kVerified when the domain's publisher proof
// (docs/formats.md "Publisher domains") lists the key that signed the document or the importer's
// own key; kUnverified when it does not or could not be had; kNone when the source has no
// domain (a file, an address, an MCP Registry entry). The values are the encoding's.
enum class OriginDomainState : uint8_t { kNone = 0, kVerified = 1, kUnverified = 2 };
// An MCP Registry entry's status as the registry gave it (deleted entries are unpublished, so
// they never appear); kNone for every other format.
enum class McpStatus : uint8_t { kNone = 0, kActive = 1, kDeprecated = 2 };

// The URL (or file path) the document was read at.
constexpr size_t kOriginUrlLengthMax = 512;
// A DNS name (RFC 1035: 253 characters in text form).
constexpr size_t kPublisherDomainLengthMax = 253;
constexpr size_t kDomainLabelLengthMax = 63;
// The original document (an A2A card, a server.json entry, a SKILL.md): what an importer keeps.
constexpr uint64_t kOriginDocumentBytesMax = 1024 * 1024;
// An RFC 3339 date-time: "2026-05-01T10:00:00.123456789+05:30" is 35 characters.
constexpr size_t kOriginTimeLengthMax = 40;

struct RecordOrigin {
  OriginFormat format = OriginFormat::kA2a;
  std::string source_url;
  std::array<uint8_t, 32> document_sha256{};
  uint64_t document_size = 0;
  OriginSignature signature = OriginSignature::kUnsigned;
  std::string publisher_domain;  // the source's host name; empty with kNone only
  OriginDomainState publisher_domain_state = OriginDomainState::kNone;
  // MCP Registry entries only (empty or kNone otherwise).
  McpStatus mcp_status = McpStatus::kNone;
  std::string published_at;  // RFC 3339, as the registry wrote it; may be empty
  std::string updated_at;
  // Elements after publisherDomainState that a newer version wrote (at most
  // kRecordExtraElementsMax, skill_record.h); empty on every origin this version makes.
  TrailingElements unknown_trailing;
  bool operator==(const RecordOrigin&) const = default;
};

std::string_view OriginFormatName(OriginFormat format);  // "a2a", "mcp-registry", "agent-skills"
[[nodiscard]] transport::Result<OriginFormat> ParseOriginFormat(std::string_view text);
std::string_view OriginSignatureName(OriginSignature signature);  // "unsigned", "verified"
[[nodiscard]] transport::Result<OriginSignature> ParseOriginSignature(std::string_view text);
std::string_view McpStatusName(McpStatus status);  // "", "active", "deprecated"
// "none", "verified", "unverified"
std::string_view OriginDomainStateName(OriginDomainState state);
[[nodiscard]] transport::Result<McpStatus> ParseMcpStatus(std::string_view text);

// Checks every field: the enums in range, sourceUrl 1..kOriginUrlLengthMax bytes without spaces
// or control characters, documentSize 1..kOriginDocumentBytesMax, publisherDomain a DNS name
// (IsDomainName) with a publisherDomainState of verified or unverified, or empty with none, and for
// mcp-registry a status (active or deprecated) and timestamps that are empty or RFC 3339; for the
// other formats no status and no timestamps. The error names the field ("origin.publisherDomain:
// ...").
[[nodiscard]] transport::Result<void> ValidateOrigin(const RecordOrigin& origin);

// An RFC 3339 date-time (section 5.6): YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or an
// offset; 'T' and 'Z' in either case.
bool IsRfc3339DateTime(std::string_view text);
// A DNS name a publisher can prove (docs/formats.md "Publisher domains"), as ValidateOrigin and
// ValidateRecord take a publisher domain and a node fetches a proof for: two or more labels of
// lowercase letters, digits and hyphens (1..63 each, no hyphen at either end), at most 253
// characters, and not an address literal (a name of digits only). "localhost" is refused: it
// names every machine.
bool IsDomainName(std::string_view text);

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_ORIGIN_H_

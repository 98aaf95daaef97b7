// TermPointer: one entry of the keyword index (docs/protocol.md "Keyword index"): a small signed
// value saying "the skill record of (publisher, agentId, skillId) carries this term, with this
// weight", stored under SHA-256("term:" + term) — or, for a hot term, under one of its shards
// SHA-256("term:" + term + "#" + shard) — beside the skill records of the store.
//
// It follows SkillRecord (skill_record.h) in everything but its fields: a canonical encoding (a
// msgpack array in a fixed field order beginning with its own tag, so that a signature over a
// pointer can never be taken for one over a record), an Ed25519 signature over those bytes by
// the same publisher key that signs the skill's record, a sequence number (the record's: a
// pointer is made from one version of its record), a validity window (timestamp .. timestamp +
// TTL, the record's bounds), and a tombstone that replaces it when the skill is unpublished.
// The shard is not inside the signature: a publisher moves a pointer to the next shard of a full
// key without signing it again, and a holder checks that the key is one of the term's shards.
//
// A plain value and pure functions; no ownership, no I/O. The term is one the text analysis
// (discovery/text/) made: kademlia/ cannot see it, so the limits below restate its bounds.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_TERM_POINTER_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_TERM_POINTER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_profile.h"
#include "kademlia/store/record/trailing_elements.h"
#include "transport/result.h"

namespace skillnode::kademlia::store {

// A term in bytes: the tokenizer's bound (discovery/text/tokenizer.h, Tokenizer::kTermBytesMax).
constexpr size_t kTermBytesMax = 64;
// The description's first bytes a pointer carries, cut at a character boundary: about a line of
// a result list (a reader shows it before it fetches the record), and small enough that a
// typical pointer (270 to 330 bytes with its signature) leaves room for three or four in a
// VALUES page.
constexpr size_t kTermPointerDescriptionBytesMax = 96;
// The term's weight in the record (discovery/text/term_extractor.h: the sum of its fields'
// weights over its occurrences) in hundredths, so that the encoding holds no float: 0.01 to
// 100.00. A publisher clamps a larger weight; a live pointer has one of at least 0.01.
constexpr uint32_t kTermWeightCentiMax = 10000;
// Pointers one holder keeps under one term key (one shard). A full key refuses a newcomer that
// does not outweigh its lightest pointer (ERROR 24, "term key full"); its publisher moves on to
// the next shard. 256 pointers are 68 to 83 KiB (at most 191 KiB), well inside a key's 1 MiB.
constexpr size_t kTermPointersPerKeyMax = 256;
// Shards of one term: 0 (SHA-256("term:" + term)) to kTermShardsMax - 1. With
// kTermPointersPerKeyMax each, 16,384 skills can carry one term; the publisher of a pointer that
// finds every shard full gives that term up (a term that common selects nothing).
constexpr uint32_t kTermShardsMax = 64;
// Every pointer travels inline (skill_record.h kRecordInlineSizeMax): its field limits keep its
// encoding under 800 bytes, and decoding refuses anything longer than this.
constexpr size_t kTermPointerEncodedSizeMax = kRecordInlineSizeMax;

struct TermPointer {
  std::string term;  // one term as discovery/text makes it: no '#', space or control character
  Key record_key;    // where the record is read: SkillKey(skill_id)
  std::string agent_id;
  std::string skill_id;
  std::string name;           // the descriptor's name, empty when it has none or on a tombstone
  std::string description;    // DescriptionPrefix of the descriptor's description
  uint32_t weight_centi = 0;  // 1..kTermWeightCentiMax; 0 on a tombstone
  uint64_t timestamp_ms = 0;  // the record's timestamp
  uint64_t sequence = 0;      // the record's sequence
  uint32_t ttl_seconds = 0;   // the record's TTL
  bool tombstone = false;     // the skill was unpublished: no name, description or weight
  PublicKey publisher{};      // the record's publisher key, which signs the pointer too
  // Every term the record is indexed under, with its weight (term_profile.h); empty on a
  // tombstone, and on a pointer of a version that did not write it (it then has 13 elements).
  TermProfile terms;
  // Elements after the publisher that a newer version wrote (at most kRecordExtraElementsMax),
  // kept so that the pointer encodes again to the bytes its publisher signed. Empty on every
  // pointer this version makes.
  TrailingElements unknown_trailing;
  bool operator==(const TermPointer&) const = default;
};

// Who a pointer belongs to under its key: the record identity it points at (one term per key).
RecordIdentity IdentityOf(const TermPointer& pointer);
// timestamp + TTL (saturating), as NotAfterMs of a record.
uint64_t NotAfterMs(const TermPointer& pointer);

// Shard `shard` of `term`: SHA-256("term:" + term) for shard 0, SHA-256("term:" + term + "#" +
// shard in decimal) for the others. Asserts shard < kTermShardsMax.
Key TermKey(std::string_view term, uint32_t shard = 0);
// The shard of `term` that `key` is, if any (a holder's "does it belong under this key").
std::optional<uint32_t> TermShardOf(std::string_view term, const Key& key);

// At most kTermPointerDescriptionBytesMax bytes of `description`, cut before the character
// (UTF-8 sequence) that would cross the limit.
std::string DescriptionPrefix(std::string_view description);

// Checks every field against the limits above and a record's: the term (1..kTermBytesMax bytes,
// no '#', space or control character), the record key (SkillKey(skill_id)), the ids (as a
// record's), the name (as a descriptor's), the description (at most
// kTermPointerDescriptionBytesMax bytes, not cut inside a character), the weight (1..max, 0 on
// a tombstone), the TTL (a record's bounds), and a tombstone's empty name, description and
// terms. The error names the field and the reason.
[[nodiscard]] transport::Result<void> ValidateTermPointer(const TermPointer& pointer);

// A pointer as it travels and is stored: canonical bytes, signature, and the decoded fields.
struct SignedTermPointer {
  std::vector<uint8_t> encoded;  // canonical encoding, what the signature covers
  Signature signature{};
  TermPointer pointer;
  bool operator==(const SignedTermPointer& other) const {
    return encoded == other.encoded && signature == other.signature;
  }
};

// Validates, encodes canonically and signs with `publisher` (Sign sets the publisher field).
[[nodiscard]] transport::Result<SignedTermPointer> SignTermPointer(
    TermPointer pointer, const Identity& publisher,
    const SignatureScheme& signatures = Ed25519Signatures());

// Decodes canonical bytes and verifies the signature, every limit and the canonical form.
// Never throws.
[[nodiscard]] transport::Result<SignedTermPointer> VerifyTermPointer(
    std::span<const uint8_t> encoded, const Signature& signature,
    const SignatureScheme& signatures = Ed25519Signatures());

// Whether `encoded` begins as a term pointer's encoding does (an array whose first element is the
// pointer's tag), not a skill record's: which of the two a STORE carries. Decodes nothing else.
bool IsTermPointerEncoding(std::span<const uint8_t> encoded);

// The canonical encoding alone (no validation); exposed for tests and tools.
std::vector<uint8_t> EncodeTermPointer(const TermPointer& pointer);
[[nodiscard]] transport::Result<TermPointer> DecodeTermPointer(std::span<const uint8_t> encoded);

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_TERM_POINTER_H_

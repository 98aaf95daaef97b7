// Term pointers: keys, validation, the canonical encoding and its decoding, signing and
// verifying (term_pointer.h). The field order of the encoding is that of TermPointer, after the
// tag: [tag, term, recordKey, agentId, skillId, name, description, weight, timestamp, sequence,
// ttl, tombstone, publisher, terms], then any elements a newer version added, kept as they came
// (unknown_trailing). `terms` (the TermProfile's bytes) is left out when the profile is empty
// and nothing follows it, as a version before it wrote the pointer; it is nil when empty and
// followed by unknown elements. So each pointer has one encoding.
//
// msgpack-cxx reports malformed input by throwing; the one call that can throw on input,
// msgpack::unpack, sits in DecodeTermPointer's try block, so no exception leaves this file.
#include "kademlia/store/record/term_pointer.h"

#include <algorithm>
#include <cassert>
#include <exception>
#include <msgpack.hpp>
#include <tuple>

#include "kademlia/store/record/field_checks.h"
#include "kademlia/store/record/msgpack_fields.h"
#include "kademlia/wire/msgpack_out.h"

namespace skillnode::kademlia::store {
namespace {

using field_checks::CheckText;
using field_checks::EndsInsideCharacter;
using field_checks::HasControlCharacter;
using field_checks::Invalid;

// The first element of every encoding: names the format, so that a signature over a pointer
// is never one over a skill record (whose tag is "skillnode-record-v1") or anything else.
constexpr std::string_view kTermPointerTag = "skillnode-term-pointer-v1";
constexpr uint32_t kTermPointerFieldsMin = 13;  // up to the publisher
constexpr uint32_t kTermPointerFieldsMax = 14;  // and the terms
// msgpack::unpack limits, per array or map: the pointer's 14 fields and up to
// kRecordExtraElementsMax unknown ones (skill_record.h) after them, each a scalar or an array
// or map of scalars (depth 2). The encoding's size bounds the rest. An unknown element is held
// to these limits, so skipping and keeping it (MsgpackFields::Rest) is bounded too.
constexpr size_t kUnpackElementsMax = 32;
constexpr size_t kUnpackDepthMax = 2;
static_assert(kTermPointerFieldsMax + kRecordExtraElementsMax <= kUnpackElementsMax);

transport::Result<void> CheckTerm(std::string_view term) {
  if (term.empty()) return Invalid("term", "is required");
  if (term.size() > kTermBytesMax) {
    return Invalid("term", "is " + std::to_string(term.size()) + " bytes, more than " +
                               std::to_string(kTermBytesMax));
  }
  if (HasControlCharacter(term) || term.find_first_of("# ") != std::string_view::npos) {
    return Invalid("term", "contains '#', a space or a control character");
  }
  return {};
}

transport::Result<void> CheckContent(const TermPointer& p) {
  if (p.tombstone) {
    if (!p.name.empty() || !p.description.empty() || p.weight_centi != 0 || !p.terms.empty()) {
      return Invalid(p.weight_centi != 0      ? "weight"
                     : !p.name.empty()        ? "name"
                     : !p.description.empty() ? "description"
                                              : "terms",
                     "a tombstone carries no name, description, weight or terms");
    }
    return {};
  }
  if (auto ok = CheckText("name", p.name, kTitleLengthMax, false); !ok) return ok;
  if (p.description.size() > kTermPointerDescriptionBytesMax) {
    return Invalid("description", "is " + std::to_string(p.description.size()) +
                                      " bytes, more than " +
                                      std::to_string(kTermPointerDescriptionBytesMax));
  }
  if (EndsInsideCharacter(p.description)) {
    return Invalid("description", "is cut inside a character");
  }
  if (p.weight_centi == 0 || p.weight_centi > kTermWeightCentiMax) {
    return Invalid("weight", std::to_string(p.weight_centi) + " hundredths is outside 1.." +
                                 std::to_string(kTermWeightCentiMax));
  }
  return {};
}

}  // namespace

RecordIdentity IdentityOf(const TermPointer& pointer) {
  return RecordIdentity{pointer.publisher, pointer.agent_id, pointer.skill_id};
}

uint64_t NotAfterMs(const TermPointer& pointer) {
  const uint64_t ttl_ms = uint64_t{pointer.ttl_seconds} * 1000;
  return pointer.timestamp_ms > UINT64_MAX - ttl_ms ? UINT64_MAX : pointer.timestamp_ms + ttl_ms;
}

Key TermKey(std::string_view term, uint32_t shard) {
  assert(shard < kTermShardsMax);
  std::string text = "term:" + std::string(term);
  if (shard > 0) text += "#" + std::to_string(shard);
  return Key::Sha256(text);
}

std::optional<uint32_t> TermShardOf(std::string_view term, const Key& key) {
  for (uint32_t shard = 0; shard < kTermShardsMax; ++shard) {
    if (TermKey(term, shard) == key) return shard;
  }
  return std::nullopt;
}

std::string DescriptionPrefix(std::string_view description) {
  std::string prefix(description.substr(0, kTermPointerDescriptionBytesMax));
  // Drop the character the limit cut through (and a broken sequence at the end, if any).
  while (EndsInsideCharacter(prefix)) prefix.pop_back();
  return prefix;
}

transport::Result<void> ValidateTermPointer(const TermPointer& p) {
  if (auto ok = CheckTerm(p.term); !ok) return ok;
  for (auto [field, text] : {std::pair{"agentId", &p.agent_id}, {"skillId", &p.skill_id}}) {
    if (auto ok = CheckText(field, *text, kIdLengthMax, true); !ok) return ok;
  }
  if (p.record_key != SkillKey(p.skill_id)) {
    return Invalid("recordKey", "is not SHA-256(\"skill:\" + skillId)");
  }
  if (auto ok = CheckContent(p); !ok) return ok;
  if (p.ttl_seconds < kRecordTtlMinSeconds || p.ttl_seconds > kRecordTtlMaxSeconds) {
    return Invalid("ttl", std::to_string(p.ttl_seconds) + " s is outside " +
                              std::to_string(kRecordTtlMinSeconds) + ".." +
                              std::to_string(kRecordTtlMaxSeconds) + " s");
  }
  return {};
}

std::vector<uint8_t> EncodeTermPointer(const TermPointer& p) {
  std::vector<uint8_t> out;
  wire::VectorSink sink(&out);
  wire::Packer packer(sink);
  assert(p.unknown_trailing.count <= kRecordExtraElementsMax);
  const bool with_terms = !p.terms.empty() || p.unknown_trailing.count > 0;
  packer.pack_array(kTermPointerFieldsMin + (with_terms ? 1 : 0) + p.unknown_trailing.count);
  wire::PackStr(packer, kTermPointerTag);
  wire::PackStr(packer, p.term);
  wire::PackBin(packer, p.record_key.bytes());
  wire::PackStr(packer, p.agent_id);
  wire::PackStr(packer, p.skill_id);
  wire::PackStr(packer, p.name);
  wire::PackStr(packer, p.description);
  packer.pack_uint32(p.weight_centi);
  packer.pack_uint64(p.timestamp_ms);
  packer.pack_uint64(p.sequence);
  packer.pack_uint32(p.ttl_seconds);
  if (p.tombstone) {
    packer.pack_true();
  } else {
    packer.pack_false();
  }
  wire::PackBin(packer, p.publisher);
  if (p.terms.empty() && with_terms) {
    packer.pack_nil();
  } else if (with_terms) {
    wire::PackBin(packer, p.terms.bytes());
  }
  AppendTrailing(sink, p.unknown_trailing);
  sink.Finish();
  return out;
}

transport::Result<TermPointer> DecodeTermPointer(std::span<const uint8_t> encoded) {
  if (encoded.size() > kTermPointerEncodedSizeMax) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "term pointer is " + std::to_string(encoded.size()) +
                               " bytes, more than " + std::to_string(kTermPointerEncodedSizeMax));
  }
  msgpack::object_handle handle;
  try {
    size_t offset = 0;
    const msgpack::unpack_limit limits(kUnpackElementsMax, kUnpackElementsMax,
                                       kTermPointerEncodedSizeMax, kTermPointerEncodedSizeMax, 0,
                                       kUnpackDepthMax);
    handle = msgpack::unpack(reinterpret_cast<const char*>(encoded.data()), encoded.size(), offset,
                             nullptr, nullptr, limits);
    if (offset != encoded.size()) {
      return transport::Fail(transport::ErrorCode::kParse, "trailing bytes after term pointer");
    }
  } catch (const std::exception& e) {
    return transport::Fail(transport::ErrorCode::kParse,
                           std::string("term pointer is not valid msgpack: ") + e.what());
  } catch (...) {
    return transport::Fail(transport::ErrorCode::kParse, "term pointer is not valid msgpack");
  }
  const msgpack::object& array = handle.get();
  if (auto problem = MsgpackFields::ArrayProblem(array, kTermPointerFieldsMin,
                                                 kTermPointerFieldsMax, kRecordExtraElementsMax);
      !problem.empty()) {
    return transport::Fail(transport::ErrorCode::kParse, "term pointer: " + problem);
  }
  MsgpackFields r(array);
  TermPointer p;
  const bool tagged = r.Text("tag") == kTermPointerTag;
  p.term = r.Text("term");
  p.record_key = Key(r.Bytes32("recordKey").value_or(std::array<uint8_t, 32>{}));
  p.agent_id = r.Text("agentId");
  p.skill_id = r.Text("skillId");
  p.name = r.Text("name");
  p.description = r.Text("description");
  p.weight_centi = static_cast<uint32_t>(r.Uint("weight", kTermWeightCentiMax));
  p.timestamp_ms = r.Uint("timestamp", UINT64_MAX);
  p.sequence = r.Uint("sequence", UINT64_MAX);
  p.ttl_seconds = static_cast<uint32_t>(r.Uint("ttl", UINT32_MAX));
  p.tombstone = r.Bool("tombstone");
  p.publisher = r.Bytes32("publisher").value_or(PublicKey{});
  if (r.size() > kTermPointerFieldsMin) {
    const std::vector<uint8_t> terms = r.Bin("terms", kTermProfileBytesMax, /*nil_allowed=*/true);
    if (auto profile = TermProfile::FromBytes(terms); profile) {
      p.terms = std::move(*profile);
    } else {
      r.Fail("terms", profile.error().message);
    }
  }
  if (r.size() > kTermPointerFieldsMax) p.unknown_trailing = r.Rest();
  if (!r.ok()) {
    return transport::Fail(transport::ErrorCode::kParse, "term pointer field " + r.error());
  }
  if (!tagged) {
    return transport::Fail(transport::ErrorCode::kParse, "term pointer field tag: expected '" +
                                                             std::string(kTermPointerTag) + "'");
  }
  return p;
}

transport::Result<SignedTermPointer> SignTermPointer(TermPointer pointer, const Identity& publisher,
                                                     const SignatureScheme& signatures) {
  pointer.publisher = publisher.public_key();
  if (auto ok = ValidateTermPointer(pointer); !ok) return tl::unexpected(ok.error());
  SignedTermPointer out;
  out.encoded = EncodeTermPointer(pointer);
  out.signature = signatures.Sign(publisher, out.encoded);
  out.pointer = std::move(pointer);
  return out;
}

transport::Result<SignedTermPointer> VerifyTermPointer(std::span<const uint8_t> encoded,
                                                       const Signature& signature,
                                                       const SignatureScheme& signatures) {
  auto pointer = DecodeTermPointer(encoded);
  if (!pointer) return tl::unexpected(pointer.error());
  if (!signatures.Verify(pointer->publisher, encoded, signature)) {
    return transport::Fail(transport::ErrorCode::kCrypto, "term pointer signature does not verify");
  }
  if (auto ok = ValidateTermPointer(*pointer); !ok) return tl::unexpected(ok.error());
  // Canonical means one encoding per pointer: anything else was not made by EncodeTermPointer.
  if (EncodeTermPointer(*pointer) != std::vector<uint8_t>(encoded.begin(), encoded.end())) {
    return transport::Fail(transport::ErrorCode::kParse, "term pointer is not in canonical form");
  }
  return SignedTermPointer{{encoded.begin(), encoded.end()}, signature, std::move(*pointer)};
}

bool IsTermPointerEncoding(std::span<const uint8_t> encoded) {
  // A fixarray (up to 15 elements) or an array16 header, then the tag as a fixstr (under 32
  // bytes: the canonical form msgpack gives a short string).
  static_assert(kTermPointerTag.size() < 32);
  size_t at = 0;
  if (encoded.empty()) return false;
  if ((encoded[0] & 0xf0) == 0x90) {
    at = 1;
  } else if (encoded[0] == 0xdc) {
    at = 3;
  } else {
    return false;
  }
  if (encoded.size() < at + 1 + kTermPointerTag.size()) return false;
  if (encoded[at] != (0xa0 | kTermPointerTag.size())) return false;
  return std::equal(kTermPointerTag.begin(), kTermPointerTag.end(), encoded.begin() + at + 1);
}

}  // namespace skillnode::kademlia::store

// Skill records: validation, the canonical encoding, record keys, signing and verifying.
// Decoding (DecodeRecord) is in skill_record_decode.cpp; the constants of the encoding both
// files share are in skill_record_format.h; the field checks ValidateRecord is made of are in
// record_checks.h (the record's own) and field_checks.h (those the store's value types share).
#include "kademlia/store/record/skill_record.h"

#include <algorithm>
#include <cassert>
#include <msgpack.hpp>

#include "kademlia/store/record/field_checks.h"
#include "kademlia/store/record/msgpack_fields.h"
#include "kademlia/store/record/record_checks.h"
#include "kademlia/store/record/skill_record_format.h"
#include "kademlia/wire/encoding.h"
#include "kademlia/wire/msgpack_out.h"

namespace skillnode::kademlia::store {
namespace {

using field_checks::CheckList;
using field_checks::CheckText;
using field_checks::Invalid;
using record_checks::CheckDescriptor;
using record_checks::CheckDomains;
using skill_record_format::kDescriptorFields;
using skill_record_format::kDescriptorFieldsWithExamplesJson;
using skill_record_format::kDescriptorFieldsWithFolder;
using skill_record_format::kOriginFields;
using skill_record_format::kOriginFieldsWithDomainState;
using skill_record_format::kReasonNames;
using skill_record_format::kRecordFields;
using skill_record_format::kRecordFieldsWithCertificate;
using skill_record_format::kRecordFieldsWithDomains;
using skill_record_format::kRecordFieldsWithOrigin;
using skill_record_format::kRecordTag;
using skill_record_format::kStatusNames;

void PackOptionalBin(wire::Packer& p, const std::optional<std::array<uint8_t, 32>>& bytes) {
  if (bytes) {
    wire::PackBin(p, *bytes);
  } else {
    p.pack_nil();
  }
}

// ---- Canonical encoding ----------------------------------------------------------------

void PackList(wire::Packer& p, const std::vector<std::string>& items) {
  p.pack_array(static_cast<uint32_t>(items.size()));
  for (const auto& item : items) wire::PackStr(p, item);
}

void PackDescriptor(wire::Packer& p, const SkillDescriptor& d) {
  const bool json_examples = !d.examples_json.empty();
  p.pack_array(json_examples      ? kDescriptorFieldsWithExamplesJson
               : d.archive_sha256 ? kDescriptorFieldsWithFolder
                                  : kDescriptorFields);
  wire::PackStr(p, d.name);
  wire::PackStr(p, d.description);
  wire::PackStr(p, d.capability_type);
  wire::PackStr(p, d.access);
  PackList(p, d.tags);
  wire::PackStr(p, d.input_schema);
  wire::PackStr(p, d.output_schema);
  PackList(p, d.examples);
  PackOptionalBin(p, d.skill_md_sha256);
  if (d.archive_sha256 || json_examples) {
    p.pack_uint64(d.skill_md_size);
    PackOptionalBin(p, d.archive_sha256);
    p.pack_uint64(d.archive_size);
  }
  if (json_examples) PackList(p, d.examples_json);
}

void PackOrigin(wire::Packer& p, wire::VectorSink& sink, const RecordOrigin& o) {
  const bool unverified = o.publisher_domain_state == OriginDomainState::kUnverified;
  const uint32_t trailing = o.unknown_trailing.count;
  assert(trailing <= kRecordExtraElementsMax);
  p.pack_array(trailing > 0 ? kOriginFieldsWithDomainState + trailing
               : unverified ? kOriginFieldsWithDomainState
                            : kOriginFields);
  p.pack_uint8(static_cast<uint8_t>(o.format));
  wire::PackStr(p, o.source_url);
  wire::PackBin(p, o.document_sha256);
  p.pack_uint64(o.document_size);
  p.pack_uint8(static_cast<uint8_t>(o.signature));
  wire::PackStr(p, o.publisher_domain);
  p.pack_uint8(static_cast<uint8_t>(o.mcp_status));
  wire::PackStr(p, o.published_at);
  wire::PackStr(p, o.updated_at);
  if (unverified) {
    p.pack_uint8(static_cast<uint8_t>(o.publisher_domain_state));
  } else if (trailing > 0) {
    p.pack_nil();
  }
  AppendTrailing(sink, o.unknown_trailing);
}

}  // namespace

std::string_view SkillStatusName(SkillStatus status) {
  return kStatusNames.at(static_cast<size_t>(status));
}

transport::Result<SkillStatus> ParseSkillStatus(std::string_view text) {
  for (size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == text) return static_cast<SkillStatus>(i);
  }
  return transport::Fail(
      transport::ErrorCode::kInvalidArgument,
      "status '" + std::string(text) + "' is not one of HEALTHY, DEGRADED, UNHEALTHY, MAINTENANCE");
}

std::string_view UnregisterReasonName(UnregisterReason reason) {
  return kReasonNames.at(static_cast<size_t>(reason));
}

transport::Result<UnregisterReason> ParseUnregisterReason(std::string_view text) {
  for (size_t i = 1; i < kReasonNames.size(); ++i) {
    if (kReasonNames[i] == text) return static_cast<UnregisterReason>(i);
  }
  return transport::Fail(
      transport::ErrorCode::kInvalidArgument,
      "reason '" + std::string(text) + "' is not one of SHUTDOWN, ERROR, MAINTENANCE, UPGRADE");
}

RecordIdentity IdentityOf(const SkillRecord& record) {
  return RecordIdentity{record.publisher, record.agent_id, record.skill_id};
}

transport::Result<void> ValidateRecord(const SkillRecord& r) {
  for (auto [field, text, max] : {std::tuple{"agentId", &r.agent_id, kIdLengthMax},
                                  {"skillId", &r.skill_id, kIdLengthMax},
                                  {"version", &r.version, kVersionLengthMax},
                                  {"skillType", &r.skill_type, kSkillTypeLengthMax},
                                  {"endpoint", &r.endpoint, kEndpointLengthMax}}) {
    if (auto ok = CheckText(field, *text, max, !r.tombstone); !ok) return ok;
  }
  if (auto ok = CheckList("capabilities", r.capabilities, kCapabilitiesMax, kNameLengthMax); !ok) {
    return ok;
  }
  if (!r.tombstone && r.capabilities.empty()) return Invalid("capabilities", "needs at least one");
  if (auto ok = CheckList("scenes", r.scenes, kScenesMax, kNameLengthMax); !ok) return ok;
  if (r.ttl_seconds < kRecordTtlMinSeconds || r.ttl_seconds > kRecordTtlMaxSeconds) {
    return Invalid("ttl", std::to_string(r.ttl_seconds) + " s is outside " +
                              std::to_string(kRecordTtlMinSeconds) + ".." +
                              std::to_string(kRecordTtlMaxSeconds) + " s");
  }
  if (r.tombstone == (r.reason == UnregisterReason::kNone)) {
    return Invalid(
        "reason", r.tombstone ? "a tombstone needs a reason" : "only a tombstone carries a reason");
  }
  if (r.descriptor) {
    if (auto ok = CheckDescriptor(*r.descriptor); !ok) return ok;
  }
  if (r.publisher_certificate.size() > kPublisherCertificateMax) {
    return Invalid("publisherCertificate", std::to_string(r.publisher_certificate.size()) +
                                               " bytes, more than " +
                                               std::to_string(kPublisherCertificateMax));
  }
  if (r.origin) {
    if (auto ok = ValidateOrigin(*r.origin); !ok) return ok;
  }
  if (auto ok = CheckDomains(r.publisher_domains); !ok) return ok;
  const size_t size = EncodeRecord(r).size();
  if (size > kRecordEncodedSizeMax) {
    return Invalid("record", "encodes to " + std::to_string(size) + " bytes, more than " +
                                 std::to_string(kRecordEncodedSizeMax));
  }
  return {};
}

uint64_t NotAfterMs(const SkillRecord& record) {
  const uint64_t ttl_ms = uint64_t{record.ttl_seconds} * 1000;
  return record.timestamp_ms > UINT64_MAX - ttl_ms ? UINT64_MAX : record.timestamp_ms + ttl_ms;
}

transport::Result<void> CheckValidityWindow(const SkillRecord& record, uint64_t now_ms,
                                            uint64_t skew_ms) {
  return CheckValidityWindow(record.timestamp_ms, NotAfterMs(record), now_ms, skew_ms);
}

transport::Result<void> CheckValidityWindow(uint64_t timestamp_ms, uint64_t not_after_ms,
                                            uint64_t now_ms, uint64_t skew_ms) {
  const auto seconds = [](uint64_t ms) { return std::to_string((ms + 999) / 1000) + " s"; };
  if (timestamp_ms > now_ms && timestamp_ms - now_ms > skew_ms) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "record is signed for " + seconds(timestamp_ms - now_ms) +
                               " from now, beyond the allowed clock skew of " + seconds(skew_ms));
  }
  if (now_ms > not_after_ms && now_ms - not_after_ms > skew_ms) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "record's validity ended " + seconds(now_ms - not_after_ms) +
                               " ago (timestamp + ttl), beyond the allowed clock skew of " +
                               seconds(skew_ms));
  }
  return {};
}

Key CapabilityKey(std::string_view capability) {
  return Key::Sha256("capability:" + std::string(capability));
}
Key SceneKey(std::string_view scene) { return Key::Sha256("scene:" + std::string(scene)); }
Key SkillKey(std::string_view skill_id) { return Key::Sha256("skill:" + std::string(skill_id)); }
Key CapabilityTypeKey(std::string_view capability_type) {
  return Key::Sha256("type:" + std::string(capability_type));
}
Key SkillCapabilityKey(std::string_view skill_id, std::string_view capability) {
  return Key::Sha256(std::string(skill_id) + ":" + std::string(capability));
}

Key AgentKey(std::string_view agent_id) { return Key::Sha256("agent:" + std::string(agent_id)); }
Key FormatKey(RecordFormat format) {
  return Key::Sha256("format:" + std::string(RecordFormatName(format)));
}

std::string_view RecordFormatName(RecordFormat format) {
  switch (format) {
    case RecordFormat::kMcpServer:
      return "mcp-server";
    case RecordFormat::kAgentSkill:
      return "agent-skill";
    case RecordFormat::kA2aAgent:
      return "a2a-agent";
  }
  return "unknown";
}

std::vector<RecordFormat> FormatsOf(const SkillRecord& record) {
  std::vector<RecordFormat> formats;
  const auto imported_from = [&record](OriginFormat format) {
    return record.origin && record.origin->format == format;
  };
  if (record.skill_type == kMcpServerSkillType || imported_from(OriginFormat::kMcpRegistry)) {
    formats.push_back(RecordFormat::kMcpServer);
  }
  if ((record.descriptor && record.descriptor->skill_md_sha256) ||
      imported_from(OriginFormat::kAgentSkills)) {
    formats.push_back(RecordFormat::kAgentSkill);
  }
  if (record.skill_type == kA2aAgentSkillType || imported_from(OriginFormat::kA2a)) {
    formats.push_back(RecordFormat::kA2aAgent);
  }
  return formats;
}

std::vector<Key> RecordKeys(const SkillRecord& record) {
  std::vector<Key> keys;
  for (const auto& c : record.capabilities) {
    keys.push_back(SkillCapabilityKey(record.skill_id, c));
    keys.push_back(CapabilityKey(c));
  }
  for (const auto& s : record.scenes) keys.push_back(SceneKey(s));
  keys.push_back(SkillKey(record.skill_id));
  if (record.descriptor && !record.descriptor->capability_type.empty()) {
    keys.push_back(CapabilityTypeKey(record.descriptor->capability_type));
  }
  keys.push_back(AgentKey(record.agent_id));
  for (RecordFormat format : FormatsOf(record)) keys.push_back(FormatKey(format));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::vector<uint8_t> EncodeRecord(const SkillRecord& r) {
  std::vector<uint8_t> out;
  wire::VectorSink sink(&out);
  wire::Packer p(sink);
  const bool domains = !r.publisher_domains.empty();
  const uint32_t trailing = r.unknown_trailing.count;
  assert(trailing <= kRecordExtraElementsMax);
  p.pack_array(trailing > 0                      ? kRecordFieldsWithDomains + trailing
               : domains                         ? kRecordFieldsWithDomains
               : r.origin                        ? kRecordFieldsWithOrigin
               : r.publisher_certificate.empty() ? kRecordFields
                                                 : kRecordFieldsWithCertificate);
  wire::PackStr(p, kRecordTag);
  wire::PackStr(p, r.agent_id);
  wire::PackStr(p, r.skill_id);
  wire::PackStr(p, r.version);
  wire::PackStr(p, r.skill_type);
  wire::PackStr(p, r.endpoint);
  PackList(p, r.capabilities);
  PackList(p, r.scenes);
  p.pack_uint8(static_cast<uint8_t>(r.status));
  p.pack_uint64(r.timestamp_ms);
  p.pack_uint64(r.sequence);
  p.pack_uint32(r.ttl_seconds);
  if (r.tombstone) {
    p.pack_true();
  } else {
    p.pack_false();
  }
  p.pack_uint8(static_cast<uint8_t>(r.reason));
  if (r.descriptor) {
    PackDescriptor(p, *r.descriptor);
  } else {
    p.pack_nil();
  }
  wire::PackBin(p, r.publisher);
  if (!r.publisher_certificate.empty()) {
    wire::PackBin(p, r.publisher_certificate);
  } else if (r.origin || domains || trailing > 0) {
    p.pack_nil();
  }
  if (r.origin) {
    PackOrigin(p, sink, *r.origin);
  } else if (domains || trailing > 0) {
    p.pack_nil();
  }
  if (domains) {
    PackList(p, r.publisher_domains);
  } else if (trailing > 0) {
    p.pack_nil();
  }
  AppendTrailing(sink, r.unknown_trailing);
  sink.Finish();
  return out;
}

transport::Result<SignedRecord> SignRecord(SkillRecord record, const Identity& publisher,
                                           const SignatureScheme& signatures) {
  record.publisher = publisher.public_key();
  if (auto ok = ValidateRecord(record); !ok) return tl::unexpected(ok.error());
  SignedRecord out;
  out.encoded = EncodeRecord(record);
  out.signature = signatures.Sign(publisher, out.encoded);
  out.record = std::move(record);
  return out;
}

transport::Result<SignedRecord> VerifyRecord(std::span<const uint8_t> encoded,
                                             const Signature& signature,
                                             const SignatureScheme& signatures) {
  auto record = DecodeRecord(encoded);
  if (!record) return tl::unexpected(record.error());
  if (!signatures.Verify(record->publisher, encoded, signature)) {
    return transport::Fail(transport::ErrorCode::kCrypto, "record signature does not verify");
  }
  if (auto ok = ValidateRecord(*record); !ok) return tl::unexpected(ok.error());
  // Canonical means one encoding per record: anything else was not made by EncodeRecord.
  if (EncodeRecord(*record) != std::vector<uint8_t>(encoded.begin(), encoded.end())) {
    return transport::Fail(transport::ErrorCode::kParse, "record is not in canonical form");
  }
  return SignedRecord{{encoded.begin(), encoded.end()}, signature, std::move(*record)};
}

}  // namespace skillnode::kademlia::store

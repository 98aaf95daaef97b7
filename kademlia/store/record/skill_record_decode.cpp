// Decoding of the canonical skill-record encoding (DecodeRecord in skill_record.h); encoding,
// validation, keys, signing and verifying are in skill_record.cpp, and the constants both share
// are in skill_record_format.h. The fields are read with MsgpackFields (msgpack_fields.h), the
// reader term pointers are decoded with too.
//
// msgpack-cxx reports malformed input by throwing; the one call that can throw on input,
// msgpack::unpack, sits in DecodeRecord's try block, so no exception leaves this file.
#include <algorithm>
#include <array>
#include <exception>
#include <msgpack.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/store/record/msgpack_fields.h"
#include "kademlia/store/record/skill_record.h"  // implemented here (DecodeRecord) and in skill_record.cpp
#include "kademlia/store/record/skill_record_format.h"

namespace skillnode::kademlia::store {
namespace {

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

// msgpack::unpack limits for a record (it is at most kRecordEncodedSizeMax bytes), per array or
// map: the largest array is the record's (19 fields and up to kRecordExtraElementsMax unknown
// ones) or a list's (16 capabilities); the nesting is record > descriptor or origin > list. An
// unknown trailing element is held to the same limits, so skipping and keeping it
// (MsgpackFields::Rest) is bounded in depth and size too.
constexpr size_t kUnpackElementsMax = 128;
constexpr size_t kUnpackDepthMax = 4;
static_assert(kRecordFieldsWithDomains + kRecordExtraElementsMax <= kUnpackElementsMax);

std::optional<SkillDescriptor> ReadDescriptor(MsgpackFields& outer) {
  const msgpack::object* o = outer.Next("descriptor");
  if (o == nullptr || o->type == msgpack::type::NIL) return std::nullopt;
  if (o->type != msgpack::type::ARRAY ||
      (o->via.array.size != kDescriptorFields && o->via.array.size != kDescriptorFieldsWithFolder &&
       o->via.array.size != kDescriptorFieldsWithExamplesJson)) {
    outer.Wrong("descriptor", "nil or an array of " + std::to_string(kDescriptorFields) + ", " +
                                  std::to_string(kDescriptorFieldsWithFolder) + " or " +
                                  std::to_string(kDescriptorFieldsWithExamplesJson));
    return std::nullopt;
  }
  MsgpackFields r(*o);
  SkillDescriptor d;
  d.name = r.Text("descriptor.name");
  d.description = r.Text("descriptor.description");
  d.capability_type = r.Text("descriptor.capability_type");
  d.access = r.Text("descriptor.access");
  d.tags = r.List("descriptor.tags");
  d.input_schema = r.Text("descriptor.input_schema");
  d.output_schema = r.Text("descriptor.output_schema");
  d.examples = r.List("descriptor.examples");
  d.skill_md_sha256 = r.Bytes32("descriptor.skill_md_sha256", true);
  if (o->via.array.size >= kDescriptorFieldsWithFolder) {
    // Beside JSON examples the folder's fields are 0, nil and 0 when there is no folder.
    const bool json_examples = o->via.array.size == kDescriptorFieldsWithExamplesJson;
    d.skill_md_size = r.Uint("descriptor.skill_md_size", kSkillMdBytesMax);
    d.archive_sha256 = r.Bytes32("descriptor.archive_sha256", json_examples);
    d.archive_size = r.Uint("descriptor.archive_size", kSkillArchiveBytesMax);
    if (json_examples) {
      d.examples_json = r.List("descriptor.examples_json");
      // Without JSON examples the descriptor has 9 or 12 fields: one encoding per descriptor.
      if (r.ok() && d.examples_json.empty()) r.Wrong("descriptor.examples_json", "entries");
    }
  }
  if (!r.ok()) outer.Wrong("descriptor", "valid fields (" + r.error() + ")");
  return d;
}

std::optional<RecordOrigin> ReadOrigin(MsgpackFields& outer, bool nil_allowed) {
  const msgpack::object* o = outer.Next("origin");
  if (o == nullptr) return std::nullopt;
  if (nil_allowed && o->type == msgpack::type::NIL) return std::nullopt;
  if (auto problem = MsgpackFields::ArrayProblem(*o, kOriginFields, kOriginFieldsWithDomainState,
                                                 kRecordExtraElementsMax);
      !problem.empty()) {
    outer.Fail("origin", problem);
    return std::nullopt;
  }
  MsgpackFields r(*o);
  RecordOrigin origin;
  origin.format = static_cast<OriginFormat>(
      r.Uint("origin.format", static_cast<uint64_t>(OriginFormat::kAgentSkills)));
  origin.source_url = r.Text("origin.sourceUrl");
  if (auto digest = r.Bytes32("origin.documentSha256", false)) origin.document_sha256 = *digest;
  origin.document_size = r.Uint("origin.documentSize", kOriginDocumentBytesMax);
  origin.signature = static_cast<OriginSignature>(
      r.Uint("origin.signature", static_cast<uint64_t>(OriginSignature::kVerified)));
  origin.publisher_domain = r.Text("origin.publisherDomain");
  origin.mcp_status = static_cast<McpStatus>(
      r.Uint("origin.status", static_cast<uint64_t>(McpStatus::kDeprecated)));
  origin.published_at = r.Text("origin.publishedAt");
  origin.updated_at = r.Text("origin.updatedAt");
  const uint32_t size = o->via.array.size;
  const bool trailing = size > kOriginFieldsWithDomainState;
  // Only an unverified domain is written out, and nil in its place before unknown trailing
  // elements: one encoding per origin.
  if (size >= kOriginFieldsWithDomainState && !(trailing && r.SkipNil())) {
    const uint64_t unverified = static_cast<uint64_t>(OriginDomainState::kUnverified);
    if (r.Uint("origin.publisherDomainState", unverified) != unverified && r.ok()) {
      r.Wrong("origin.publisherDomainState", "2 (unverified)");
    }
    origin.publisher_domain_state = OriginDomainState::kUnverified;
  } else if (!origin.publisher_domain.empty()) {
    origin.publisher_domain_state = OriginDomainState::kVerified;
  }
  if (trailing) origin.unknown_trailing = r.Rest();
  if (!r.ok()) outer.Wrong("origin", "valid fields (" + r.error() + ")");
  return origin;
}

}  // namespace

transport::Result<SkillRecord> DecodeRecord(std::span<const uint8_t> encoded) {
  if (encoded.size() > kRecordEncodedSizeMax) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "record is " + std::to_string(encoded.size()) + " bytes, more than " +
                               std::to_string(kRecordEncodedSizeMax));
  }
  msgpack::object_handle handle;
  try {
    size_t offset = 0;
    const msgpack::unpack_limit limits(kUnpackElementsMax, kUnpackElementsMax,
                                       kRecordEncodedSizeMax, kRecordEncodedSizeMax, 0,
                                       kUnpackDepthMax);
    handle = msgpack::unpack(reinterpret_cast<const char*>(encoded.data()), encoded.size(), offset,
                             nullptr, nullptr, limits);
    if (offset != encoded.size())
      return transport::Fail(transport::ErrorCode::kParse, "trailing bytes after record");
  } catch (const std::exception& e) {
    return transport::Fail(transport::ErrorCode::kParse,
                           std::string("record is not valid msgpack: ") + e.what());
  } catch (...) {
    return transport::Fail(transport::ErrorCode::kParse, "record is not valid msgpack");
  }
  const msgpack::object& array = handle.get();
  if (auto problem = MsgpackFields::ArrayProblem(array, kRecordFields, kRecordFieldsWithDomains,
                                                 kRecordExtraElementsMax);
      !problem.empty()) {
    return transport::Fail(transport::ErrorCode::kParse, "record: " + problem);
  }
  // The fields this version knows; elements after them are a newer version's.
  const bool trailing = array.via.array.size > kRecordFieldsWithDomains;
  const uint32_t fields = std::min(array.via.array.size, kRecordFieldsWithDomains);
  MsgpackFields r(array);
  SkillRecord record;
  if (r.Text("tag") != kRecordTag) r.Wrong("tag", "'" + std::string(kRecordTag) + "'");
  record.agent_id = r.Text("agentId");
  record.skill_id = r.Text("skillId");
  record.version = r.Text("version");
  record.skill_type = r.Text("skillType");
  record.endpoint = r.Text("endpoint");
  record.capabilities = r.List("capabilities");
  record.scenes = r.List("scenes");
  record.status = static_cast<SkillStatus>(r.Uint("status", kStatusNames.size() - 1));
  record.timestamp_ms = r.Uint("timestamp", UINT64_MAX);
  record.sequence = r.Uint("sequence", UINT64_MAX);
  record.ttl_seconds = static_cast<uint32_t>(r.Uint("ttl", UINT32_MAX));
  record.tombstone = r.Bool("tombstone");
  record.reason = static_cast<UnregisterReason>(r.Uint("reason", kReasonNames.size() - 1));
  record.descriptor = ReadDescriptor(r);
  if (auto key = r.Bytes32("publisher", false)) record.publisher = *key;
  if (fields >= kRecordFieldsWithCertificate) {
    // Beside an origin or domains the certificate is nil when the publisher has none.
    record.publisher_certificate = r.Bin("publisherCertificate", kPublisherCertificateMax,
                                         /*nil_allowed=*/fields >= kRecordFieldsWithOrigin);
  }
  if (fields >= kRecordFieldsWithOrigin) {
    // Beside domains the origin is nil on a record first published on a node.
    record.origin = ReadOrigin(r, /*nil_allowed=*/fields == kRecordFieldsWithDomains);
  }
  // Without domains the record has 16 to 18 fields, or nil in their place before unknown
  // trailing elements: one encoding per record.
  if (fields == kRecordFieldsWithDomains && !(trailing && r.SkipNil())) {
    record.publisher_domains = r.List("publisherDomains");
    if (r.ok() && record.publisher_domains.empty()) r.Wrong("publisherDomains", "entries");
  }
  if (trailing) record.unknown_trailing = r.Rest();
  if (!r.ok()) return transport::Fail(transport::ErrorCode::kParse, "record field " + r.error());
  return record;
}

}  // namespace skillnode::kademlia::store

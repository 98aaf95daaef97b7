// The canonical encoding of a skill record (kademlia/store/record/skill_record.h): the constants
// that skill_record.cpp (encoding, validation, keys, signing) and skill_record_decode.cpp
// (decoding) share. Private to those two files: nothing else may include it.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_FORMAT_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_FORMAT_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace skillnode::kademlia::store::skill_record_format {

// The first element of every canonical encoding: names the format so that a signature over
// a record can never be mistaken for one over anything else.
inline constexpr std::string_view kRecordTag = "skillnode-record-v1";
inline constexpr uint32_t kRecordFields = 16;
// ... and one more, the publisher's certificate, on a record that carries one.
inline constexpr uint32_t kRecordFieldsWithCertificate = kRecordFields + 1;
// ... and one more, the origin, on an imported record (its certificate field is then nil when
// it has none).
inline constexpr uint32_t kRecordFieldsWithOrigin = kRecordFieldsWithCertificate + 1;
// ... and one more, the publisher domains it claims, on a record that claims any (its
// certificate and origin fields are then nil when it has none).
inline constexpr uint32_t kRecordFieldsWithDomains = kRecordFieldsWithOrigin + 1;
inline constexpr uint32_t kDescriptorFields = 9;
// ... and three more, SKILL.md's size and the folder archive's digest and size, on a descriptor
// of a skill published from a SKILL.md folder.
inline constexpr uint32_t kDescriptorFieldsWithFolder = kDescriptorFields + 3;
// ... and one more, the examples in JSON form, on a descriptor with an object example (the
// folder's fields are then 0, nil and 0 when it has no folder).
inline constexpr uint32_t kDescriptorFieldsWithExamplesJson = kDescriptorFieldsWithFolder + 1;
// An origin: format, sourceUrl, documentSha256, documentSize, signature, publisherDomain,
// status, publishedAt, updatedAt.
inline constexpr uint32_t kOriginFields = 9;
// ... and one more, publisherDomainState, when it is unverified (9 fields: verified when the
// publisherDomain is set, none when it is empty).
inline constexpr uint32_t kOriginFieldsWithDomainState = kOriginFields + 1;

inline constexpr std::array<std::string_view, 4> kStatusNames = {"HEALTHY", "DEGRADED", "UNHEALTHY",
                                                                 "MAINTENANCE"};
inline constexpr std::array<std::string_view, 5> kReasonNames = {"NONE", "SHUTDOWN", "ERROR",
                                                                 "MAINTENANCE", "UPGRADE"};

}  // namespace skillnode::kademlia::store::skill_record_format

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_SKILL_RECORD_FORMAT_H_

// The record-specific field checks ValidateRecord (kademlia/store/record/skill_record.h) is made
// of: a descriptor field by field (its text, tags, SKILL.md folder and examples) and the publisher
// domains. Each error names the field
// ("descriptor.tags[2]: ..."). Built on the store's shared field checks (field_checks.h).
// Private to skill_record.cpp and its tests: nothing else may include it.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_CHECKS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_CHECKS_H_

#include <string>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "transport/result.h"

namespace skillnode::kademlia::store::record_checks {

// Every descriptor field: name, capability type and access; the description (characters and
// bytes); the schemas; tags; the SKILL.md folder's fields (all or nothing beside
// skill_md_sha256); the examples (text ones or, when any is an object, all as JSON text).
[[nodiscard]] transport::Result<void> CheckDescriptor(const SkillDescriptor& descriptor);
// The publisher domains a record claims: at most kPublisherDomainsMax, each IsDomainName
// (record_origin.h), none listed twice.
[[nodiscard]] transport::Result<void> CheckDomains(const std::vector<std::string>& domains);

}  // namespace skillnode::kademlia::store::record_checks

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_CHECKS_H_

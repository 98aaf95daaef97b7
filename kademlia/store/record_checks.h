// The field checks ValidateRecord (kademlia/store/skill_record.h) is made of: text and lists
// against their limits and the seed's text format, a descriptor field by field (its text, tags,
// SKILL.md folder and examples). Each error names the field ("descriptor.tags[2]: ...").
// Private to skill_record.cpp and its tests: nothing else may include it.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_CHECKS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_CHECKS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/store/skill_record.h"
#include "transport/result.h"

namespace skillnode::kademlia::store::record_checks {

// An error of kInvalidArgument: "<field>: <reason>".
tl::unexpected<transport::Error> Invalid(std::string_view field, const std::string& reason);

// Characters in `text` as UTF-8 counts them: every byte that does not continue a sequence
// (0b10xxxxxx). Text that is not UTF-8 counts one character per such byte.
size_t CharacterCount(std::string_view text);

// `text` at most `max` bytes (and non-empty when `required`), without the seed's separators
// (';', ',', '|') or control characters unless `separators_allowed`.
[[nodiscard]] transport::Result<void> CheckText(std::string_view field, std::string_view text,
                                                size_t max, bool required,
                                                bool separators_allowed = false);
// At most `count_max` entries, each as CheckText (required) and none listed twice.
[[nodiscard]] transport::Result<void> CheckList(std::string_view field,
                                                const std::vector<std::string>& items,
                                                size_t count_max, size_t length_max,
                                                bool separators_allowed = false);
// Every descriptor field: name, capability type and access; the description (characters and
// bytes); the schemas; tags; the SKILL.md folder's fields (all or nothing beside
// skill_md_sha256); the examples (text ones or, when any is an object, all as JSON text).
[[nodiscard]] transport::Result<void> CheckDescriptor(const SkillDescriptor& descriptor);
// The publisher domains a record claims: at most kPublisherDomainsMax, each IsDomainName
// (record_origin.h), none listed twice.
[[nodiscard]] transport::Result<void> CheckDomains(const std::vector<std::string>& domains);

}  // namespace skillnode::kademlia::store::record_checks

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_CHECKS_H_

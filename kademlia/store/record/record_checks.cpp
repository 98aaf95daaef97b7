// The field checks of ValidateRecord (record_checks.h).
#include "kademlia/store/record/record_checks.h"

#include <algorithm>
#include <tuple>

#include "kademlia/store/record/field_checks.h"

namespace skillnode::kademlia::store::record_checks {
namespace {

using field_checks::CharacterCount;
using field_checks::CheckList;
using field_checks::CheckText;
using field_checks::Count;
using field_checks::Invalid;

// The SKILL.md folder's fields: all or nothing beside skill_md_sha256, sizes within the limits.
transport::Result<void> CheckFolder(const SkillDescriptor& d) {
  if (!d.archive_sha256) {
    if (d.skill_md_size != 0 || d.archive_size != 0) {
      return Invalid("descriptor.archive_sha256", "is required with skill_md_size or archive_size");
    }
    return {};
  }
  if (!d.skill_md_sha256) {
    return Invalid("descriptor.skill_md_sha256", "is required with archive_sha256");
  }
  if (d.skill_md_size == 0 || d.skill_md_size > kSkillMdBytesMax) {
    return Invalid("descriptor.skill_md_size", std::to_string(d.skill_md_size) +
                                                   " bytes is outside 1.." +
                                                   std::to_string(kSkillMdBytesMax));
  }
  if (d.archive_size <= d.skill_md_size || d.archive_size > kSkillArchiveBytesMax) {
    return Invalid("descriptor.archive_size",
                   std::to_string(d.archive_size) + " bytes is outside " +
                       std::to_string(d.skill_md_size + 1) + ".." +
                       std::to_string(kSkillArchiveBytesMax) + " (it holds SKILL.md)");
  }
  return {};
}

// Examples in JSON form: each a JSON object or string (the discovery layer checks the JSON
// itself; a holder only its shape), at least one an object (text alone is `examples`' form, so
// that a descriptor has one encoding), none twice.
transport::Result<void> CheckExamplesJson(const SkillDescriptor& d) {
  if (!d.examples.empty()) {
    return Invalid("descriptor.examples",
                   "text examples and JSON examples are both set; with an object among them, "
                   "every example is JSON text");
  }
  if (d.examples_json.size() > kExamplesMax) {
    return Invalid("descriptor.examples", "has " + Count(d.examples_json.size(), "entries") +
                                              ", more than " + std::to_string(kExamplesMax));
  }
  bool any_object = false;
  for (size_t i = 0; i < d.examples_json.size(); ++i) {
    const std::string& text = d.examples_json[i];
    const std::string field = "descriptor.examples[" + std::to_string(i) + "]";
    if (text.size() > kExampleLengthMax) {
      return Invalid(field, "is " + Count(text.size(), "bytes") + " as compact JSON, more than " +
                                std::to_string(kExampleLengthMax));
    }
    const bool object = text.size() >= 2 && text.front() == '{' && text.back() == '}';
    const bool string = text.size() >= 3 && text.front() == '"' && text.back() == '"';
    if (!object && !string) return Invalid(field, "is not a JSON object or a non-empty string");
    any_object = any_object || object;
    if (std::find(d.examples_json.begin(), d.examples_json.begin() + static_cast<long>(i), text) !=
        d.examples_json.begin() + static_cast<long>(i)) {
      return Invalid(field, "is listed twice");
    }
  }
  if (!any_object) {
    return Invalid("descriptor.examples",
                   "JSON examples without an object belong in the text form");
  }
  return {};
}

}  // namespace

transport::Result<void> CheckDescriptor(const SkillDescriptor& d) {
  for (auto [field, text, max] :
       {std::tuple{"descriptor.name", &d.name, kTitleLengthMax},
        {"descriptor.capability_type", &d.capability_type, kTitleLengthMax},
        {"descriptor.access", &d.access, kTitleLengthMax}}) {
    if (auto ok = CheckText(field, *text, max, false); !ok) return ok;
  }
  // The Agent Skills format counts a description in characters; a record also bounds its bytes.
  if (const size_t characters = CharacterCount(d.description);
      characters > kDescriptionLengthMax || d.description.size() > kDescriptionBytesMax) {
    return Invalid("descriptor.description",
                   "is " + Count(characters, "characters") + " (" +
                       Count(d.description.size(), "bytes") + "), more than " +
                       std::to_string(kDescriptionLengthMax) + " characters or " +
                       std::to_string(kDescriptionBytesMax) + " bytes");
  }
  // Free text may hold separators: it never travels in the seed's text messages.
  for (auto [field, text] : {std::pair{"descriptor.input_schema", &d.input_schema},
                             {"descriptor.output_schema", &d.output_schema}}) {
    if (text->size() > kSchemaLengthMax) {
      return Invalid(field, "is " + Count(text->size(), "characters") + ", more than " +
                                std::to_string(kSchemaLengthMax));
    }
  }
  if (auto ok = CheckList("descriptor.tags", d.tags, kTagsMax, kNameLengthMax); !ok) return ok;
  if (auto ok = CheckFolder(d); !ok) return ok;
  if (!d.examples_json.empty()) return CheckExamplesJson(d);
  return CheckList("descriptor.examples", d.examples, kExamplesMax, kExampleLengthMax, true);
}

transport::Result<void> CheckDomains(const std::vector<std::string>& domains) {
  if (auto ok =
          CheckList("publisherDomains", domains, kPublisherDomainsMax, kPublisherDomainLengthMax);
      !ok) {
    return ok;
  }
  for (size_t i = 0; i < domains.size(); ++i) {
    if (!IsDomainName(domains[i])) {
      return Invalid("publisherDomains[" + std::to_string(i) + "]",
                     "'" + domains[i] +
                         "' is not a DNS name (two or more labels of lowercase letters, digits "
                         "and hyphens, not an address)");
    }
  }
  return {};
}

}  // namespace skillnode::kademlia::store::record_checks

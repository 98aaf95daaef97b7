// The fields of a skill that word search reads — name, description, capabilities, tags and
// scenes — as text (SkillText, filled by the caller from whatever record type it holds), as
// analysed terms (FieldedTerms), and a weight per field (FieldWeights). Shared by TermExtractor
// (what a record is indexed under) and Bm25 (how a fetched record ranks), so both see a record
// the same way. Plain values; no ownership.
#ifndef SKILLNODE_DISCOVERY_TEXT_SKILL_FIELDS_H_
#define SKILLNODE_DISCOVERY_TEXT_SKILL_FIELDS_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skillnode::discovery::text {

class Analyzer;

enum class Field { kName, kDescription, kCapabilities, kTags, kScenes };
inline constexpr size_t kFieldCount = 5;
inline constexpr std::array<Field, kFieldCount> kFields = {
    Field::kName, Field::kDescription, Field::kCapabilities, Field::kTags, Field::kScenes};

std::string_view FieldName(Field field);  // "name", "description", ...

template <typename T>
using PerField = std::array<T, kFieldCount>;  // indexed by static_cast<size_t>(Field)

inline constexpr size_t Index(Field field) { return static_cast<size_t>(field); }

// A skill's searchable text. Each capability, tag and scene is analysed on its own.
struct SkillText {
  std::string name;
  std::string description;
  std::vector<std::string> capabilities;
  std::vector<std::string> tags;
  std::vector<std::string> scenes;
};

// The analysed terms of each field, in order, repeats included; a field's length is its number
// of terms.
struct FieldedTerms {
  PerField<std::vector<std::string>> fields;

  const std::vector<std::string>& of(Field field) const { return fields[Index(field)]; }
  bool operator==(const FieldedTerms&) const = default;
};

// A weight per field: how much a term there says about the skill. The name and the
// capabilities say the most; the description, long and loose, the least.
struct FieldWeights {
  double name = 3.0;
  double description = 1.0;
  double capabilities = 3.0;
  double tags = 2.0;
  double scenes = 1.5;

  double Of(Field field) const;
  bool operator==(const FieldWeights&) const = default;
};

// `skill`'s fields through `analyzer` (discovery/text/analyzer.h).
FieldedTerms AnalyzeSkill(Analyzer& analyzer, const SkillText& skill);

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_SKILL_FIELDS_H_

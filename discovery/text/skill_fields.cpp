// The searchable fields of a skill: names, weights and analysis.
#include "discovery/text/skill_fields.h"

#include <cassert>

#include "discovery/text/analyzer.h"

namespace skillnode::discovery::text {
namespace {

void Append(std::vector<std::string>& terms, std::vector<std::string> more) {
  for (std::string& term : more) terms.push_back(std::move(term));
}

}  // namespace

std::string_view FieldName(Field field) {
  switch (field) {
    case Field::kName:
      return "name";
    case Field::kDescription:
      return "description";
    case Field::kCapabilities:
      return "capabilities";
    case Field::kTags:
      return "tags";
    case Field::kScenes:
      return "scenes";
  }
  assert(false);
  return "";
}

double FieldWeights::Of(Field field) const {
  switch (field) {
    case Field::kName:
      return name;
    case Field::kDescription:
      return description;
    case Field::kCapabilities:
      return capabilities;
    case Field::kTags:
      return tags;
    case Field::kScenes:
      return scenes;
  }
  assert(false);
  return 0;
}

FieldedTerms AnalyzeSkill(Analyzer& analyzer, const SkillText& skill) {
  FieldedTerms terms;
  terms.fields[Index(Field::kName)] = analyzer.Analyze(skill.name);
  terms.fields[Index(Field::kDescription)] = analyzer.Analyze(skill.description);
  for (const std::string& value : skill.capabilities) {
    Append(terms.fields[Index(Field::kCapabilities)], analyzer.Analyze(value));
  }
  for (const std::string& value : skill.tags) {
    Append(terms.fields[Index(Field::kTags)], analyzer.Analyze(value));
  }
  for (const std::string& value : skill.scenes) {
    Append(terms.fields[Index(Field::kScenes)], analyzer.Analyze(value));
  }
  return terms;
}

}  // namespace skillnode::discovery::text

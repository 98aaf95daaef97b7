// AgentSkill mapping (a2a_skill.h).
#include "node/formats/a2a/a2a_skill.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "discovery/query.h"
#include "node/jose/jcs.h"

namespace skillnode::node::formats::a2a {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

bool Blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

json Tags(const SkillRecord& record) {
  std::vector<std::string> tags;
  const auto add = [&tags](const std::string& tag) {
    if (!Blank(tag) && std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
  };
  if (record.descriptor) {
    for (const std::string& tag : record.descriptor->tags) add(tag);
  }
  for (const std::string& capability : record.capabilities) add(capability);
  if (tags.empty()) add(discovery::CapabilityTypeOf(record));
  if (tags.empty()) add(record.skill_type);
  if (tags.empty()) add("skill");  // a record from elsewhere that names nothing at all
  return tags;
}

}  // namespace

json A2aSkillJson(const SkillRecord& record) {
  const auto& descriptor = record.descriptor;
  const std::string name =
      descriptor && !Blank(descriptor->name) ? descriptor->name : record.skill_id;
  std::string description;
  if (descriptor && !Blank(descriptor->description)) {
    description = descriptor->description;
  } else {
    const std::string type = discovery::CapabilityTypeOf(record);
    description = "Skill " + record.skill_id + " of agent " + record.agent_id +
                  (Blank(type) ? "" : ", capability type " + type) + ".";
  }
  json skill = {{"id", discovery::IndexId(record)},
                {"name", name},
                {"description", description},
                {"tags", Tags(record)}};
  if (descriptor) {
    json examples = json::array();
    for (const std::string& example : descriptor->examples) {
      if (!Blank(example)) examples.push_back(example);
    }
    if (!examples.empty()) skill["examples"] = std::move(examples);
  }
  return skill;
}

bool ShowableInCard(const SkillRecord& record) {
  std::vector<const std::string*> texts = {&record.agent_id, &record.skill_id, &record.version,
                                           &record.skill_type, &record.endpoint};
  for (const std::string& capability : record.capabilities) texts.push_back(&capability);
  if (const auto& d = record.descriptor) {
    for (const std::string* text : {&d->name, &d->description, &d->capability_type}) {
      texts.push_back(text);
    }
    for (const std::string& tag : d->tags) texts.push_back(&tag);
    for (const std::string& example : d->examples) texts.push_back(&example);
  }
  return std::all_of(texts.begin(), texts.end(), [](const std::string* text) {
    return jose::JsonStringLiteral(*text).has_value();
  });
}

json A2aSkillsJson(const std::vector<SkillRecord>& records) {
  json skills = json::array();
  std::set<std::string> ids;
  for (const SkillRecord& record : records) {
    if (!ids.insert(discovery::IndexId(record)).second) continue;
    skills.push_back(A2aSkillJson(record));
  }
  return skills;
}

}  // namespace skillnode::node::formats::a2a

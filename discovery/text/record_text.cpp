// SkillTextOf: a skill record's searchable fields.
#include "discovery/text/record_text.h"

namespace skillnode::discovery::text {

SkillText SkillTextOf(const kademlia::store::SkillRecord& record) {
  SkillText text;
  if (record.descriptor) {
    text.name = record.descriptor->name;
    text.description = record.descriptor->description;
    text.tags = record.descriptor->tags;
  }
  if (text.name.empty()) text.name = record.skill_id;
  text.capabilities = record.capabilities;
  text.scenes = record.scenes;
  return text;
}

}  // namespace skillnode::discovery::text

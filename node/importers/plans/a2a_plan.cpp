#include "node/importers/plans/a2a_plan.h"

#include <algorithm>
#include <memory>
#include <set>

#include "discovery/skillmd/skill_folder.h"

namespace skillnode::node::importers::plans {
namespace {

using kademlia::store::kIdLengthMax;
using kademlia::store::kNameLengthMax;
using kademlia::store::SkillDescriptor;

// The card's bytes, shared by the plans of all its skills, and the origin they all carry.
struct CardSource {
  std::string agent_id;
  std::string version;
  std::string endpoint;
  kademlia::store::RecordOrigin origin;
  std::shared_ptr<const std::string> bytes;
};

tl::unexpected<transport::Error> Refused(const std::string& message) {
  return transport::Fail(transport::ErrorCode::kInvalidArgument, message);
}

// ImportId(name) + "@" + the host as an id (at most half of kIdLengthMax, so the name keeps at
// least the other half); the name's id alone when the card was read from no host. Empty when
// the name has nothing usable.
std::string AgentIdOf(std::string_view name, std::string_view host) {
  const std::string host_id = ImportId(host, kIdLengthMax / 2);
  const size_t room = host_id.empty() ? kIdLengthMax : kIdLengthMax - host_id.size() - 1;
  const std::string name_id = ImportId(name, room);
  if (name_id.empty() || host_id.empty()) return name_id;
  return name_id + "@" + host_id;
}

// The skill's tags as ids, distinct, at most kCapabilitiesMax; its id when none is usable.
std::vector<std::string> CapabilitiesOf(const documents::A2aSkill& skill,
                                        const std::string& skill_id) {
  std::vector<std::string> out;
  for (const std::string& tag : skill.tags) {
    std::string id = ImportId(tag, kNameLengthMax);
    if (id.empty() || std::find(out.begin(), out.end(), id) != out.end()) continue;
    out.push_back(std::move(id));
    if (out.size() == kademlia::store::kCapabilitiesMax) break;
  }
  if (out.empty()) out.push_back(ImportId(skill_id, kNameLengthMax));
  return out;
}

// An example cut to kExampleLengthMax bytes at a character boundary, with "..." when cut.
std::string FitExample(std::string_view text) {
  if (text.size() <= kademlia::store::kExampleLengthMax) return std::string(text);
  size_t cut = kademlia::store::kExampleLengthMax - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

// Appends `item` unless it is empty, listed already, or `list` holds `count_max`.
void AddDistinct(std::vector<std::string>& list, std::string item, size_t count_max) {
  if (item.empty() || list.size() == count_max) return;
  if (std::find(list.begin(), list.end(), item) != list.end()) return;
  list.push_back(std::move(item));
}

SkillDescriptor DescriptorOf(const documents::A2aSkill& skill, const std::string& skill_id) {
  SkillDescriptor descriptor;
  descriptor.name = FitText(skill.name, kademlia::store::kTitleLengthMax);
  if (descriptor.name.empty()) descriptor.name = skill_id;  // kIdLengthMax <= kTitleLengthMax
  descriptor.description = FitDescription(skill.description);
  for (const std::string& tag : skill.tags) {
    AddDistinct(descriptor.tags, FitText(tag, kNameLengthMax), kademlia::store::kTagsMax);
  }
  for (const std::string& example : skill.examples) {
    AddDistinct(descriptor.examples, FitExample(example), kademlia::store::kExamplesMax);
  }
  return descriptor;
}

// Drops examples from the end while the record encodes past kRecordEncodedSizeMax (a long
// description and eight long examples do).
void FitRecordSize(kademlia::store::SkillRecord& fields) {
  auto& examples = fields.descriptor->examples;
  while (!examples.empty() &&
         kademlia::store::EncodeRecord(fields).size() > kademlia::store::kRecordEncodedSizeMax) {
    examples.pop_back();
  }
}

transport::Result<PlannedSkill> PlanSkill(const documents::A2aSkill& skill, size_t index,
                                          const CardSource& source, std::set<std::string>& ids) {
  PlannedSkill planned;
  planned.entry = "skills[" + std::to_string(index) + "] (" + skill.id + ")";
  auto& f = planned.fields;
  f.skill_id = ImportId(skill.id, kIdLengthMax);
  if (f.skill_id.empty()) {
    return Refused(planned.entry + ": the id has no letters or digits to make a skillId of");
  }
  if (!ids.insert(f.skill_id).second) {
    return Refused(planned.entry + ": another skill of the card has the skillId " + f.skill_id);
  }
  f.agent_id = source.agent_id;
  f.version = source.version;
  f.skill_type = std::string(kademlia::store::kA2aAgentSkillType);
  f.endpoint = source.endpoint;
  f.capabilities = CapabilitiesOf(skill, f.skill_id);
  f.descriptor = DescriptorOf(skill, f.skill_id);
  f.origin = source.origin;
  FitRecordSize(f);
  if (auto ok = CheckRegistrable(f); !ok) {
    return Refused(planned.entry + ": the registry would refuse it: " + ok.error().message);
  }
  planned.bytes.emplace_back(source.origin.document_sha256, source.bytes);
  return planned;
}

}  // namespace

std::vector<transport::Result<PlannedSkill>> PlanA2aCard(const documents::A2aCardDocument& card,
                                                         std::string_view card_bytes,
                                                         const A2aProvenance& provenance) {
  std::vector<transport::Result<PlannedSkill>> out;
  const std::string where = "card \"" + FitText(card.name, kNameLengthMax) + "\"";
  CardSource source;
  source.agent_id = AgentIdOf(card.name, provenance.host);
  if (source.agent_id.empty()) {
    out.push_back(Refused(where + ": its name has no letters or digits to make an agentId of; "
                                  "none of its skills is imported"));
    return out;
  }
  auto version = ImportVersion(card.version);
  if (!version) {
    out.push_back(
        Refused(where + ": " + version.error().message + "; none of its skills is imported"));
    return out;
  }
  source.version = std::move(*version);
  source.endpoint = card.interfaces.empty() ? provenance.card_url : card.interfaces.front().url;
  source.bytes = std::make_shared<const std::string>(card_bytes);
  auto& origin = source.origin;
  origin.format = kademlia::store::OriginFormat::kA2a;
  origin.source_url = provenance.card_url;
  origin.document_sha256 = discovery::skillmd::Sha256Of(card_bytes);
  origin.document_size = card_bytes.size();
  origin.signature = provenance.signature;
  std::set<std::string> ids;
  for (size_t i = 0; i < card.skills.size(); ++i) {
    out.push_back(PlanSkill(card.skills[i], i, source, ids));
  }
  return out;
}

}  // namespace skillnode::node::importers::plans

#include "node/formats/catalogs/agent_skills_index.h"

#include <cassert>
#include <map>

#include "discovery/query.h"
#include "kademlia/wire/encoding.h"
#include "node/http/http_message.h"

namespace skillnode::node::formats::catalogs {
namespace {

using kademlia::store::SkillRecord;

std::optional<discovery::SemVer> SemverOf(const std::string& version) {
  auto parsed = discovery::SemVer::Parse(version);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

bool Listable(const SkillRecord& record) {
  return !record.tombstone && record.descriptor && record.descriptor->skill_md_sha256 &&
         !record.descriptor->description.empty() && SkillNameOf(record).has_value();
}

}  // namespace

bool IsSkillName(std::string_view name) {
  if (name.empty() || name.size() > kSkillNameLengthMax) return false;
  if (name.front() == '-' || name.back() == '-') return false;
  if (name.find("--") != std::string_view::npos) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

std::optional<std::string> SkillNameOf(const SkillRecord& record) {
  if (record.descriptor && IsSkillName(record.descriptor->name)) return record.descriptor->name;
  if (IsSkillName(record.skill_id)) return record.skill_id;
  return std::nullopt;
}

std::string DigestText(const std::array<uint8_t, 32>& sha256) {
  return "sha256:" + kademlia::wire::HexEncode(sha256);
}

std::string SkillMdUrl(const std::string& base, const SkillRecord& record) {
  return base + "/api/skills/" + http::PercentEncode(record.skill_id) +
         "/skill.md?agentId=" + http::PercentEncode(record.agent_id);
}

std::vector<const ListedRecord*> IndexedSkills(const std::vector<ListedRecord>& records) {
  struct Best {
    const ListedRecord* listed = nullptr;
    std::optional<discovery::SemVer> version;
  };
  std::map<std::string, Best> by_name;
  for (const ListedRecord& listed : records) {
    if (!Listable(listed.record)) continue;
    Best candidate{&listed, SemverOf(listed.record.version)};
    auto [it, added] = by_name.try_emplace(*SkillNameOf(listed.record), candidate);
    if (!added && discovery::RankedBefore(listed.record, candidate.version,
                                          it->second.listed->record, it->second.version)) {
      it->second = std::move(candidate);
    }
  }
  std::vector<const ListedRecord*> out;
  out.reserve(by_name.size());
  for (const auto& [name, best] : by_name) out.push_back(best.listed);
  return out;
}

nlohmann::json SkillIndexEntryJson(const ListedRecord& listed, const std::string& base) {
  const SkillRecord& record = listed.record;
  assert(Listable(record));
  return {{"name", *SkillNameOf(record)},
          {"type", "skill-md"},
          {"description", record.descriptor->description},
          {"url", SkillMdUrl(base, record)},
          {"digest", DigestText(*record.descriptor->skill_md_sha256)}};
}

nlohmann::json SkillIndexJson(const std::vector<ListedRecord>& records, const std::string& base) {
  nlohmann::json skills = nlohmann::json::array();
  for (const ListedRecord* listed : IndexedSkills(records)) {
    skills.push_back(SkillIndexEntryJson(*listed, base));
  }
  return {{"$schema", kAgentSkillsSchemaUrl}, {"skills", std::move(skills)}};
}

}  // namespace skillnode::node::formats::catalogs

// SkillEntry: one version of a skill record, immutable once made and shared by pointer between
// the registry, the query cache and search answers, with what every answer derives from it
// computed once: its parsed version (for ranking) and its JSON form (SkillJson).
//
// A search touches hundreds of records and answers with a page of them; copying each record
// into every stage, re-parsing its version for every comparison and building a JSON tree for
// every answer cost more than the search itself. An entry is made when a version of a record
// first reaches the registry or a search, and every later reader shares it.
//
// The JSON text is made on first use and kept (the entry is otherwise immutable); loop thread
// only, like everything that holds entries.
#ifndef SKILLNODE_DISCOVERY_SKILL_ENTRY_H_
#define SKILLNODE_DISCOVERY_SKILL_ENTRY_H_

#include <memory>
#include <optional>
#include <string>

#include "discovery/semver.h"
#include "discovery/skill_json.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery {

class SkillEntry;
using SkillEntryPtr = std::shared_ptr<const SkillEntry>;

class SkillEntry {
 public:
  static SkillEntryPtr Make(kademlia::store::SkillRecord record);

  const kademlia::store::SkillRecord& record() const { return record_; }
  // The record's version parsed, or nullopt when it is not semver.
  const std::optional<SemVer>& version() const { return version_; }

  // Appends SkillJson(record(), source), serialised: the same bytes as its dump().
  void AppendJson(std::string& out, Source source) const;

  explicit SkillEntry(kademlia::store::SkillRecord record);

 private:
  kademlia::store::SkillRecord record_;
  std::optional<SemVer> version_;
  // SkillJson's text split around the source's value; empty until first used.
  mutable std::string json_before_source_;
  mutable std::string json_after_source_;
};

// Best first: Rank()'s order (query.h), with the versions parsed once per entry.
bool RanksBefore(const SkillEntry& a, const SkillEntry& b);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SKILL_ENTRY_H_

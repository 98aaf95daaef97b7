// SkillEntry: one version of a skill record, immutable once made and shared by pointer between
// the registry, the query cache and search answers, with what every answer derives from it
// computed once: its parsed version (for ranking), its JSON form (SkillJson) and its words
// (the distinct terms a word search's text is matched against).
//
// A search touches hundreds of records and answers with a page of them; copying each record
// into every stage, re-parsing its version for every comparison and building a JSON tree for
// every answer cost more than the search itself. An entry is made when a version of a record
// first reaches the registry or a search, and every later reader shares it.
//
// The JSON text and the words are made on first use and kept (the entry is otherwise
// immutable): a search's local stage matches its text against every skill registered here, and
// analysing 20,000 skills' text again per search took about 110 ms. Loop thread only, like
// everything that holds entries.
#ifndef SKILLNODE_DISCOVERY_SKILL_ENTRY_H_
#define SKILLNODE_DISCOVERY_SKILL_ENTRY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "discovery/semver.h"
#include "discovery/skill_json.h"
#include "discovery/text/analyzer.h"
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
  // The record's words as `analyzer` makes them (text::DistinctTerms of AnalyzeSkill over
  // SkillTextOf: sorted, distinct); analysed once per entry, again only for another language.
  const std::vector<std::string>& Words(text::Analyzer& analyzer) const;

  explicit SkillEntry(kademlia::store::SkillRecord record);

 private:
  kademlia::store::SkillRecord record_;
  std::optional<SemVer> version_;
  // SkillJson's text split around the source's value; empty until first used.
  mutable std::string json_before_source_;
  mutable std::string json_after_source_;
  // Words() for the analyzer language named; nullopt until first used.
  mutable std::optional<std::string> words_language_;
  mutable std::vector<std::string> words_;
};

// Best first: Rank()'s order (query.h), with the versions parsed once per entry.
bool RanksBefore(const SkillEntry& a, const SkillEntry& b);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SKILL_ENTRY_H_

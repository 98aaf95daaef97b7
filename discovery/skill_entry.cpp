#include "discovery/skill_entry.h"

#include <utility>

#include "discovery/query.h"
#include "discovery/text/query_terms.h"
#include "discovery/text/record_text.h"
#include "discovery/text/skill_fields.h"

namespace skillnode::discovery {
namespace {

// Stands in for the source while the JSON text is made, then marks where to split it. Not a
// character any record can hold in that place: the value is written by this code only.
constexpr std::string_view kSourceMark = "\x01source\x01";

}  // namespace

SkillEntryPtr SkillEntry::Make(kademlia::store::SkillRecord record) {
  return std::make_shared<const SkillEntry>(std::move(record));
}

SkillEntry::SkillEntry(kademlia::store::SkillRecord record) : record_(std::move(record)) {
  if (auto parsed = SemVer::Parse(record_.version)) version_ = std::move(*parsed);
}

const std::vector<std::string>& SkillEntry::Words(text::Analyzer& analyzer) const {
  if (words_language_ != analyzer.language()) {
    words_ = text::DistinctTerms(text::AnalyzeSkill(analyzer, text::SkillTextOf(record_)));
    words_language_ = analyzer.language();
  }
  return words_;
}

void SkillEntry::AppendJson(std::string& out, Source source) const {
  if (json_before_source_.empty()) {
    nlohmann::json json = SkillJson(record_, Source::kLocal);
    json["source"] = std::string(kSourceMark);
    // The mark serialises escaped (\u0001), so look for that form.
    const std::string text = json.dump();
    const std::string mark = nlohmann::json(std::string(kSourceMark)).dump();
    const size_t at = text.find(mark);
    // The mark's quotes stay outside the split, around the source's name.
    json_before_source_ = text.substr(0, at + 1);
    json_after_source_ = text.substr(at + mark.size() - 1);
  }
  out += json_before_source_;
  out += SourceName(source);
  out += json_after_source_;
}

bool RanksBefore(const SkillEntry& a, const SkillEntry& b) {
  return RankedBefore(a.record(), a.version(), b.record(), b.version());
}

}  // namespace skillnode::discovery

// VocabularyFeed: the vocabularies of terms and of surface words, fed once per record version.
#include "discovery/search/words/vocabulary_feed.h"

#include <sodium.h>

#include <algorithm>
#include <cassert>
#include <cstring>

#include "discovery/text/record_text.h"

namespace skillnode::discovery::search {
namespace {

text::Analyzer DefaultAnalyzer() {
  transport::Result<text::Analyzer> analyzer = text::Analyzer::Create();
  assert(analyzer.has_value());  // the default language is always there
  return std::move(*analyzer);
}

// Each field's words, as AnalyzeSkill analyses them: each capability, tag and scene on its own.
std::vector<text::AnalyzedWord> WordsOf(text::Analyzer& analyzer, const text::SkillText& skill) {
  std::vector<text::AnalyzedWord> words = analyzer.AnalyzeWords(skill.name);
  auto add = [&](std::string_view text) {
    std::vector<text::AnalyzedWord> more = analyzer.AnalyzeWords(text);
    words.insert(words.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
  };
  add(skill.description);
  for (const std::vector<std::string>* list : {&skill.capabilities, &skill.tags, &skill.scenes}) {
    for (const std::string& text : *list) add(text);
  }
  return words;
}

void SortUnique(std::vector<std::string>& strings) {
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
}

}  // namespace

VocabularyFeed::VocabularyFeed(VocabularyLimits limits)
    : limits_(limits),
      analyzer_(DefaultAnalyzer()),
      terms_(limits.terms_max),
      words_(limits.words_max) {
  randombytes_buf(hash_key_.data(), hash_key_.size());
}

uint64_t VocabularyFeed::DigestOf(const kademlia::store::SkillRecord& record) const {
  // Each string with its length before it, so that no two identities hash the same bytes.
  std::vector<uint8_t> bytes;
  bytes.reserve(record.publisher.size() + record.agent_id.size() + record.skill_id.size() + 24);
  const auto append = [&bytes](const void* data, size_t size) {
    const auto* begin = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), begin, begin + size);
  };
  append(record.publisher.data(), record.publisher.size());
  for (const std::string* text : {&record.agent_id, &record.skill_id}) {
    const uint64_t size = text->size();
    append(&size, sizeof size);
    append(text->data(), text->size());
  }
  append(&record.sequence, sizeof record.sequence);
  return kademlia::SipHash(bytes, hash_key_);
}

bool VocabularyFeed::Noted(const kademlia::store::SkillRecord& record) const {
  return noted_.Find(DigestOf(record)) != decltype(noted_)::kNone;
}

void VocabularyFeed::NoteRecord(const kademlia::store::SkillRecord& record) {
  if (record.tombstone) return;
  const uint64_t version = DigestOf(record);
  if (noted_.Find(version) != decltype(noted_)::kNone) return;
  if (noted_.size() >= limits_.records_max && !noted_.empty()) noted_.Erase(noted_.oldest());
  noted_.Emplace(version);
  std::vector<std::string> terms;
  std::vector<std::string> words;
  for (text::AnalyzedWord& word : WordsOf(analyzer_, text::SkillTextOf(record))) {
    terms.push_back(std::move(word.term));
    words.push_back(std::move(word.surface));
  }
  SortUnique(terms);
  SortUnique(words);
  for (const std::string& term : terms) terms_.Note(term);
  for (const std::string& word : words) words_.Note(word);
}

void VocabularyFeed::NoteIndexed(std::string_view term) { terms_.Note(term); }

void VocabularyFeed::NoteRegistry(const Registry& registry) {
  if (registry_noted_) return;
  for (const SkillEntryPtr& entry : registry.FindEntries(SkillQuery{})) NoteRecord(entry->record());
  registry_noted_ = true;
}

std::vector<std::string> VocabularyFeed::WordCorrections(std::string_view word, size_t n) {
  return StemsOf(words_.Correct(word, n * VocabularyLimits::kWordsReadPerStem), StemOf(word), n);
}

std::vector<std::string> VocabularyFeed::WordCompletions(std::string_view prefix, size_t n) {
  return StemsOf(words_.Complete(prefix, n * VocabularyLimits::kWordsReadPerStem), StemOf(prefix),
                 n);
}

std::vector<std::string> VocabularyFeed::StemsOf(const std::vector<std::string>& found,
                                                 std::string_view except, size_t n) {
  std::vector<std::string> stems;
  for (const std::string& word : found) {
    if (stems.size() >= n) break;
    std::string stem = StemOf(word);
    if (stem.empty() || stem == except) continue;
    if (std::find(stems.begin(), stems.end(), stem) == stems.end()) stems.push_back(stem);
  }
  return stems;
}

std::string VocabularyFeed::StemOf(std::string_view word) {
  std::vector<std::string> terms = analyzer_.Analyze(word);
  return terms.size() == 1 ? std::move(terms.front()) : std::string();
}

}  // namespace skillnode::discovery::search

// WordSearchWorld: a WordSearch over fake sources (word_fakes.h), as the word search's tests
// drive it: skills published into a fake keyword index and record store, searched by text.
#ifndef SKILLNODE_TESTS_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_WORLD_H_
#define SKILLNODE_TESTS_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_WORLD_H_

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/search/word_fakes.h"
#include "discovery/search/words/word_search.h"
#include "support/records.h"

namespace skillnode::discovery::search::testing {

using Strings = std::vector<std::string>;

// A skill of agent-001 named `name`, described by `description`, with no capability or scene.
inline kademlia::store::SkillRecord Skill(const std::string& skill, const std::string& name,
                                          const std::string& description = {}) {
  kademlia::store::SkillRecord r = skillnode::testing::SampleRecord("agent-001", skill);
  r.capabilities = {};
  r.scenes = {};
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  r.descriptor->description = description;
  r.publisher = skillnode::testing::Publisher().public_key();
  return r;
}

struct WordSearchWorld {
  FakeTermSource terms;
  FakeRecordSource records;
  VocabularyFeed vocabulary;
  WordSearchConfig config;

  void Publish(const kademlia::store::SkillRecord& record) {
    terms.Index(record);
    records.Put(record);
  }
  WordAnswer Search(const std::string& text, SkillQuery query = {}) {
    WordSearch search(terms, records, vocabulary, config);
    query.text = text;
    WordAnswer answer;
    bool called = false;
    search.Search(transport::kTimeZero, query, [&](transport::TimePoint, WordAnswer a) {
      called = true;
      answer = std::move(a);
    });
    REQUIRE(called);
    return answer;
  }
};

// The skill ids of an answer's hits, in rank order.
inline Strings Ids(const WordAnswer& answer) {
  Strings out;
  for (const ScoredEntry& hit : answer.hits) out.push_back(hit.entry->record().skill_id);
  return out;
}

}  // namespace skillnode::discovery::search::testing

#endif  // SKILLNODE_TESTS_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_WORLD_H_

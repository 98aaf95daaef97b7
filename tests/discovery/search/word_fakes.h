// Fake TermSource and RecordSource for WordSearch and Searcher tests: an in-memory keyword index
// and record store, answering at once or, when held, when the test releases them.
#ifndef SKILLNODE_TESTS_DISCOVERY_SEARCH_WORD_FAKES_H_
#define SKILLNODE_TESTS_DISCOVERY_SEARCH_WORD_FAKES_H_

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/search/words/word_sources.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/record_text.h"
#include "discovery/text/term_extractor.h"

namespace skillnode::discovery::search {

// A record's pointer for `term`, with `weight` (as TermExtractor weighs it).
inline kademlia::store::TermPointer PointerOf(const kademlia::store::SkillRecord& record,
                                              const std::string& term, double weight) {
  kademlia::store::TermPointer p;
  p.term = term;
  p.record_key = kademlia::store::SkillKey(record.skill_id);
  p.agent_id = record.agent_id;
  p.skill_id = record.skill_id;
  p.weight_centi = static_cast<uint32_t>(weight * 100);
  p.timestamp_ms = record.timestamp_ms;
  p.sequence = record.sequence;
  p.ttl_seconds = record.ttl_seconds;
  p.publisher = record.publisher;
  return p;
}

class FakeTermSource : public TermSource {
 public:
  struct Call {
    std::string term;
    size_t wanted;
    std::vector<uint16_t> with_terms;
  };

  // Indexes `record` under every term TermExtractor gives it, each pointer with the profile of
  // them all, as a publisher does.
  void Index(const kademlia::store::SkillRecord& record) {
    text::Analyzer analyzer = text::Analyzer::Create().value();
    const std::vector<text::WeightedTerm> terms =
        text::TermExtractor().Extract(analyzer, text::SkillTextOf(record));
    std::vector<std::pair<std::string_view, uint32_t>> profiled;
    for (const text::WeightedTerm& t : terms) {
      if (profiled.size() == kademlia::store::kTermProfileTermsMax) break;
      profiled.emplace_back(t.term, static_cast<uint32_t>(t.weight * 100));
    }
    const kademlia::store::TermProfile profile = kademlia::store::TermProfile::Of(profiled);
    for (const text::WeightedTerm& t : terms) {
      kademlia::store::TermPointer pointer = PointerOf(record, t.term, t.weight);
      pointer.terms = profile;
      Add(std::move(pointer));
    }
  }
  void Add(kademlia::store::TermPointer pointer) {
    std::vector<kademlia::store::TermPointer>& list = index_[pointer.term];
    list.push_back(std::move(pointer));
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.weight_centi > b.weight_centi; });
  }
  // The count shard 0 reports for `term`, when more than its pointers (a hot term).
  void SetCount(const std::string& term, uint64_t count) { counts_[term] = count; }
  void FailAll() { fail_ = true; }

  void ReadTerm(transport::TimePoint now, const std::string& term, size_t wanted,
                const std::vector<uint16_t>& with_terms, Callback done) override {
    calls.push_back(Call{term, wanted, with_terms});
    TermReading reading;
    reading.failed = fail_;
    if (!fail_) {
      const auto it = index_.find(term);
      const size_t held = it == index_.end() ? 0 : it->second.size();
      // As holders filter: a live pointer passes when its profile holds every hash.
      std::vector<kademlia::store::TermPointer> passing;
      if (it != index_.end()) {
        for (const kademlia::store::TermPointer& pointer : it->second) {
          if (pointer.tombstone || pointer.terms.HoldsAll(with_terms)) passing.push_back(pointer);
        }
      }
      reading.pointers.assign(passing.begin(), passing.begin() + static_cast<ptrdiff_t>(std::min(
                                                                     passing.size(), wanted)));
      const auto count = counts_.find(term);
      reading.count = count != counts_.end() ? count->second : held;
      // A hot term's count (SetCount) is more than the fake holds: never read to its end.
      reading.complete = reading.count == held && reading.pointers.size() == passing.size();
    }
    done(now, std::move(reading));
  }

  std::vector<Call> calls;

 private:
  std::map<std::string, std::vector<kademlia::store::TermPointer>> index_;
  std::map<std::string, uint64_t> counts_;
  bool fail_ = false;
};

class FakeRecordSource : public RecordSource {
 public:
  void Put(const kademlia::store::SkillRecord& record) {
    auto signed_record = std::make_shared<kademlia::store::SignedRecord>();
    signed_record->record = record;
    records_[kademlia::store::SkillKey(record.skill_id)].push_back(std::move(signed_record));
  }
  // Holds the answers until Release() when set.
  void Hold(bool hold) { hold_ = hold; }
  size_t held() const { return held_.size(); }
  // Answers the oldest get held.
  void Release(transport::TimePoint now) {
    std::function<void(transport::TimePoint)> next = std::move(held_.front());
    held_.erase(held_.begin());
    next(now);
  }

  void GetRecords(transport::TimePoint now, const kademlia::Key& key, Callback done) override {
    ++gets;
    std::vector<kademlia::store::SignedRecordPtr> found;
    if (const auto it = records_.find(key); it != records_.end()) {
      found.assign(it->second.begin(), it->second.end());
    }
    if (!hold_) {
      done(now, std::move(found), false);
      return;
    }
    held_.push_back([done = std::move(done), found = std::move(found)](transport::TimePoint at) {
      done(at, found, false);
    });
    max_held = std::max(max_held, held_.size());
  }

  size_t gets = 0;
  size_t max_held = 0;

 private:
  std::map<kademlia::Key, std::vector<kademlia::store::SignedRecordPtr>> records_;
  std::vector<std::function<void(transport::TimePoint)>> held_;
  bool hold_ = false;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_TESTS_DISCOVERY_SEARCH_WORD_FAKES_H_

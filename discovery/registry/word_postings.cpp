// WordPostings (discovery/registry/word_postings.h): registrations by their words, and the
// candidates of a search's text read from the postings of its most selective term.
#include "discovery/registry/word_postings.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace skillnode::discovery {

WordPostings::WordPostings(size_t prefix_words_read_max)
    : prefix_words_read_max_(prefix_words_read_max) {}

void WordPostings::Add(Slot slot, std::span<const std::string> words) {
  assert(slot != nullptr);
  for (const std::string& word : words) {
    std::vector<Slot>& list = postings_[word];
    const auto at = std::lower_bound(list.begin(), list.end(), slot, std::less<>());
    assert(at == list.end() || *at != slot);  // distinct words, added once
    list.insert(at, slot);
    ++postings_count_;
  }
}

void WordPostings::Remove(Slot slot, std::span<const std::string> words) {
  assert(slot != nullptr);
  for (const std::string& word : words) {
    const auto found = postings_.find(word);
    assert(found != postings_.end());
    if (found == postings_.end()) continue;
    std::vector<Slot>& list = found->second;
    const auto at = std::lower_bound(list.begin(), list.end(), slot, std::less<>());
    assert(at != list.end() && *at == slot);  // removed with the words it was added with
    if (at == list.end() || *at != slot) continue;
    list.erase(at);
    --postings_count_;
    if (list.empty()) postings_.erase(found);
  }
}

std::optional<std::vector<const std::vector<WordPostings::Slot>*>> WordPostings::ListsOf(
    const text::QueryTerms& terms, size_t i) const {
  std::vector<const std::vector<Slot>*> lists;
  auto add = [this, &lists](std::string_view word) {
    if (const auto found = postings_.find(word); found != postings_.end()) {
      lists.push_back(&found->second);
    }
  };
  const std::string& term = terms.terms()[i];
  add(term);
  for (const std::string& alternative : terms.alternatives(i)) add(alternative);
  if (terms.IsPrefix(i)) {
    size_t read = 0;
    for (auto it = postings_.lower_bound(term);
         it != postings_.end() && std::string_view(it->first).starts_with(term); ++it) {
      if (++read > prefix_words_read_max_) return std::nullopt;
      lists.push_back(&it->second);
    }
  }
  // The term itself and alternatives it begins are also in the prefix range: read each once.
  std::sort(lists.begin(), lists.end());
  lists.erase(std::unique(lists.begin(), lists.end()), lists.end());
  return lists;
}

std::optional<std::vector<WordPostings::Slot>> WordPostings::Candidates(
    const text::QueryTerms& terms) const {
  std::optional<std::vector<const std::vector<Slot>*>> best;
  size_t best_count = std::numeric_limits<size_t>::max();
  for (size_t i = 0; i < terms.size(); ++i) {
    std::optional<std::vector<const std::vector<Slot>*>> lists = ListsOf(terms, i);
    if (!lists) continue;
    size_t count = 0;
    for (const std::vector<Slot>* list : *lists) count += list->size();
    if (count < best_count) {
      best_count = count;
      best = std::move(lists);
    }
    if (best_count == 0) break;
  }
  if (!best) return std::nullopt;
  std::vector<Slot> out;
  out.reserve(best_count);
  for (const std::vector<Slot>* list : *best) out.insert(out.end(), list->begin(), list->end());
  if (best->size() > 1) {
    std::sort(out.begin(), out.end(), std::less<>());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

}  // namespace skillnode::discovery

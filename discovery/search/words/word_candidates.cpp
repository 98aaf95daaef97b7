// WordCandidates: the records term pointers lead to, best first.
#include "discovery/search/words/word_candidates.h"

#include <algorithm>
#include <cassert>

namespace skillnode::discovery::search {

WordCandidates::WordCandidates(size_t terms, double k1)
    : terms_(terms), k1_(k1), closed_(terms, false) {
  assert(k1 > 0);
}

void WordCandidates::Close(size_t term) {
  assert(term < terms_);
  closed_[term] = true;
}

void WordCandidates::Add(size_t term, std::span<const kademlia::store::TermPointer> pointers) {
  assert(term < terms_);
  for (const kademlia::store::TermPointer& pointer : pointers) {
    if (pointer.tombstone) continue;
    auto [it, inserted] = candidates_.try_emplace(kademlia::store::IdentityOf(pointer));
    if (inserted) {
      it->second.record_key = pointer.record_key;
      it->second.weight_centi.assign(terms_, 0);
      it->second.text = pointer.name + "\n" + pointer.description;
    }
    if (it->second.profile.empty()) it->second.profile = pointer.terms;
    uint32_t& weight = it->second.weight_centi[term];
    weight = std::max(weight, std::max<uint32_t>(pointer.weight_centi, 1));
  }
}

void WordCandidates::CreditFromProfiles(const std::vector<std::vector<std::string>>& spellings) {
  assert(spellings.size() == terms_);
  std::vector<std::vector<uint16_t>> hashes(terms_);
  for (size_t i = 0; i < terms_; ++i) {
    for (const std::string& spelling : spellings[i]) {
      hashes[i].push_back(kademlia::store::TermProfile::HashOf(spelling));
    }
  }
  for (auto& [identity, held] : candidates_) {
    if (held.profile.empty()) continue;
    for (size_t i = 0; i < terms_; ++i) {
      if (held.weight_centi[i] != 0) continue;
      for (const uint16_t hash : hashes[i]) {
        const uint32_t weight = held.profile.WeightCenti(hash).value_or(0);
        held.weight_centi[i] = std::max(held.weight_centi[i], weight);
      }
    }
  }
}

void WordCandidates::CreditFromText(
    const std::function<std::vector<std::string>(const std::string& text)>& analyze,
    const text::QueryTerms& query) {
  assert(query.size() >= terms_);  // the first terms_ of the query were read
  for (auto& [identity, held] : candidates_) {
    if (std::find(held.weight_centi.begin(), held.weight_centi.end(), 0u) ==
        held.weight_centi.end()) {
      continue;  // every term named already
    }
    const std::vector<std::string> terms = analyze(held.text);
    for (size_t i = 0; i < terms_; ++i) {
      if (held.weight_centi[i] == 0 && query.MatchIn(i, terms)) held.weight_centi[i] = 1;
    }
  }
}

std::vector<WordCandidate> WordCandidates::Best(size_t n) const {
  std::vector<WordCandidate> all;
  all.reserve(candidates_.size());
  for (const auto& [identity, held] : candidates_) {
    WordCandidate candidate{identity, held.record_key, 0, 0, true};
    for (size_t i = 0; i < terms_; ++i) {
      if (held.weight_centi[i] == 0) {
        if (closed_[i]) candidate.covers_closed = false;
        continue;
      }
      ++candidate.terms_covered;
      const double weight = held.weight_centi[i] / 100.0;
      candidate.estimate += weight * (k1_ + 1) / (weight + k1_);
    }
    all.push_back(std::move(candidate));
  }
  // Identity order already; stable keeps it for ties.
  std::stable_sort(all.begin(), all.end(), [](const WordCandidate& a, const WordCandidate& b) {
    if (a.covers_closed != b.covers_closed) return a.covers_closed;
    if (a.terms_covered != b.terms_covered) return a.terms_covered > b.terms_covered;
    return a.estimate > b.estimate;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

}  // namespace skillnode::discovery::search

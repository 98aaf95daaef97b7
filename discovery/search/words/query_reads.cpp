// QueryReads (query_reads.h): a search's reads per query term, and what they say together.
#include "discovery/search/words/query_reads.h"

#include <algorithm>
#include <utility>

#include "kademlia/store/record/term_profile.h"

namespace skillnode::discovery::search {

bool TermReads::Holds(const std::string& term) const {
  return std::any_of(lookups.begin(), lookups.end(),
                     [&term](const TermLookup& l) { return l.term == term; });
}

bool TermReads::Add(std::string term, bool alternative) {
  if (Holds(term)) return false;
  lookups.push_back(TermLookup(std::move(term), alternative));
  return true;
}

bool TermReads::HasPointers() const {
  return std::any_of(lookups.begin(), lookups.end(),
                     [](const TermLookup& l) { return !l.reading.pointers.empty(); });
}

bool TermReads::AllFailed() const {
  return std::all_of(lookups.begin(), lookups.end(),
                     [](const TermLookup& l) { return l.reading.failed; });
}

uint64_t TermReads::Count() const {
  uint64_t count = 0;
  for (const TermLookup& l : lookups) {
    count += std::max<uint64_t>(l.reading.count, l.reading.pointers.size());
  }
  return count;
}

bool TermReads::SingleSpelling() const {
  return lookups.size() == 1 && !lookups.front().alternative &&
         !lookups.front().reading.pointers.empty();
}

std::optional<size_t> QueryReads::Rarest() const {
  std::optional<size_t> rarest;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (terms_[i].HasPointers() && (!rarest || terms_[i].Count() < terms_[*rarest].Count())) {
      rarest = i;
    }
  }
  return rarest;
}

bool QueryReads::AllFailed() const {
  return !terms_.empty() && std::all_of(terms_.begin(), terms_.end(),
                                        [](const TermReads& t) { return t.AllFailed(); });
}

std::vector<uint16_t> QueryReads::FilterFor(size_t term, size_t max) const {
  std::vector<uint16_t> hashes;
  for (size_t i = 0; i < terms_.size() && hashes.size() < max; ++i) {
    if (i == term || !terms_[i].SingleSpelling()) continue;
    hashes.push_back(kademlia::store::TermProfile::HashOf(terms_[i].lookups.front().term));
  }
  return hashes;
}

WordCandidates QueryReads::Candidates(text::TextMatch& match, double k1) const {
  WordCandidates candidates(terms_.size(), k1);
  std::vector<std::vector<std::string>> spellings(terms_.size());
  for (size_t i = 0; i < terms_.size(); ++i) {
    for (const TermLookup& lookup : terms_[i].lookups) {
      if (!lookup.alternative || !lookup.reading.pointers.empty()) {
        spellings[i].push_back(lookup.term);
      }
    }
  }
  for (size_t i = 0; i < terms_.size(); ++i) {
    const std::vector<TermLookup>& lookups = terms_[i].lookups;
    for (const TermLookup& lookup : lookups) candidates.Add(i, lookup.reading.pointers);
    // Read to the end under every spelling tried: a skill missing from it does not hold it.
    if (!lookups.empty() && std::all_of(lookups.begin(), lookups.end(), [](const TermLookup& l) {
          return l.reading.complete && !l.reading.failed;
        })) {
      candidates.Close(i);
    }
  }
  candidates.CreditFromProfiles(spellings);
  candidates.CreditFromText(
      [&match](const std::string& text) {
        std::vector<std::string> analysed = match.analyzer().Analyze(text);
        std::sort(analysed.begin(), analysed.end());
        analysed.erase(std::unique(analysed.begin(), analysed.end()), analysed.end());
        return analysed;
      },
      match.query());
  return candidates;
}

}  // namespace skillnode::discovery::search

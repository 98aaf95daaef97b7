// Vocabulary: bounded term counts, prefix completion and one-edit correction (SymSpell).
#include "discovery/text/vocabulary.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

#include "discovery/text/tokenizer.h"

namespace skillnode::discovery::text {
namespace {

// `term` cut into code points (a byte that does not start one stays with the one before).
std::vector<std::string_view> CodePoints(std::string_view term) {
  std::vector<std::string_view> points;
  size_t start = 0;
  for (size_t i = 1; i <= term.size(); ++i) {
    if (i == term.size() || (static_cast<unsigned char>(term[i]) & 0xC0) != 0x80) {
      points.push_back(term.substr(start, i - start));
      start = i;
    }
  }
  return points;
}

std::string Join(const std::vector<std::string_view>& points, size_t skip) {
  std::string joined;
  for (size_t i = 0; i < points.size(); ++i) {
    if (i != skip) joined.append(points[i]);
  }
  return joined;
}

// `term` and every string one code point deletion from it, without repeats.
std::set<std::string> WithDeletions(std::string_view term) {
  const std::vector<std::string_view> points = CodePoints(term);
  std::set<std::string> variants{std::string(term)};
  for (size_t i = 0; i < points.size(); ++i) variants.insert(Join(points, i));
  return variants;
}

// True when `a` and `b` differ by exactly one insertion, deletion, substitution or
// transposition of adjacent code points.
bool OneEditApart(std::string_view a_text, std::string_view b_text) {
  std::vector<std::string_view> a = CodePoints(a_text);
  std::vector<std::string_view> b = CodePoints(b_text);
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1) return false;
  size_t head = 0;
  while (head < a.size() && a[head] == b[head]) ++head;
  if (head == a.size() && a.size() == b.size()) return false;  // equal
  if (a.size() < b.size()) {                                   // one insertion into a at `head`
    return std::equal(a.begin() + head, a.end(), b.begin() + head + 1);
  }
  if (std::equal(a.begin() + head + 1, a.end(), b.begin() + head + 1)) return true;  // substitute
  return head + 1 < a.size() && a[head] == b[head + 1] && a[head + 1] == b[head] &&
         std::equal(a.begin() + head + 2, a.end(), b.begin() + head + 2);  // transpose
}

}  // namespace

Vocabulary::Vocabulary(size_t terms_max) : terms_max_(terms_max) { assert(terms_max_ > 0); }

void Vocabulary::Note(std::string_view term, uint64_t count) {
  if (term.empty() || term.size() > Tokenizer::kTermBytesMax) return;
  auto it = terms_.find(term);
  if (it == terms_.end()) {
    if (terms_.size() >= terms_max_) Evict();
    it = terms_.emplace(std::string(term), Entry{}).first;
    File(it->first);
  } else {
    by_recency_.erase(it->second.last_noted);
  }
  it->second.count += count;
  it->second.last_noted = ++tick_;
  by_recency_.emplace(tick_, it->first);
  assert(by_recency_.size() == terms_.size() && terms_.size() <= terms_max_);
}

uint64_t Vocabulary::CountOf(std::string_view term) const {
  const auto it = terms_.find(term);
  return it == terms_.end() ? 0 : it->second.count;
}

void Vocabulary::Evict() {
  assert(!by_recency_.empty());
  const auto oldest = by_recency_.begin();
  const auto it = terms_.find(oldest->second);
  assert(it != terms_.end());
  Unfile(it->first);
  terms_.erase(it);
  by_recency_.erase(oldest);
}

void Vocabulary::File(const std::string& term) {
  for (const std::string& variant : WithDeletions(term)) deletions_[variant].push_back(term);
}

void Vocabulary::Unfile(const std::string& term) {
  for (const std::string& variant : WithDeletions(term)) {
    const auto it = deletions_.find(variant);
    assert(it != deletions_.end());
    std::erase(it->second, term);
    if (it->second.empty()) deletions_.erase(it);
  }
}

std::vector<std::string> Vocabulary::Complete(std::string_view prefix, size_t n) const {
  std::vector<std::string> matches;
  if (prefix.empty()) return matches;
  for (auto it = terms_.lower_bound(prefix); it != terms_.end() && it->first.starts_with(prefix);
       ++it) {
    matches.push_back(it->first);
  }
  return Best(std::move(matches), n);
}

std::vector<std::string> Vocabulary::Correct(std::string_view term, size_t n) const {
  std::set<std::string> candidates;
  // No known term is longer than kTermBytesMax, nor one edit from a term much longer; the
  // bound also keeps the deletions of a long input from costing its length squared.
  if (term.size() > Tokenizer::kTermBytesMax + 4) return {};
  for (const std::string& variant : WithDeletions(term)) {
    const auto it = deletions_.find(variant);
    if (it == deletions_.end()) continue;
    for (const std::string& known : it->second) {
      if (OneEditApart(term, known)) candidates.insert(known);
    }
  }
  return Best(std::vector<std::string>(candidates.begin(), candidates.end()), n);
}

std::vector<std::string> Vocabulary::Best(std::vector<std::string> terms, size_t n) const {
  const size_t kept = std::min(n, terms.size());
  std::partial_sort(terms.begin(), terms.begin() + static_cast<ptrdiff_t>(kept), terms.end(),
                    [this](const std::string& a, const std::string& b) {
                      const uint64_t count_a = CountOf(a);
                      const uint64_t count_b = CountOf(b);
                      return count_a != count_b ? count_a > count_b : a < b;
                    });
  terms.resize(kept);
  return terms;
}

}  // namespace skillnode::discovery::text

// AnswerMemo: complete answers of searches the local, LAN and cache stages answered wholly,
// kept beside the cache so that the same query asked again (with the same options) is
// answered with the same result, without merging and ranking again, while nothing those
// stages hold has changed and the cache entry it came from needs no refresh.
//
// "Nothing has changed" is the answer's Basis as it was when the answer was kept: the owner's
// count of changes of what the local and LAN stages hold (Searcher: the registry's and the LAN
// table's), and the version of the one cache entry the answer was made from — not the cache's
// changes as a whole, so that caching another query's answer leaves this one reusable. At most
// `answers_max` answers are kept; keeping one more drops them all at once. Pure (the caller
// passes `now`); owned by Searcher; not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_ANSWER_MEMO_H_
#define SKILLNODE_DISCOVERY_SEARCH_ANSWER_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "discovery/search/search_types.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

class AnswerMemo {
 public:
  // What an answer was made from, as the owner counts it.
  struct Basis {
    uint64_t sources = 0;  // changes of what the local and LAN stages hold
    uint64_t entry = 0;    // the cache entry's version (QueryCache::VersionOf)
    bool operator==(const Basis&) const = default;
  };

  // `answers_max` >= 1 (Searcher passes cache.maxSize, at least 1).
  explicit AnswerMemo(size_t answers_max);

  // The memo's key of a search: its cache key and the options that shape its answer.
  static std::string KeyOf(std::string_view cache_key, const SearchOptions& options);

  // The answer kept under `key` while `basis` is still what it was kept at and `now` is before
  // its fresh_until; else null. Shared: the caller may keep it across a Keep.
  std::shared_ptr<const SearchResult> Find(const std::string& key, const Basis& basis,
                                           transport::TimePoint now) const;
  // Keeps (or replaces) the answer under `key`, valid until `fresh_until`.
  void Keep(const std::string& key, const SearchResult& result, const Basis& basis,
            transport::TimePoint fresh_until);

  size_t size() const { return answers_.size(); }
  size_t answers_max() const { return answers_max_; }

 private:
  struct Answer {
    std::shared_ptr<const SearchResult> result;
    Basis basis;
    transport::TimePoint fresh_until = transport::kTimeZero;
  };

  size_t answers_max_;
  std::map<std::string, Answer, std::less<>> answers_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_ANSWER_MEMO_H_

// AnswerMemo: recent complete answers, reused while nothing they were made from has changed.
#include "discovery/search/answer_memo.h"

#include <cassert>

namespace skillnode::discovery::search {

AnswerMemo::AnswerMemo(size_t answers_max) : answers_max_(answers_max) {
  assert(answers_max_ >= 1);
}

std::string AnswerMemo::KeyOf(std::string_view cache_key, const SearchOptions& options) {
  std::string key(cache_key);
  key += options.use_lan ? "|lan" : "|-";
  key += options.use_skillcenter ? "|center" : "|-";
  return key;
}

std::shared_ptr<const SearchResult> AnswerMemo::Find(const std::string& key, const Basis& basis,
                                                     transport::TimePoint now) const {
  auto it = answers_.find(key);
  if (it == answers_.end() || !(it->second.basis == basis) || now >= it->second.fresh_until) {
    return nullptr;
  }
  return it->second.result;
}

void AnswerMemo::Keep(const std::string& key, const SearchResult& result, const Basis& basis,
                      transport::TimePoint fresh_until) {
  // Full: all are dropped at once, and made again as their queries come back.
  if (answers_.size() >= answers_max_) answers_.clear();
  answers_[key] = Answer{std::make_shared<const SearchResult>(result), basis, fresh_until};
  assert(answers_.size() <= answers_max_);
}

}  // namespace skillnode::discovery::search

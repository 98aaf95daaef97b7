// PageCursors (page_cursors.h): positions read, asked and unread of one holder's list.
#include "kademlia/store/terms/page_cursors.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::store::terms {

PageCursors::PageCursors(size_t window) : window_(window) { assert(window_ >= 1); }

void PageCursors::SetTotal(uint32_t total) {
  if (end_known_) return;
  end_ = std::max(end_, std::min(total, kPositionsMax));
  positions_.resize(end_, Position::kUnread);
}

void PageCursors::OnPage(uint32_t cursor, size_t count, std::optional<uint32_t> next) {
  const auto asked = std::find_if(in_flight_.begin(), in_flight_.end(),
                                  [cursor](const Asked& a) { return a.cursor == cursor; });
  uint32_t asked_end = cursor;
  if (asked != in_flight_.end()) {
    asked_end = asked->end;
    in_flight_.erase(asked);
  }
  const uint64_t page_end = std::min<uint64_t>(uint64_t{cursor} + count, kPositionsMax);
  if (!end_known_ && page_end > end_) {
    end_ = static_cast<uint32_t>(page_end);  // more than the holder's count said
    positions_.resize(end_, Position::kUnread);
  }
  if (next && !end_known_ && *next >= end_ && *next < kPositionsMax) {
    end_ = *next + 1;  // the holder has an entry at `next` at least
    positions_.resize(end_, Position::kUnread);
  }
  for (uint64_t p = cursor; p < page_end && p < end_; ++p) positions_[p] = Position::kRead;
  // What this request was counted for beyond what the page held: a gap, to ask for again.
  for (uint64_t p = page_end; p < asked_end && p < end_; ++p) {
    if (positions_[p] == Position::kAsked) positions_[p] = Position::kUnread;
  }
  if (!next) {
    // The list ends after this page (a page past the end holds nothing and ends there too).
    end_ = end_known_ ? std::min(end_, static_cast<uint32_t>(page_end))
                      : static_cast<uint32_t>(page_end);
    end_known_ = true;
    positions_.resize(end_);
  }
  if (count > 0) {
    const auto held = static_cast<uint32_t>(std::min<size_t>(count, kPositionsMax));
    stride_ = stride_ == 0 ? held : std::min(stride_, held);
  }
}

void PageCursors::OnLost(uint32_t cursor) {
  const auto asked = std::find_if(in_flight_.begin(), in_flight_.end(),
                                  [cursor](const Asked& a) { return a.cursor == cursor; });
  if (asked != in_flight_.end()) {
    for (uint32_t p = asked->cursor; p < asked->end && p < end_; ++p) {
      if (positions_[p] == Position::kAsked) positions_[p] = Position::kUnread;
    }
    in_flight_.erase(asked);
  }
  lost_ = true;
}

std::optional<uint32_t> PageCursors::FirstUnread() const {
  const auto it = std::find(positions_.begin(), positions_.end(), Position::kUnread);
  if (it == positions_.end()) return std::nullopt;
  return static_cast<uint32_t>(it - positions_.begin());
}

std::optional<uint32_t> PageCursors::Next() {
  if (lost_ || stride_ == 0 || in_flight_.size() >= window_) return std::nullopt;
  const std::optional<uint32_t> first = FirstUnread();
  if (!first) return std::nullopt;
  uint32_t end = *first;
  while (end < end_ && end - *first < stride_ && positions_[end] == Position::kUnread) {
    positions_[end++] = Position::kAsked;
  }
  assert(end > *first);
  in_flight_.push_back(Asked{*first, end});
  return *first;
}

bool PageCursors::complete() const {
  return end_known_ && std::all_of(positions_.begin(), positions_.end(),
                                   [](Position p) { return p == Position::kRead; });
}

bool PageCursors::more() const { return !lost_ && stride_ > 0 && FirstUnread().has_value(); }

}  // namespace skillnode::kademlia::store::terms

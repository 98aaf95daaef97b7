// PageCursors: which pages of one holder's list under a term key a reader asks for next, so
// that several pages are in flight at once (docs/protocol.md "Reading shards"). A VALUES page
// holds the entries from its cursor on as far as a datagram takes them (3 or 4 pointers), and
// its `nx` is the cursor after them: asking for page after page waits one round trip per page.
// Instead, once one page has told how many entries a page holds (the stride, the fewest any page
// gave), the reader asks for the cursors one stride apart ahead of it, at most `window` at once.
// A page that holds fewer entries than the stride leaves a gap, asked for next; pages that
// overlap cost bytes, never entries. Positions are the holder's list order (heaviest first), as
// the cursors are.
//
// Tracks positions [0, end): end is the holder's count (`tt`, at most kPositionsMax) until a
// page without `nx` says where its list ends. A plain value: no I/O; the caller sends the
// requests Next() names and reports each answer (OnPage) or loss (OnLost).
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_PAGE_CURSORS_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_PAGE_CURSORS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace skillnode::kademlia::store::terms {

class PageCursors {
 public:
  // Positions tracked at most: a term key holds at most kTermPointersPerKeyMax pointers, and a
  // holder that reports more is not read past them.
  static constexpr uint32_t kPositionsMax = 256;

  // At most `window` (>= 1) pages in flight.
  explicit PageCursors(size_t window);

  // The holder reports `total` entries under the key (the most it reported counts).
  void SetTotal(uint32_t total);
  // The page at `cursor` held `count` entries; `next` is its `nx` (none: the list ends there).
  void OnPage(uint32_t cursor, size_t count, std::optional<uint32_t> next);
  // The page at `cursor` is lost for good: the holder's further pages are not asked for.
  void OnLost(uint32_t cursor);

  // The cursor to ask for next, marked in flight; none while `window` pages are in flight, no
  // page has been answered yet (no stride), a page was lost, or every position is read or asked.
  std::optional<uint32_t> Next();

  size_t in_flight() const { return in_flight_.size(); }
  // Every position up to the list's end has been read.
  bool complete() const;
  // Whether Next() could name a cursor once the window has room.
  bool more() const;

 private:
  enum class Position : uint8_t { kUnread, kAsked, kRead };
  struct Asked {
    uint32_t cursor = 0;
    uint32_t end = 0;  // the positions [cursor, end) this request was counted for
  };

  std::optional<uint32_t> FirstUnread() const;

  size_t window_;
  uint32_t end_ = 0;
  bool end_known_ = false;  // a page without `nx` fixed end_
  bool lost_ = false;
  uint32_t stride_ = 0;  // 0: no page answered yet
  std::vector<Position> positions_;
  std::vector<Asked> in_flight_;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_PAGE_CURSORS_H_

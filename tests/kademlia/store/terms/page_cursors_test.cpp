// PageCursors: the window of pages in flight, the stride, gaps, the list's end and losses.
#include "kademlia/store/terms/page_cursors.h"

#include <catch2/catch.hpp>
#include <initializer_list>
#include <optional>
#include <vector>

namespace skillnode::kademlia::store::terms {
namespace {

// Every cursor Next() gives until it gives none.
std::vector<uint32_t> Drain(PageCursors& cursors) {
  std::vector<uint32_t> out;
  while (auto cursor = cursors.Next()) out.push_back(*cursor);
  return out;
}

// Answers the pages at `starts`, each full: `size` pointers and more after them.
void AnswerFull(PageCursors& cursors, std::initializer_list<uint32_t> starts, uint32_t size) {
  for (const uint32_t start : starts) cursors.OnPage(start, size, start + size);
}

TEST_CASE("nothing is asked before a page has told the stride", "[unit]") {
  PageCursors cursors(4);
  cursors.SetTotal(20);
  CHECK_FALSE(cursors.Next());
  CHECK_FALSE(cursors.more());
  CHECK_FALSE(cursors.complete());
}

TEST_CASE("pages are asked a stride apart, a window at a time", "[unit]") {
  PageCursors cursors(4);
  cursors.SetTotal(30);
  cursors.OnPage(0, 4, 4);  // the lookup's first page: 4 pointers
  CHECK(Drain(cursors) == std::vector<uint32_t>{4, 8, 12, 16});
  CHECK(cursors.in_flight() == 4);
  CHECK(cursors.more());
  // An answer makes room for one more.
  cursors.OnPage(4, 4, 8);
  CHECK(Drain(cursors) == std::vector<uint32_t>{20});
  AnswerFull(cursors, {8, 12, 16}, 4);
  CHECK(Drain(cursors) == std::vector<uint32_t>{24, 28});
  AnswerFull(cursors, {20, 24}, 4);
  CHECK_FALSE(cursors.complete());
  cursors.OnPage(28, 2, std::nullopt);  // the last page: the list ends at 30
  CHECK(cursors.complete());
  CHECK_FALSE(cursors.more());
  CHECK_FALSE(cursors.Next());
}

TEST_CASE("a page holding fewer than the stride leaves a gap that is asked next", "[unit]") {
  PageCursors cursors(2);
  cursors.SetTotal(12);
  cursors.OnPage(0, 4, 4);
  CHECK(Drain(cursors) == std::vector<uint32_t>{4, 8});
  cursors.OnPage(4, 3, 7);  // larger pointers: 4..6 only, 7 is a gap
  // The gap first, with the stride now 3.
  CHECK(Drain(cursors) == std::vector<uint32_t>{7});
  cursors.OnPage(8, 4, std::nullopt);  // 8..11, the end
  cursors.OnPage(7, 3, 10);            // overlaps 8 and 9: costs bytes, not pointers
  CHECK(cursors.complete());
  CHECK(cursors.in_flight() == 0);
}

TEST_CASE("a list longer than its count is read on, a shorter one ends early", "[unit]") {
  PageCursors longer(4);
  longer.SetTotal(4);
  longer.OnPage(0, 4, 4);  // nx says more than tt did
  CHECK(Drain(longer) == std::vector<uint32_t>{4});
  longer.OnPage(4, 2, std::nullopt);
  CHECK(longer.complete());

  PageCursors shorter(4);
  shorter.SetTotal(20);
  shorter.OnPage(0, 4, 4);
  CHECK(Drain(shorter) == std::vector<uint32_t>{4, 8, 12, 16});
  shorter.OnPage(8, 0, std::nullopt);  // a page past the end: the list ends at 8
  shorter.OnPage(4, 4, std::nullopt);
  for (const uint32_t past : {12u, 16u}) shorter.OnPage(past, 0, std::nullopt);
  CHECK(shorter.complete());
  CHECK_FALSE(shorter.more());
}

TEST_CASE("a lost page stops the holder's reading; its count is bounded", "[unit]") {
  PageCursors cursors(3);
  cursors.SetTotal(40);
  cursors.OnPage(0, 4, 4);
  CHECK(Drain(cursors) == std::vector<uint32_t>{4, 8, 12});
  cursors.OnLost(8);
  CHECK(cursors.in_flight() == 2);
  CHECK_FALSE(cursors.Next());
  CHECK_FALSE(cursors.more());
  AnswerFull(cursors, {4, 12}, 4);
  CHECK_FALSE(cursors.complete());

  PageCursors liar(1);
  liar.SetTotal(1'000'000);  // a holder reporting more than a key holds
  liar.OnPage(0, 4, 4);
  size_t asked = 0;
  while (auto cursor = liar.Next()) {
    AnswerFull(liar, {*cursor}, 4);
    ++asked;
  }
  CHECK(asked == (PageCursors::kPositionsMax - 4) / 4);
  CHECK_FALSE(liar.more());
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms

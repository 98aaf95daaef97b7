// AnswerMemo: a kept answer is found again only under its own key, at the basis it was kept at
// (the sources' change count and its cache entry's version), before its fresh_until; past
// answers_max the memo starts over.
#include "discovery/search/answer_memo.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::discovery::search {
namespace {

SearchResult Answer(const std::string& message) {
  SearchResult result;
  result.message = message;
  return result;
}

using Basis = AnswerMemo::Basis;

TEST_CASE("the answer memo finds an answer while nothing changed and it is fresh", "[unit]") {
  AnswerMemo memo(4);
  const transport::TimePoint now = transport::kTimeZero + transport::Seconds(10);
  memo.Keep("q", Answer("first"), Basis{.sources = 7, .entry = 3}, now + transport::Seconds(5));
  const auto found = memo.Find("q", Basis{7, 3}, now);
  REQUIRE(found != nullptr);
  CHECK(found->message == "first");
  CHECK(memo.Find("q", Basis{7, 3}, now + transport::Seconds(4)) != nullptr);
  CHECK(memo.Find("q", Basis{7, 3}, now + transport::Seconds(5)) == nullptr);  // no longer fresh
  CHECK(memo.Find("q", Basis{8, 3}, now) == nullptr);  // a registration or the LAN changed
  CHECK(memo.Find("q", Basis{7, 4}, now) == nullptr);  // its cache entry was replaced
  CHECK(memo.Find("q", Basis{7, 0}, now) == nullptr);  // its cache entry was dropped
  CHECK(memo.Find("other", Basis{7, 3}, now) == nullptr);
}

TEST_CASE("the answer memo replaces an answer kept again under the same key", "[unit]") {
  AnswerMemo memo(4);
  memo.Keep("q", Answer("old"), Basis{1, 1}, transport::kTimeNever);
  const auto held = memo.Find("q", Basis{1, 1}, transport::kTimeZero);
  memo.Keep("q", Answer("new"), Basis{2, 1}, transport::kTimeNever);
  CHECK(memo.size() == 1);
  CHECK(memo.Find("q", Basis{1, 1}, transport::kTimeZero) == nullptr);
  REQUIRE(memo.Find("q", Basis{2, 1}, transport::kTimeZero) != nullptr);
  CHECK(memo.Find("q", Basis{2, 1}, transport::kTimeZero)->message == "new");
  REQUIRE(held != nullptr);
  CHECK(held->message == "old");  // an answer handed out stays valid
}

TEST_CASE("the answer memo drops every answer when one more than answers_max is kept", "[unit]") {
  AnswerMemo memo(2);
  CHECK(memo.answers_max() == 2);
  memo.Keep("a", Answer("a"), Basis{0, 1}, transport::kTimeNever);
  memo.Keep("b", Answer("b"), Basis{0, 1}, transport::kTimeNever);
  CHECK(memo.size() == 2);
  memo.Keep("c", Answer("c"), Basis{0, 1}, transport::kTimeNever);
  CHECK(memo.size() == 1);
  CHECK(memo.Find("a", Basis{0, 1}, transport::kTimeZero) == nullptr);
  CHECK(memo.Find("b", Basis{0, 1}, transport::kTimeZero) == nullptr);
  CHECK(memo.Find("c", Basis{0, 1}, transport::kTimeZero) != nullptr);
}

TEST_CASE("the answer memo's key tells apart the options that shape an answer", "[unit]") {
  SearchOptions all;
  SearchOptions no_lan;
  no_lan.use_lan = false;
  SearchOptions no_center;
  no_center.use_skillcenter = false;
  CHECK(AnswerMemo::KeyOf("k", all) == "k|lan|center");
  CHECK(AnswerMemo::KeyOf("k", no_lan) == "k|-|center");
  CHECK(AnswerMemo::KeyOf("k", no_center) == "k|lan|-");
}

}  // namespace
}  // namespace skillnode::discovery::search

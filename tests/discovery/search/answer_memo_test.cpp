// AnswerMemo: a kept answer is found again only under its own key, at the change count it was
// kept at, before its fresh_until; past answers_max the memo starts over.
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

TEST_CASE("the answer memo finds an answer while nothing changed and it is fresh", "[unit]") {
  AnswerMemo memo(4);
  const transport::TimePoint now = transport::kTimeZero + transport::Seconds(10);
  memo.Keep("q", Answer("first"), /*changes=*/7, now + transport::Seconds(5));
  const auto found = memo.Find("q", 7, now);
  REQUIRE(found != nullptr);
  CHECK(found->message == "first");
  CHECK(memo.Find("q", 7, now + transport::Seconds(4)) != nullptr);
  CHECK(memo.Find("q", 7, now + transport::Seconds(5)) == nullptr);  // no longer fresh
  CHECK(memo.Find("q", 8, now) == nullptr);                          // something changed
  CHECK(memo.Find("other", 7, now) == nullptr);
}

TEST_CASE("the answer memo replaces an answer kept again under the same key", "[unit]") {
  AnswerMemo memo(4);
  memo.Keep("q", Answer("old"), 1, transport::kTimeNever);
  const auto held = memo.Find("q", 1, transport::kTimeZero);
  memo.Keep("q", Answer("new"), 2, transport::kTimeNever);
  CHECK(memo.size() == 1);
  CHECK(memo.Find("q", 1, transport::kTimeZero) == nullptr);
  REQUIRE(memo.Find("q", 2, transport::kTimeZero) != nullptr);
  CHECK(memo.Find("q", 2, transport::kTimeZero)->message == "new");
  REQUIRE(held != nullptr);
  CHECK(held->message == "old");  // an answer handed out stays valid
}

TEST_CASE("the answer memo drops every answer when one more than answers_max is kept", "[unit]") {
  AnswerMemo memo(2);
  CHECK(memo.answers_max() == 2);
  memo.Keep("a", Answer("a"), 0, transport::kTimeNever);
  memo.Keep("b", Answer("b"), 0, transport::kTimeNever);
  CHECK(memo.size() == 2);
  memo.Keep("c", Answer("c"), 0, transport::kTimeNever);
  CHECK(memo.size() == 1);
  CHECK(memo.Find("a", 0, transport::kTimeZero) == nullptr);
  CHECK(memo.Find("b", 0, transport::kTimeZero) == nullptr);
  CHECK(memo.Find("c", 0, transport::kTimeZero) != nullptr);
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

// WordSearch (discovery/search/words/word_search.h) over fake sources: which terms it reads and how
// far, intersection and partial matches, typo correction and completion, the candidates it
// drops (and, asked to, those it passed over), filters, BM25 order and its limits. The filtered
// further read has its own file (word_search_filter_test.cpp).
#include "discovery/search/words/word_search.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "discovery/search/words/word_search_world.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;
using testing::Ids;
using testing::Skill;
using testing::Strings;
using World = testing::WordSearchWorld;

TEST_CASE("a word search reads every term's shard 0, then the rarest term further", "[unit]") {
  World world;
  world.config.probe_pointers = 2;
  world.config.term_pointers_read_max = 10;
  for (int i = 0; i < 4; ++i) {
    world.Publish(Skill("cal-" + std::to_string(i), "Feishu Calendar " + std::to_string(i)));
  }
  world.terms.SetCount("calendar", 5000);  // hot: more than it gave
  world.terms.SetCount("feishu", 40);
  const WordAnswer answer = world.Search("calendar feishu");
  REQUIRE(world.terms.calls.size() == 3);
  CHECK(world.terms.calls[0].term == "calendar");
  CHECK(world.terms.calls[0].wanted == 2);
  CHECK(world.terms.calls[1].term == "feishu");
  CHECK(world.terms.calls[2].term == "feishu");  // the rarer one, read further
  CHECK(world.terms.calls[2].wanted == 10);
  CHECK(answer.hits.size() == 4);
}

TEST_CASE("no term is read further when the probes lead to enough candidates covering all",
          "[unit]") {
  World world;
  world.config.probe_pointers = 2;
  world.config.term_pointers_read_max = 10;
  world.config.candidates_fetched_max = 2;
  for (int i = 0; i < 4; ++i) {
    world.Publish(Skill("cal-" + std::to_string(i), "Feishu Calendar " + std::to_string(i)));
  }
  world.terms.SetCount("calendar", 5000);
  world.terms.SetCount("feishu", 40);
  // One word: its probe's 2 heaviest pointers are the 2 candidates fetched.
  CHECK(world.Search("calendar").hits.size() == 2);
  REQUIRE(world.terms.calls.size() == 1);
  CHECK(world.terms.calls[0].wanted == 2);
  // Two words whose probes name the same 2 skills: both cover every term, enough to fetch.
  world.terms.calls.clear();
  CHECK(world.Search("calendar feishu").hits.size() == 2);
  CHECK(world.terms.calls.size() == 2);
  // One more candidate wanted than the probes cover: the rarer term is read further.
  world.config.candidates_fetched_max = 3;
  world.terms.calls.clear();
  CHECK(world.Search("calendar feishu").hits.size() == 3);
  REQUIRE(world.terms.calls.size() == 3);
  CHECK(world.terms.calls[2].term == "feishu");
}

TEST_CASE("only skills holding every word are answered; those holding some are only leads",
          "[unit]") {
  World world;
  world.Publish(Skill("both", "Feishu Calendar"));
  world.Publish(Skill("feishu-only", "Feishu Docs"));
  world.Publish(Skill("calendar-only", "Google Calendar"));
  world.Publish(Skill("neither", "Weather"));
  const WordAnswer answer = world.Search("feishu calendar");
  CHECK(Ids(answer) == Strings{"both"});
  CHECK(answer.hits[0].score.terms_matched == 2);
  // The partial ones were fetched as leads: the vocabulary learnt their words.
  CHECK(world.vocabulary.vocabulary().Contains("doc"));
}

TEST_CASE("a misspelt word is read again as the vocabulary's corrections", "[unit]") {
  World world;
  world.Publish(Skill("cal", "Feishu Calendar"));
  // Not known yet: nothing to correct to, so nothing holds both words; "feishu" alone makes a
  // lead, and fetching it teaches the vocabulary "calendar".
  WordAnswer first = world.Search("calandar feishu");
  CHECK(first.hits.empty());
  CHECK(world.vocabulary.vocabulary().Contains("calendar"));
  const WordAnswer answer = world.Search("calandar feishu");
  CHECK(Ids(answer) == Strings{"cal"});
  CHECK(answer.hits[0].score.terms_matched == 2);
  CHECK(answer.terms.alternatives(0) == Strings{"calendar"});
  // "calender" stems to "calend", two edits from "calendar": as the last word it completes.
  CHECK(world.Search("feishu calender").hits[0].score.terms_matched == 2);
}

TEST_CASE("a typo that stemming moves too far is corrected at the word level", "[unit]") {
  World world;
  const SkillRecord cal = Skill("cal", "Feishu Calendar");
  const SkillRecord translate = Skill("tr", "Translate Japanese text");
  world.Publish(cal);
  world.Publish(translate);
  world.vocabulary.NoteRecord(cal);  // as when registered or fetched
  world.vocabulary.NoteRecord(translate);
  // "calender" is the stem "calend", two edits from "calendar": its word is one from the word.
  WordAnswer answer = world.Search("calender feishu");
  CHECK(Ids(answer) == Strings{"cal"});
  CHECK(answer.hits[0].score.terms_matched == 2);
  CHECK(answer.terms.alternatives(0) == Strings{"calendar"});
  answer = world.Search("calender");
  CHECK(Ids(answer) == Strings{"cal"});
  answer = world.Search("feishu calender");
  CHECK(Ids(answer) == Strings{"cal"});
  CHECK(answer.hits[0].score.terms_matched == 2);
  // Two letters swapped, the stem of the word corrected.
  answer = world.Search("transalte japanese");
  CHECK(Ids(answer) == Strings{"tr"});
  CHECK(answer.hits[0].score.terms_matched == 2);
  CHECK(answer.terms.alternatives(0) == Strings{"translat"});
}

TEST_CASE("a last word typed past its stem completes to the stems of the words it begins",
          "[unit]") {
  World world;
  const SkillRecord summary = Skill("sum", "Summarize PDF files");
  world.Publish(summary);
  world.Publish(Skill("other", "PDF viewer"));
  world.vocabulary.NoteRecord(summary);
  // "summari" does not begin the stem "summar"; it begins the word "summarize".
  const WordAnswer answer = world.Search("pdf summari");
  REQUIRE_FALSE(answer.hits.empty());
  CHECK(Ids(answer)[0] == "sum");
  CHECK(answer.hits[0].score.terms_matched == 2);
  CHECK(answer.terms.alternatives(1) == Strings{"summar"});
}

TEST_CASE("the last word is read as the vocabulary's completions of it", "[unit]") {
  World world;
  world.Publish(Skill("cal", "Feishu Calendar"));
  world.Publish(Skill("calc", "Calculator"));
  world.vocabulary.NoteIndexed("calendar");
  world.vocabulary.NoteIndexed("calcul");
  const WordAnswer answer = world.Search("feishu cal");
  CHECK(Ids(answer)[0] == "cal");
  Strings read;
  for (const auto& call : world.terms.calls) read.push_back(call.term);
  CHECK(read == Strings{"feishu", "cal", "calcul", "calendar"});
}

TEST_CASE("a candidate whose record is missing, a tombstone or another publisher's is dropped",
          "[unit]") {
  World world;
  const SkillRecord kept = Skill("kept", "Invoice Parser");
  world.Publish(kept);
  const SkillRecord missing = Skill("missing", "Invoice Missing");
  world.terms.Index(missing);  // pointers only
  SkillRecord dead = Skill("dead", "Invoice Dead");
  world.terms.Index(dead);
  dead.tombstone = true;
  world.records.Put(dead);
  SkillRecord forged = Skill("forged", "Invoice Forged");
  world.terms.Index(forged);
  forged.publisher = skillnode::testing::Publisher("someone else").public_key();
  world.records.Put(forged);
  WordSearch search(world.terms, world.records, world.vocabulary, world.config);
  WordAnswer answer;
  SkillQuery query;
  query.text = "invoice";
  search.Search(transport::kTimeZero, query,
                [&](transport::TimePoint, WordAnswer a) { answer = std::move(a); });
  CHECK(Ids(answer) == Strings{"kept"});
  CHECK(search.stats().candidates_dropped == 3);
}

TEST_CASE("a word search applies the query's other filters to the records", "[unit]") {
  World world;
  SkillRecord healthy = Skill("up", "Translate Japanese");
  world.Publish(healthy);
  SkillRecord down = Skill("down", "Translate Japanese text");
  down.status = SkillStatus::kUnhealthy;
  world.Publish(down);
  SkillQuery query;
  query.status = SkillStatus::kHealthy;
  CHECK(Ids(world.Search("translate japanese", query)) == Strings{"up"});
}

TEST_CASE("fetched skills rank by BM25F over their fields times their health", "[unit]") {
  World world;
  world.Publish(Skill("short", "Calendar"));
  world.Publish(Skill("long", "Calendar Sync"));
  WordAnswer answer = world.Search("calendar");
  REQUIRE(Ids(answer) == Strings{"short", "long"});
  // N = 2, df = 2, name lengths 1 and 2 (average 1.5), name weight 3, k1 1.2, b 0.75.
  const double idf = std::log(1 + 0.5 / 2.5);
  const double tf_short = 3.0 / (0.25 + 0.75 * 1 / 1.5);  // 4
  const double tf_long = 3.0 / (0.25 + 0.75 * 2 / 1.5);   // 2.4
  CHECK(answer.hits[0].score.score == Approx(idf * tf_short * 2.2 / (tf_short + 1.2)));
  CHECK(answer.hits[1].score.score == Approx(idf * tf_long * 2.2 / (tf_long + 1.2)));
  // DEGRADED weighs 0.7: 0.7 x 1.692 idf < 1.467 idf.
  SkillRecord degraded = Skill("short", "Calendar");
  degraded.status = SkillStatus::kDegraded;
  degraded.sequence = 2;
  world.records = FakeRecordSource();
  world.records.Put(degraded);
  world.records.Put(Skill("long", "Calendar Sync"));
  answer = world.Search("calendar");
  CHECK(Ids(answer) == Strings{"long", "short"});
}

TEST_CASE("a word search honours its limits on terms, candidates and gets in flight", "[unit]") {
  World world;
  for (int i = 0; i < 6; ++i) {
    world.Publish(Skill("s" + std::to_string(i), "alpha beta gamma " + std::to_string(i)));
  }
  world.config.terms_per_query_max = 2;
  world.config.candidates_fetched_max = 4;
  world.config.gets_in_flight_max = 2;
  world.records.Hold(true);
  WordSearch search(world.terms, world.records, world.vocabulary, world.config);
  SkillQuery query;
  query.text = "alpha beta gamma";
  bool called = false;
  WordAnswer answer;
  search.Search(transport::kTimeZero, query, [&](transport::TimePoint, WordAnswer a) {
    called = true;
    answer = std::move(a);
  });
  CHECK(world.terms.calls.size() == 2);  // gamma is not read
  CHECK(world.records.held() == 2);
  while (world.records.held() > 0) world.records.Release(transport::kTimeZero);
  REQUIRE(called);
  CHECK(world.records.gets == 4);
  CHECK(world.records.max_held == 2);
  CHECK(answer.hits.size() == 4);
  CHECK(answer.hits[0].score.terms_matched == 3);  // gamma still checked on the records
}

TEST_CASE("asked to, a word search tells the candidates it passed over", "[unit]") {
  World world;
  const Strings fillers = {"", "red", "red green", "red green blue", "red green blue gold"};
  for (size_t i = 0; i < fillers.size(); ++i) {
    world.Publish(Skill("s" + std::to_string(i), "alpha tool " + fillers[i]));
  }
  world.config.candidates_fetched_max = 2;
  const WordAnswer quiet = world.Search("alpha");
  CHECK(quiet.hits.size() == 2);
  CHECK(quiet.passed_over.empty());  // not asked
  world.config.report_passed_over = true;
  const WordAnswer told = world.Search("alpha");
  REQUIRE(told.hits.size() == 2);
  REQUIRE(told.passed_over.size() == 3);
  // The fetched and the passed over are every skill holding the word, once each.
  Strings all = Ids(told);
  for (const kademlia::store::RecordIdentity& identity : told.passed_over) {
    all.push_back(identity.skill_id);
  }
  std::sort(all.begin(), all.end());
  CHECK(all == Strings{"s0", "s1", "s2", "s3", "s4"});
}

TEST_CASE("a word search feeds the vocabulary with the records it fetched", "[unit]") {
  World world;
  world.Publish(Skill("cal", "Feishu Calendar", "Books meeting rooms"));
  world.Search("feishu");
  CHECK(world.vocabulary.vocabulary().Contains("meet"));
  CHECK(world.vocabulary.vocabulary().Contains("calendar"));
  CHECK(Ids(world.Search("calender")) == Strings{"cal"});
}

TEST_CASE("a word search that reaches no holder says it failed", "[unit]") {
  World world;
  world.Publish(Skill("cal", "Feishu Calendar"));
  world.terms.FailAll();
  const WordAnswer answer = world.Search("calendar");
  CHECK(answer.failed);
  CHECK(answer.hits.empty());
  CHECK_FALSE(world.Search("!!").failed);  // no terms: nothing to read, nothing failed
}

}  // namespace
}  // namespace skillnode::discovery::search

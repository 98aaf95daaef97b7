// SearchProgress: one state per asynchronous stage of a search, and what they say together:
// whether the answer waits, whether a remote stage failed, and an empty answer's error.
#include "discovery/search/search_progress.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::discovery::search {
namespace {

using Dht = SearchProgress::Dht;
using Center = SearchProgress::Center;
using LanRound = SearchProgress::LanRound;

TEST_CASE("a new search's progress has started no stage and waits for none", "[unit]") {
  const SearchProgress progress;
  CHECK(progress.lan_round() == LanRound::kNotStarted);
  CHECK(progress.dht() == Dht::kNotStarted);
  CHECK(progress.center() == Center::kNotAsked);
  CHECK(progress.stale() == SearchProgress::Stale::kNotRead);
  CHECK_FALSE(progress.replied());
  CHECK_FALSE(progress.dht_done());
  CHECK_FALSE(progress.Waiting());
  CHECK_FALSE(progress.RemoteFailed());
}

TEST_CASE("the answer waits for a LAN round until it is heard or skipped", "[unit]") {
  SearchProgress progress;
  progress.LanRoundStarted();
  CHECK(progress.lan_waiting());
  CHECK(progress.Waiting());
  SECTION("heard") {
    progress.LanRoundHeard();
    CHECK(progress.lan_round() == LanRound::kHeard);
  }
  SECTION("skipped") {
    progress.LanRoundSkipped();
    CHECK(progress.lan_round() == LanRound::kSkipped);
  }
  CHECK_FALSE(progress.Waiting());
  CHECK_FALSE(progress.RemoteFailed());  // the LAN is not a remote stage
}

TEST_CASE("the DHT stage is done once its lookup ends, however it ends", "[unit]") {
  SearchProgress progress;
  progress.DhtStarted();
  CHECK(progress.dht_running());
  CHECK_FALSE(progress.dht_done());
  CHECK_FALSE(progress.Waiting());  // the DHT stage has its own timeout, not a wait
  SECTION("answered: no failure") {
    progress.DhtFinished(Dht::kAnswered);
    CHECK_FALSE(progress.RemoteFailed());
  }
  SECTION("timed out: failed") {
    progress.DhtFinished(Dht::kTimedOut);
    CHECK(progress.RemoteFailed());
  }
  SECTION("unreachable: failed") {
    progress.DhtFinished(Dht::kUnreachable);
    CHECK(progress.RemoteFailed());
  }
  SECTION("a refused lookup: busy, failed") {
    progress.DhtBusy();
    CHECK(progress.dht() == Dht::kBusy);
    CHECK(progress.RemoteFailed());
  }
  CHECK(progress.dht_done());
  CHECK_FALSE(progress.dht_running());
}

TEST_CASE("a query with no DHT key is answered by a store scan or is busy before starting",
          "[unit]") {
  SearchProgress scanned;
  scanned.StoreScanned();
  CHECK(scanned.dht() == Dht::kAnswered);
  CHECK(scanned.dht_done());
  SearchProgress busy;
  busy.DhtBusy();
  CHECK(busy.dht_done());
  CHECK(busy.RemoteFailed());
}

TEST_CASE("the SkillCenter stage is waited for until it answers, times out or fails", "[unit]") {
  SearchProgress progress;
  progress.CenterAsked();
  CHECK(progress.center_waiting());
  CHECK(progress.Waiting());
  SECTION("answered") {
    progress.CenterFinished(Center::kAnswered);
    CHECK_FALSE(progress.RemoteFailed());
  }
  SECTION("timed out") {
    progress.CenterFinished(Center::kTimedOut, "slow");
    CHECK(progress.RemoteFailed());
  }
  SECTION("failed") {
    progress.CenterFinished(Center::kFailed, "down");
    CHECK(progress.RemoteFailed());
  }
  CHECK_FALSE(progress.Waiting());
}

TEST_CASE("the stale read and the reply each happen once", "[unit]") {
  SearchProgress progress;
  progress.StaleReadDone();
  CHECK(progress.stale() == SearchProgress::Stale::kRead);
  progress.Replied();
  CHECK(progress.replied());
  CHECK(progress.reply() == SearchProgress::Reply::kSent);
}

TEST_CASE("an empty answer names the DHT's failure first, then the SkillCenter's, then busy",
          "[unit]") {
  const transport::Duration timeout = transport::Millis(3000);
  SECTION("nothing failed: DISC_002") {
    SearchProgress progress;
    progress.StoreScanned();
    const auto failure = progress.FailureOf(timeout);
    CHECK(failure.error == DiscError::kNoSkills);
    CHECK(failure.message == "no skill matches the query");
  }
  SECTION("a DHT timeout beats a SkillCenter failure: DISC_001 with the timeout") {
    SearchProgress progress;
    progress.DhtStarted();
    progress.DhtFinished(Dht::kTimedOut);
    progress.CenterAsked();
    progress.CenterFinished(Center::kFailed, "catalog down");
    const auto failure = progress.FailureOf(timeout);
    CHECK(failure.error == DiscError::kTimeout);
    CHECK(failure.message == "the DHT lookup did not finish within 3000 ms");
  }
  SECTION("an unreachable DHT: DISC_005") {
    SearchProgress progress;
    progress.DhtStarted();
    progress.DhtFinished(Dht::kUnreachable);
    CHECK(progress.FailureOf(timeout).error == DiscError::kNetwork);
  }
  SECTION("a SkillCenter timeout: DISC_001 with the stage's message") {
    SearchProgress progress;
    progress.DhtStarted();
    progress.DhtFinished(Dht::kAnswered);
    progress.CenterAsked();
    progress.CenterFinished(Center::kTimedOut, "no complete answer within 300 ms");
    const auto failure = progress.FailureOf(timeout);
    CHECK(failure.error == DiscError::kTimeout);
    CHECK(failure.message == "no complete answer within 300 ms");
  }
  SECTION("a SkillCenter failure beats a busy DHT: DISC_005 with the stage's message") {
    SearchProgress progress;
    progress.DhtBusy();
    progress.CenterAsked();
    progress.CenterFinished(Center::kFailed, "HTTP 503");
    const auto failure = progress.FailureOf(timeout);
    CHECK(failure.error == DiscError::kNetwork);
    CHECK(failure.message == "HTTP 503, and no cached answer is available");
  }
  SECTION("a busy DHT alone: DISC_005, try again") {
    SearchProgress progress;
    progress.DhtBusy();
    const auto failure = progress.FailureOf(timeout);
    CHECK(failure.error == DiscError::kNetwork);
    CHECK(failure.message.find("maximum of DHT lookups") != std::string::npos);
  }
}

}  // namespace
}  // namespace skillnode::discovery::search

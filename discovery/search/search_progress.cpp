// SearchProgress: the transitions of a search's stages, each asserting the state it leaves.
#include "discovery/search/search_progress.h"

#include <cassert>
#include <utility>

namespace skillnode::discovery::search {

void SearchProgress::LanRoundStarted() {
  assert(lan_round_ == LanRound::kNotStarted);
  lan_round_ = LanRound::kWaiting;
}

void SearchProgress::LanRoundHeard() {
  assert(lan_round_ == LanRound::kWaiting);
  lan_round_ = LanRound::kHeard;
}

void SearchProgress::LanRoundSkipped() {
  assert(lan_round_ == LanRound::kWaiting);
  lan_round_ = LanRound::kSkipped;
}

void SearchProgress::DhtStarted() {
  assert(dht_ == Dht::kNotStarted);
  dht_ = Dht::kRunning;
}

void SearchProgress::DhtFinished(Dht outcome) {
  assert(dht_ == Dht::kRunning);
  assert(outcome == Dht::kAnswered || outcome == Dht::kTimedOut || outcome == Dht::kUnreachable);
  dht_ = outcome;
}

void SearchProgress::DhtBusy() {
  // kRunning: the lookup was refused, and a refused lookup never calls back.
  assert(dht_ == Dht::kNotStarted || dht_ == Dht::kRunning);
  dht_ = Dht::kBusy;
}

void SearchProgress::StoreScanned() {
  assert(dht_ == Dht::kNotStarted);
  dht_ = Dht::kAnswered;
}

void SearchProgress::CenterAsked() {
  assert(center_ == Center::kNotAsked);
  center_ = Center::kWaiting;
}

void SearchProgress::CenterFinished(Center outcome, std::string message) {
  assert(center_ == Center::kWaiting);
  assert(outcome == Center::kAnswered || outcome == Center::kTimedOut ||
         outcome == Center::kFailed);
  center_ = outcome;
  center_message_ = std::move(message);
}

void SearchProgress::StaleReadDone() {
  assert(stale_ == Stale::kNotRead);
  stale_ = Stale::kRead;
}

void SearchProgress::Replied() {
  assert(reply_ == Reply::kOpen);
  reply_ = Reply::kSent;
}

bool SearchProgress::RemoteFailed() const {
  return dht_ == Dht::kTimedOut || dht_ == Dht::kUnreachable || dht_ == Dht::kBusy ||
         center_ == Center::kTimedOut || center_ == Center::kFailed;
}

SearchProgress::Failure SearchProgress::FailureOf(transport::Duration dht_timeout) const {
  // The order says which failure explains an empty answer best: the DHT's first.
  if (dht_ == Dht::kTimedOut) {
    return {DiscError::kTimeout, "the DHT lookup did not finish within " +
                                     std::to_string(dht_timeout.count() / 1000) + " ms"};
  }
  if (dht_ == Dht::kUnreachable) {
    return {DiscError::kNetwork, "no DHT node answered, and no cached answer is available"};
  }
  if (center_ == Center::kTimedOut) return {DiscError::kTimeout, center_message_};
  if (center_ == Center::kFailed) {
    return {DiscError::kNetwork, center_message_ + ", and no cached answer is available"};
  }
  if (dht_ == Dht::kBusy) {
    return {DiscError::kNetwork, "this node runs its maximum of DHT lookups; try again shortly"};
  }
  return {DiscError::kNoSkills, "no skill matches the query"};
}

}  // namespace skillnode::discovery::search

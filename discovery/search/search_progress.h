// SearchProgress: how far one search has come through the chain's asynchronous stages, as one
// state per stage (the LAN discover round, the DHT lookup, the SkillCenter call, the stale
// cache read, the answer), and what the states say together: whether the answer may wait
// for a stage, whether a remote stage failed, and which error an empty answer carries.
//
// Each transition asserts the state it leaves (asserts stay on in release builds), so a
// stage that finishes twice or out of order stops the node instead of answering twice.
// Owned by the search it tracks (Searcher's Pending); pure, no clock, not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_PROGRESS_H_
#define SKILLNODE_DISCOVERY_SEARCH_PROGRESS_H_

#include <string>

#include "discovery/search/search_types.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

class SearchProgress {
 public:
  // The SKILL_DISCOVER round of the LAN stage (only when the LAN table had nothing).
  enum class LanRound { kNotStarted, kWaiting, kHeard, kSkipped };
  // The DHT stage: a lookup of the query's key, or a scan of the store for a query with none.
  enum class Dht {
    kNotStarted,
    kRunning,
    kAnswered,     // the lookup finished with a reachable DHT, or the store was scanned
    kTimedOut,     // dht_timeout passed first
    kUnreachable,  // messages sent and not one reply
    kBusy,         // could not start: too many lookups running
  };
  // The SkillCenter stage (asked only when the stages before found nothing).
  enum class Center { kNotAsked, kWaiting, kAnswered, kTimedOut, kFailed };
  // The stale cache read after a remote stage failed; it is read at most once.
  enum class Stale { kNotRead, kRead };
  // The answer: given to the caller exactly once.
  enum class Reply { kOpen, kSent };

  // What an empty answer says: the seed's code and why.
  struct Failure {
    DiscError error;
    std::string message;
  };

  void LanRoundStarted();  // kNotStarted -> kWaiting
  void LanRoundHeard();    // kWaiting -> kHeard
  void LanRoundSkipped();  // kWaiting -> kSkipped

  void DhtStarted();              // kNotStarted -> kRunning
  void DhtFinished(Dht outcome);  // kRunning -> kAnswered, kTimedOut or kUnreachable
  void DhtBusy();                 // kNotStarted or kRunning (refused) -> kBusy
  void StoreScanned();            // kNotStarted -> kAnswered

  void CenterAsked();  // kNotAsked -> kWaiting
  // kWaiting -> kAnswered, kTimedOut or kFailed; `message` says why for the last two.
  void CenterFinished(Center outcome, std::string message = {});

  void StaleReadDone();  // kNotRead -> kRead
  void Replied();        // kOpen -> kSent

  LanRound lan_round() const { return lan_round_; }
  Dht dht() const { return dht_; }
  Center center() const { return center_; }
  Stale stale() const { return stale_; }
  Reply reply() const { return reply_; }

  bool lan_waiting() const { return lan_round_ == LanRound::kWaiting; }
  bool dht_running() const { return dht_ == Dht::kRunning; }
  // The DHT stage is over, however it ended.
  bool dht_done() const { return dht_ != Dht::kNotStarted && dht_ != Dht::kRunning; }
  bool center_waiting() const { return center_ == Center::kWaiting; }
  bool replied() const { return reply_ == Reply::kSent; }
  // A stage the answer would wait for is still running (the LAN round or the SkillCenter).
  bool Waiting() const { return lan_waiting() || center_waiting(); }
  // The DHT or the SkillCenter stage failed: the stale cache may answer instead.
  bool RemoteFailed() const;
  // Why an answer with no skill found none: the first failed remote stage, else DISC_002.
  // `dht_timeout` is the DHT stage's timeout, named in its message.
  Failure FailureOf(transport::Duration dht_timeout) const;

 private:
  LanRound lan_round_ = LanRound::kNotStarted;
  Dht dht_ = Dht::kNotStarted;
  Center center_ = Center::kNotAsked;
  std::string center_message_;  // why the SkillCenter stage timed out or failed
  Stale stale_ = Stale::kNotRead;
  Reply reply_ = Reply::kOpen;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_PROGRESS_H_

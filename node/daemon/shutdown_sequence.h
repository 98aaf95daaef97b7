// ShutdownSequence: the daemon's shutdown, in order and exactly once. Owned by the Daemon,
// which begins it on the first SIGINT or SIGTERM (or RequestStop) after it stopped accepting
// HTTP connections:
//
//   kRunning --Begin()--> kStepsRunning --every step done, or the budget spent--> kSaving
//   (ShutdownActions::save: the routing table) --> kClosing (ShutdownActions::close: the node
//   stops, every handle closes) --> kDone.
//
// The shutdown steps (AddStep) run all at once, for at most the budget (kShutdownStepsBudget):
// the node keeps running meanwhile, so steps may send datagrams and wait for answers. A step
// calls its `done` once; calls after the budget was spent, or a second call, are ignored. The
// sequence owns no handle: the budget's timer comes through ShutdownActions::start_timer, so
// tests drive it by hand. Loop thread only.
#ifndef SKILLNODE_NODE_DAEMON_SHUTDOWN_SEQUENCE_H_
#define SKILLNODE_NODE_DAEMON_SHUTDOWN_SEQUENCE_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "transport/clock.h"
#include "transport/logger.h"

namespace skillnode::node::daemon {

// Time the shutdown steps get in total; with the rest of the shutdown (a save, closing
// handles: milliseconds) the process exits well within the 2 s a supervisor allows.
constexpr transport::Duration kShutdownStepsBudget = transport::Millis(1200);

// A part's work at shutdown, before the node stops; calls `done` once when finished.
using ShutdownStep = std::function<void(std::function<void()> done)>;

// What the sequence has its owner do.
struct ShutdownActions {
  // Calls `expired` once, `budget` from now (unless the handles close first).
  std::function<void(transport::Duration budget, std::function<void()> expired)> start_timer;
  std::function<void()> save;   // after the steps: save the state
  std::function<void()> close;  // then: stop the node and close every handle
};

class ShutdownSequence {
 public:
  enum class State { kRunning, kStepsRunning, kSaving, kClosing, kDone };

  ShutdownSequence(ShutdownActions actions, transport::Logger& logger,
                   transport::Duration budget = kShutdownStepsBudget);
  ShutdownSequence(const ShutdownSequence&) = delete;
  ShutdownSequence& operator=(const ShutdownSequence&) = delete;

  // For use before Begin().
  void AddStep(std::string name, ShutdownStep step);
  // Starts the budget's timer and every step; returns false (and does nothing) when the
  // sequence began already.
  bool Begin();
  // The budget's timer: the steps still running are left behind.
  void OnBudgetSpent();

  State state() const { return state_; }
  bool running() const { return state_ == State::kRunning; }
  size_t steps_pending() const { return steps_pending_; }

 private:
  void OnStepDone(const std::string& name);
  void Finish();

  const ShutdownActions actions_;
  transport::Logger& logger_;
  const transport::Duration budget_;
  std::vector<std::pair<std::string, ShutdownStep>> steps_;
  State state_ = State::kRunning;
  size_t steps_pending_ = 0;
};

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_SHUTDOWN_SEQUENCE_H_

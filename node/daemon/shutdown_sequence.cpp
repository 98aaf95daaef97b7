#include "node/daemon/shutdown_sequence.h"

#include <cassert>
#include <memory>

#include "node/spd_logger.h"

namespace skillnode::node::daemon {

ShutdownSequence::ShutdownSequence(ShutdownActions actions, transport::Logger& logger,
                                   transport::Duration budget)
    : actions_(std::move(actions)), logger_(logger), budget_(budget) {
  assert(actions_.start_timer && actions_.save && actions_.close &&
         "a ShutdownSequence needs every action");
}

void ShutdownSequence::AddStep(std::string name, ShutdownStep step) {
  assert(state_ == State::kRunning && "shutdown steps are added before the shutdown begins");
  steps_.emplace_back(std::move(name), std::move(step));
}

bool ShutdownSequence::Begin() {
  if (state_ != State::kRunning) return false;
  state_ = State::kStepsRunning;
  // One count held while the steps start, so a step that finishes at once cannot end the
  // shutdown before the others have started.
  steps_pending_ = steps_.size() + 1;
  actions_.start_timer(budget_, [this] { OnBudgetSpent(); });
  for (auto& [name, step] : steps_) {
    auto finished = std::make_shared<bool>(false);
    step([this, finished, step_name = name] {
      if (*finished || state_ != State::kStepsRunning) return;
      *finished = true;
      OnStepDone(step_name);
    });
  }
  if (state_ == State::kStepsRunning && --steps_pending_ == 0) Finish();
  return true;
}

void ShutdownSequence::OnBudgetSpent() {
  if (state_ != State::kStepsRunning) return;
  LogAt(logger_, transport::LogLevel::kWarn,
        std::to_string(steps_pending_) + " shutdown steps still running after " +
            std::to_string(budget_.count() / 1000) + " ms: going on without them");
  Finish();
}

void ShutdownSequence::OnStepDone(const std::string& name) {
  assert(steps_pending_ > 0 && "a step finished that was not counted");
  LogAt(logger_, transport::LogLevel::kDebug, "shutdown step " + name + " done");
  if (--steps_pending_ == 0) Finish();
}

void ShutdownSequence::Finish() {
  assert(state_ == State::kStepsRunning && "the shutdown finishes once");
  state_ = State::kSaving;
  actions_.save();
  state_ = State::kClosing;
  actions_.close();
  state_ = State::kDone;
}

}  // namespace skillnode::node::daemon

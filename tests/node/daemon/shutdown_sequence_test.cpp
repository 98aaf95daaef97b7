// ShutdownSequence: the shutdown's steps, their budget, then the save and the close, exactly
// once; the budget's timer is driven by hand.
#include "node/daemon/shutdown_sequence.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

namespace skillnode::node::daemon {
namespace {

using State = ShutdownSequence::State;

// Records what the sequence asked for, in order.
struct Recorder {
  std::vector<std::string> events;
  std::function<void()> expire;  // the budget timer's callback, once started
  transport::Duration budget{};
  State state_at_save = State::kRunning;
  State state_at_close = State::kRunning;
  ShutdownSequence* sequence = nullptr;

  ShutdownActions Actions() {
    return {.start_timer =
                [this](transport::Duration d, std::function<void()> expired) {
                  events.push_back("timer");
                  budget = d;
                  expire = std::move(expired);
                },
            .save =
                [this] {
                  events.push_back("save");
                  state_at_save = sequence->state();
                },
            .close =
                [this] {
                  events.push_back("close");
                  state_at_close = sequence->state();
                }};
  }
};

struct Fixture {
  Recorder recorder;
  transport::NullLogger logger;
  ShutdownSequence sequence{recorder.Actions(), logger};
  Fixture() { recorder.sequence = &sequence; }
};

TEST_CASE("a shutdown without steps saves and closes at once, in that order", "[unit]") {
  Fixture f;
  CHECK(f.sequence.running());
  CHECK(f.sequence.Begin());
  CHECK(f.recorder.events == std::vector<std::string>{"timer", "save", "close"});
  CHECK(f.recorder.budget == kShutdownStepsBudget);
  CHECK(f.recorder.state_at_save == State::kSaving);
  CHECK(f.recorder.state_at_close == State::kClosing);
  CHECK(f.sequence.state() == State::kDone);
}

TEST_CASE("the shutdown waits for every step, started all at once", "[unit]") {
  Fixture f;
  std::vector<std::function<void()>> done;
  for (const char* name : {"unpublish", "withdraw"}) {
    f.sequence.AddStep(name, [&f, &done, name](std::function<void()> d) {
      f.recorder.events.push_back(std::string("step ") + name);
      done.push_back(std::move(d));
    });
  }
  REQUIRE(f.sequence.Begin());
  CHECK(f.recorder.events == std::vector<std::string>{"timer", "step unpublish", "step withdraw"});
  CHECK(f.sequence.state() == State::kStepsRunning);
  CHECK(f.sequence.steps_pending() == 2);
  done[1]();
  done[1]();  // a second call is ignored
  CHECK(f.sequence.steps_pending() == 1);
  CHECK(f.sequence.state() == State::kStepsRunning);
  done[0]();
  CHECK(f.sequence.state() == State::kDone);
  CHECK(f.recorder.events.back() == "close");
  f.recorder.expire();  // the timer firing late changes nothing
  CHECK(std::count(f.recorder.events.begin(), f.recorder.events.end(), "save") == 1);
}

TEST_CASE("a step that finishes at once does not end the shutdown before the others start",
          "[unit]") {
  Fixture f;
  std::function<void()> slow_done;
  f.sequence.AddStep("quick", [](std::function<void()> d) { d(); });
  f.sequence.AddStep("slow", [&](std::function<void()> d) { slow_done = std::move(d); });
  REQUIRE(f.sequence.Begin());
  CHECK(f.sequence.state() == State::kStepsRunning);
  slow_done();
  CHECK(f.sequence.state() == State::kDone);
}

TEST_CASE("the budget spent, the shutdown goes on without the steps still running", "[unit]") {
  Fixture f;
  std::function<void()> hung;
  f.sequence.AddStep("hung", [&](std::function<void()> d) { hung = std::move(d); });
  REQUIRE(f.sequence.Begin());
  REQUIRE(f.recorder.expire);
  f.recorder.expire();
  CHECK(f.sequence.state() == State::kDone);
  CHECK(f.recorder.events == std::vector<std::string>{"timer", "save", "close"});
  hung();  // a late `done` is ignored
  CHECK(f.recorder.events.size() == 3);
}

TEST_CASE("the shutdown begins once", "[unit]") {
  Fixture f;
  std::function<void()> step_done;
  f.sequence.AddStep("step", [&](std::function<void()> d) { step_done = std::move(d); });
  CHECK(f.sequence.Begin());
  CHECK_FALSE(f.sequence.Begin());
  step_done();
  CHECK_FALSE(f.sequence.Begin());
  CHECK(std::count(f.recorder.events.begin(), f.recorder.events.end(), "timer") == 1);
  CHECK(std::count(f.recorder.events.begin(), f.recorder.events.end(), "close") == 1);
}

}  // namespace
}  // namespace skillnode::node::daemon

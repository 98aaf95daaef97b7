#include "transport/uv/uv_env.h"

#include <utility>

namespace skillnode::transport::uv {

UvEnv::UvEnv(Logger& logger, uint64_t rng_seed)
    : logger_(logger), rng_(rng_seed), udp_(loop_, logger), timer_(loop_), prepare_(loop_) {}

UvEnv::~UvEnv() { Close(); }

uint64_t UvEnv::RandomSeed() {
  uint64_t seed = 0;
  // Synchronous form (no loop, no callback): reads getrandom(2) or /dev/urandom.
  if (uv_random(nullptr, nullptr, &seed, sizeof(seed), 0, nullptr) != 0) {
    seed = uv_hrtime();  // no OS entropy: still a different stream per start
  }
  return seed;
}

void UvEnv::AddStepper(Stepper stepper) { steppers_.push_back(std::move(stepper)); }

void UvEnv::Start() {
  prepare_.Start([this] { Rearm(); });
}

void UvEnv::Step() {
  armed_ = kTimeNever;
  if (closed_) return;
  const TimePoint now = Now();
  // By index: a stepper may add another (it then runs from the next wake-up).
  for (size_t i = 0; i < steppers_.size() && !closed_; ++i) {
    if (steppers_[i].next_deadline() <= now) steppers_[i].on_timer(now);
  }
}

void UvEnv::Rearm() {
  if (closed_) return;
  TimePoint next = kTimeNever;
  for (const Stepper& stepper : steppers_) next = std::min(next, stepper.next_deadline());
  if (next == armed_ && timer_.active()) return;
  armed_ = next;
  if (next == kTimeNever) {
    timer_.Stop();
    return;
  }
  const Duration delay = next <= Now() ? Duration(0) : next - Now();
  timer_.Start(delay, [this] { Step(); });
}

void UvEnv::Close() {
  if (closed_) return;
  closed_ = true;
  timer_.Close();
  prepare_.Close();
  udp_.Close();
}

}  // namespace skillnode::transport::uv

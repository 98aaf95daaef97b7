// UvEnv: the libuv Env (docs/architecture.md "Layers"): everything a protocol component takes
// from the world, on one loop and one thread.
//
//   Now()        monotonic time (UvLoop)
//   udp()        the Transport: UDP on IPv4 and IPv6 (UdpTransport)
//   rng()        a seeded Rng (seeded from the OS by default; fixed seeds for tests)
//   logger()     the injected Logger
//   AddStepper   drives step functions (kademlia::Node, bootstrap::Bootstrapper, ...): each
//                gives NextDeadline() and OnTimer(now); one libuv timer wakes the earliest.
//
// The timer is re-armed once per loop iteration, just before the loop waits (uv_prepare), so
// whatever changed a deadline in that iteration (a datagram, a DNS answer, an HTTP request
// that started a lookup) is covered without every caller remembering to reschedule. A
// deadline of kTimeZero means "as soon as possible"; kTimeNever means "not at all". Steppers
// whose deadline has come are called in the order they were added.
//
// Close() closes the env's handles; the owner then runs the loop dry and calls CloseLoop().
// Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_ENV_H_
#define SKILLNODE_TRANSPORT_UV_UV_ENV_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "transport/clock.h"
#include "transport/logger.h"
#include "transport/rng.h"
#include "transport/uv/udp_transport.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_prepare.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport::uv {

struct Stepper {
  std::function<TimePoint()> next_deadline;
  std::function<void(TimePoint now)> on_timer;
};

class UvEnv {
 public:
  UvEnv(Logger& logger, uint64_t rng_seed);
  UvEnv(const UvEnv&) = delete;
  UvEnv& operator=(const UvEnv&) = delete;
  ~UvEnv();

  // 64 bits from the operating system's generator (uv_random), for seeding.
  static uint64_t RandomSeed();

  UvLoop& loop() { return loop_; }
  TimePoint Now() const { return loop_.Now(); }
  Rng& rng() { return rng_; }
  Logger& logger() { return logger_; }
  UdpTransport& udp() { return udp_; }
  const UdpTransport& udp() const { return udp_; }

  void AddStepper(Stepper stepper);
  // Starts driving the steppers.
  void Start();
  // Fires due steppers now (also what the timer does).
  void Step();
  void Close();
  // After Close() and the loop has run dry: closes the loop.
  LoopCloseReport CloseLoop() { return loop_.Close(); }

 private:
  void Rearm();

  UvLoop loop_;
  Logger& logger_;
  Rng rng_;
  UdpTransport udp_;
  UvTimer timer_;
  UvPrepare prepare_;
  std::vector<Stepper> steppers_;
  TimePoint armed_ = kTimeNever;
  bool closed_ = false;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_ENV_H_

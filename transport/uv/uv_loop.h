// UvLoop: the one libuv event loop of a process, and its clock.
//
// Everything the daemon does (UDP, timers, HTTP, signals, DNS completions) runs as callbacks
// on this loop's thread. Now() reads the monotonic clock (uv_hrtime) as a NodeClock TimePoint
// whose epoch is the loop's creation, plus one second so that kTimeZero ("never") is never a
// real instant. Not thread-safe.
#ifndef SKILLNODE_TRANSPORT_UV_UV_LOOP_H_
#define SKILLNODE_TRANSPORT_UV_UV_LOOP_H_

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "transport/clock.h"

namespace skillnode::transport::uv {

// What UvLoop::Close() found: handles left open are bugs (every owner closes its own).
struct LoopCloseReport {
  std::vector<std::string> leaked_handles;  // libuv type names of handles still open
  int close_result = 0;                     // uv_loop_close(): 0 when every handle is gone

  bool clean() const { return leaked_handles.empty() && close_result == 0; }
};

class UvLoop {
 public:
  UvLoop();
  UvLoop(const UvLoop&) = delete;
  UvLoop& operator=(const UvLoop&) = delete;
  // Closes the loop if Close() was not called (and asserts nothing is left open then).
  ~UvLoop();

  uv_loop_t* get() { return &loop_; }
  TimePoint Now() const;

  // Runs until no active handle or request is left (uv_run UV_RUN_DEFAULT), or Stop().
  void Run();
  // Makes Run() return after the current iteration.
  void Stop();

  // Reports handles that are still open, closes them, lets their close callbacks run and
  // closes the loop. Call after every owner closed its handles and Run() returned.
  LoopCloseReport Close();
  bool closed() const { return closed_; }

 private:
  uv_loop_t loop_{};
  uint64_t start_ns_ = 0;
  bool closed_ = false;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_LOOP_H_

// UvTimer: a one-shot libuv timer that calls a callback on the loop thread.
//
// Start() replaces any earlier schedule. The callback never runs after Stop(), Close() or the
// destructor. Non-copyable, non-movable (UvHandle); loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_TIMER_H_
#define SKILLNODE_TRANSPORT_UV_UV_TIMER_H_

#include <functional>

#include "transport/clock.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

class UvTimer {
 public:
  explicit UvTimer(UvLoop& loop);
  UvTimer(const UvTimer&) = delete;
  UvTimer& operator=(const UvTimer&) = delete;

  // Calls `callback` once, `delay` from now (rounded up to libuv's millisecond resolution, so
  // it never fires before `delay` has passed).
  void Start(Duration delay, std::function<void()> callback);
  void Stop();
  void Close();
  bool active() const;

 private:
  static void OnFire(uv_timer_t* handle);

  UvHandle<uv_timer_t> handle_;
  std::function<void()> callback_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_TIMER_H_

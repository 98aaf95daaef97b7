// UvSignal: delivers a POSIX signal (SIGINT, SIGTERM) as a callback on the loop thread.
//
// libuv turns the asynchronous signal into an ordinary loop event, so the callback may do
// anything. Non-copyable, non-movable (UvHandle); loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_SIGNAL_H_
#define SKILLNODE_TRANSPORT_UV_UV_SIGNAL_H_

#include <functional>

#include "transport/result.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

class UvSignal {
 public:
  explicit UvSignal(UvLoop& loop);
  UvSignal(const UvSignal&) = delete;
  UvSignal& operator=(const UvSignal&) = delete;

  // Calls `callback(signum)` every time `signum` arrives, until Close().
  [[nodiscard]] Result<void> Start(int signum, std::function<void(int)> callback);
  void Close();

 private:
  static void OnSignal(uv_signal_t* handle, int signum);

  UvHandle<uv_signal_t> handle_;
  std::function<void(int)> callback_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_SIGNAL_H_

#include "transport/uv/uv_loop.h"

#include <cassert>

namespace skillnode::transport::uv {
namespace {

// TimePoints start here rather than at kTimeZero, which callers use as "never".
constexpr Duration kEpochOffset = Seconds(1);

}  // namespace

UvLoop::UvLoop() {
  const int rc = uv_loop_init(&loop_);
  assert(rc == 0 && "uv_loop_init failed");
  (void)rc;
  start_ns_ = uv_hrtime();
}

UvLoop::~UvLoop() {
  if (!closed_) {
    const LoopCloseReport report = Close();
    assert(report.clean() && "libuv handles left open at loop destruction");
    (void)report;
  }
}

TimePoint UvLoop::Now() const {
  const uint64_t elapsed_ns = uv_hrtime() - start_ns_;
  return kTimeZero + kEpochOffset + std::chrono::microseconds(elapsed_ns / 1000);
}

void UvLoop::Run() { uv_run(&loop_, UV_RUN_DEFAULT); }

void UvLoop::Stop() { uv_stop(&loop_); }

LoopCloseReport UvLoop::Close() {
  LoopCloseReport report;
  if (closed_) return report;
  uv_walk(
      &loop_,
      [](uv_handle_t* handle, void* arg) {
        if (uv_is_closing(handle) != 0) return;
        static_cast<LoopCloseReport*>(arg)->leaked_handles.emplace_back(
            uv_handle_type_name(uv_handle_get_type(handle)));
        // The owner failed to close it; its memory is lost, but the loop can still close.
        uv_close(handle, nullptr);
      },
      &report);
  // Lets pending close callbacks (ours and the leaked ones) run.
  uv_run(&loop_, UV_RUN_DEFAULT);
  report.close_result = uv_loop_close(&loop_);
  closed_ = report.close_result == 0;
  return report;
}

}  // namespace skillnode::transport::uv

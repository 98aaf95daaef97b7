#include "transport/uv/uv_timer.h"

#include <cassert>
#include <utility>

namespace skillnode::transport::uv {

UvTimer::UvTimer(UvLoop& loop) {
  const int rc = uv_timer_init(loop.get(), handle_.get());
  assert(rc == 0 && "uv_timer_init cannot fail on Linux");
  (void)rc;
  handle_.Initialized(this);
}

void UvTimer::Start(Duration delay, std::function<void()> callback) {
  if (!handle_.open()) return;
  callback_ = std::move(callback);
  const int64_t micros = std::max<int64_t>(0, delay.count());
  // libuv counts whole milliseconds from the loop's cached time: refresh it (callbacks
  // earlier in this iteration may have taken a while), and add one millisecond for the part
  // of a millisecond the cached time lags, so the timer never fires before `delay`.
  const uint64_t millis = static_cast<uint64_t>((micros + 999) / 1000) + (micros > 0 ? 1 : 0);
  uv_update_time(handle_.get()->loop);
  uv_timer_start(handle_.get(), &UvTimer::OnFire, millis, 0);
}

void UvTimer::Stop() {
  if (handle_.open()) uv_timer_stop(handle_.get());
}

void UvTimer::Close() {
  callback_ = nullptr;
  handle_.Close();
}

bool UvTimer::active() const { return handle_.open() && uv_is_active(handle_.base()) != 0; }

void UvTimer::OnFire(uv_timer_t* handle) {
  auto* self = static_cast<UvTimer*>(handle->data);
  if (self == nullptr || !self->callback_) return;
  // Moved out first: the callback may Start() this timer again with a new callback.
  auto callback = std::move(self->callback_);
  self->callback_ = nullptr;
  callback();
}

}  // namespace skillnode::transport::uv

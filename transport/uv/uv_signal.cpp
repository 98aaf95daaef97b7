#include "transport/uv/uv_signal.h"

#include <cassert>
#include <string>
#include <utility>

namespace skillnode::transport::uv {

UvSignal::UvSignal(UvLoop& loop) {
  const int rc = uv_signal_init(loop.get(), handle_.get());
  assert(rc == 0 && "uv_signal_init failed");
  (void)rc;
  handle_.Initialized(this);
}

Result<void> UvSignal::Start(int signum, std::function<void(int)> callback) {
  callback_ = std::move(callback);
  const int rc = uv_signal_start(handle_.get(), &UvSignal::OnSignal, signum);
  if (rc != 0) {
    return Fail(ErrorCode::kIo,
                "cannot watch signal " + std::to_string(signum) + ": " + uv_strerror(rc));
  }
  return {};
}

void UvSignal::Close() {
  callback_ = nullptr;
  handle_.Close();
}

void UvSignal::OnSignal(uv_signal_t* handle, int signum) {
  auto* self = static_cast<UvSignal*>(handle->data);
  if (self != nullptr && self->callback_) self->callback_(signum);
}

}  // namespace skillnode::transport::uv

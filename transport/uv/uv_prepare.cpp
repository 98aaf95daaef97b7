#include "transport/uv/uv_prepare.h"

#include <cassert>
#include <utility>

namespace skillnode::transport::uv {

UvPrepare::UvPrepare(UvLoop& loop) {
  const int rc = uv_prepare_init(loop.get(), handle_.get());
  assert(rc == 0 && "uv_prepare_init cannot fail");
  (void)rc;
  handle_.Initialized(this);
}

void UvPrepare::Start(std::function<void()> callback) {
  if (!handle_.open()) return;
  callback_ = std::move(callback);
  uv_prepare_start(handle_.get(), &UvPrepare::OnPrepare);
}

void UvPrepare::Close() {
  callback_ = nullptr;
  handle_.Close();
}

void UvPrepare::OnPrepare(uv_prepare_t* handle) {
  auto* self = static_cast<UvPrepare*>(handle->data);
  if (self != nullptr && self->callback_) self->callback_();
}

}  // namespace skillnode::transport::uv

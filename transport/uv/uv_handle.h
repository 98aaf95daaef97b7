// UvHandle<T>: one libuv handle (uv_timer_t, uv_udp_t, uv_signal_t, ...) owned by a wrapper.
//
// libuv uses a handle's memory until the close callback has run, which may be after its owner
// is gone, so the handle lives on the heap and is freed only in that callback (docs/architecture.md
// "Code rules"). `data` points at the owner until Close(); from Close() on it is null, so a late
// callback (a send cancelled by the close, say) knows its owner may be gone and touches only its
// own request. Close() is idempotent and the destructor calls it, but the loop must still run
// afterwards for the memory to be freed. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_HANDLE_H_
#define SKILLNODE_TRANSPORT_UV_UV_HANDLE_H_

#include <uv.h>

namespace skillnode::transport::uv {

template <typename T>
class UvHandle {
 public:
  UvHandle() : handle_(new T{}) {}
  UvHandle(const UvHandle&) = delete;
  UvHandle& operator=(const UvHandle&) = delete;
  ~UvHandle() { Close(); }

  T* get() const { return handle_; }
  uv_handle_t* base() const { return reinterpret_cast<uv_handle_t*>(handle_); }

  // Call after uv_<type>_init succeeded with `owner` as the data pointer; until then Close()
  // frees the memory directly, since libuv never knew the handle.
  void Initialized(void* owner) {
    handle_->data = owner;
    initialized_ = true;
  }
  bool open() const { return handle_ != nullptr && initialized_; }

  void Close() {
    if (handle_ == nullptr) return;
    T* handle = handle_;
    handle_ = nullptr;
    handle->data = nullptr;
    if (!initialized_) {
      delete handle;
      return;
    }
    if (uv_is_closing(reinterpret_cast<uv_handle_t*>(handle)) == 0) {
      uv_close(reinterpret_cast<uv_handle_t*>(handle),
               [](uv_handle_t* closed) { delete reinterpret_cast<T*>(closed); });
    }
  }

 private:
  T* handle_;
  bool initialized_ = false;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_HANDLE_H_

// UvPrepare: a callback that runs once per loop iteration, just before the loop waits for I/O.
//
// The daemon re-arms its protocol timer here, so that whatever happened in the iteration
// (datagrams, DNS answers, HTTP requests that started lookups) is covered by one computation
// of the next deadline. Non-copyable, non-movable (UvHandle); loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_PREPARE_H_
#define SKILLNODE_TRANSPORT_UV_UV_PREPARE_H_

#include <functional>

#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

class UvPrepare {
 public:
  explicit UvPrepare(UvLoop& loop);
  UvPrepare(const UvPrepare&) = delete;
  UvPrepare& operator=(const UvPrepare&) = delete;

  void Start(std::function<void()> callback);
  void Close();

 private:
  static void OnPrepare(uv_prepare_t* handle);

  UvHandle<uv_prepare_t> handle_;
  std::function<void()> callback_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_PREPARE_H_

// ConnectionWriter (connection_writer.h): libuv writes with their buffers, and the FIN.
#include "node/http/connection_writer.h"

#include <cassert>
#include <memory>
#include <utility>

namespace skillnode::node::http {

struct ConnectionWriter::WriteRequest {
  uv_write_t request{};
  ConnectionWriter* writer = nullptr;
  std::string bytes;  // alive until OnWritten, as libuv requires
};

ConnectionWriter::ConnectionWriter(Done written, Done shut_down)
    : written_(std::move(written)), shut_down_(std::move(shut_down)) {}

void ConnectionWriter::Attach(uv_stream_t* stream) {
  assert(stream_ == nullptr && stream != nullptr && "attached once");
  stream_ = stream;
}

bool ConnectionWriter::Write(std::string bytes) {
  assert(stream_ != nullptr && "attached before the first write");
  if (bytes.empty()) return true;
  auto request = std::make_unique<WriteRequest>();
  request->writer = this;
  request->bytes = std::move(bytes);
  request->request.data = request.get();
  uv_buf_t buf = uv_buf_init(request->bytes.data(), static_cast<unsigned>(request->bytes.size()));
  if (uv_write(&request->request, stream_, &buf, 1, &ConnectionWriter::OnWritten) != 0) {
    return false;
  }
  request.release();  // owned by libuv until OnWritten
  ++in_flight_;
  return true;
}

void ConnectionWriter::OnWritten(uv_write_t* request, int status) {
  std::unique_ptr<WriteRequest> owned(static_cast<WriteRequest*>(request->data));
  ConnectionWriter& writer = *owned->writer;
  assert(writer.in_flight_ > 0);
  --writer.in_flight_;
  writer.written_(status);
}

bool ConnectionWriter::Shutdown() {
  assert(stream_ != nullptr && "attached before the shutdown");
  shutdown_.data = this;
  return uv_shutdown(&shutdown_, stream_, &ConnectionWriter::OnShutdown) == 0;
}

void ConnectionWriter::OnShutdown(uv_shutdown_t* request, int status) {
  static_cast<ConnectionWriter*>(request->data)->shut_down_(status);
}

size_t ConnectionWriter::queued_bytes() const {
  return stream_ == nullptr ? 0 : uv_stream_get_write_queue_size(stream_);
}

}  // namespace skillnode::node::http

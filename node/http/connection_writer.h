// ConnectionWriter: the sending side of one HttpConnection's socket (http_connection.h).
//
// It hands byte strings to libuv, each kept alive until its write callback (libuv's rule for
// buffers), counts the writes in flight, tells how many bytes the peer has not taken yet (the
// connection stops reading requests past write_queue_bytes_max, and drops an event stream past
// kEventStreamQueueBytesMax), and ends the sending direction with a FIN (uv_shutdown) for the
// lingering close. What the bytes are (plain HTTP, TLS records) is the connection's business.
//
// It owns no handle: the connection's uv_tcp_t outlives every write and the shutdown, whose
// callbacks (cancelled ones too) run before the handle's close callback. Each callback runs
// exactly once, after the count of writes in flight has dropped. Non-copyable, non-movable;
// loop thread only.
#ifndef SKILLNODE_NODE_HTTP_CONNECTION_WRITER_H_
#define SKILLNODE_NODE_HTTP_CONNECTION_WRITER_H_

#include <uv.h>

#include <cstddef>
#include <functional>
#include <string>

namespace skillnode::node::http {

class ConnectionWriter {
 public:
  // Gets libuv's status: 0, or negative when the write (or shutdown) failed or was cancelled.
  using Done = std::function<void(int status)>;

  // `written` runs after each write, `shut_down` after the shutdown.
  ConnectionWriter(Done written, Done shut_down);
  ConnectionWriter(const ConnectionWriter&) = delete;
  ConnectionWriter& operator=(const ConnectionWriter&) = delete;

  // The stream to write to: set once, before the first write.
  void Attach(uv_stream_t* stream);
  // Queues `bytes` (nothing at all for none). False when libuv refused the write; no callback
  // comes for it then.
  [[nodiscard]] bool Write(std::string bytes);
  // Sends FIN once the queued writes are out. False when libuv refused; no callback then.
  [[nodiscard]] bool Shutdown();

  // Writes whose callback has not run yet.
  size_t in_flight() const { return in_flight_; }
  // Bytes queued in libuv that the peer has not taken yet.
  size_t queued_bytes() const;

 private:
  struct WriteRequest;
  static void OnWritten(uv_write_t* request, int status);
  static void OnShutdown(uv_shutdown_t* request, int status);

  Done written_;
  Done shut_down_;
  uv_stream_t* stream_ = nullptr;
  uv_shutdown_t shutdown_{};
  size_t in_flight_ = 0;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_CONNECTION_WRITER_H_

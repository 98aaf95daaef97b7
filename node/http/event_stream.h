// EventStream: a Server-Sent Events answer (text/event-stream) that a handler keeps open and
// writes events to as they happen, e.g. GET /api/v1/watch.
//
// A handler turns its Responder into a stream with Responder::StartEventStream(); the
// connection then sends the status line and headers at once and every Send() as one event:
//   event: <name>\ndata: <json>\n\n
// The stream ends when the handler calls End(), the client goes away, the client reads too
// slowly (more than kEventStreamQueueBytesMax unsent: it is dropped), or the node shuts down;
// in every case but End() the handler's OnClosed callback runs once, so it can let go of what
// feeds the stream. A comment line is sent every kEventStreamKeepAlive so that proxies and
// clients see the connection is alive. Loop thread only.
#ifndef SKILLNODE_NODE_HTTP_EVENT_STREAM_H_
#define SKILLNODE_NODE_HTTP_EVENT_STREAM_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "transport/clock.h"

namespace skillnode::node::http {

// Bytes waiting to be sent on one stream before its client counts as too slow.
constexpr size_t kEventStreamQueueBytesMax = 1024 * 1024;
constexpr transport::Duration kEventStreamKeepAlive = transport::Seconds(15);

// The state a stream shares with its connection; the connection clears `write` and `end`
// when it closes.
struct StreamSlot {
  std::function<void(std::string bytes)> write;
  std::function<void()> end;
  std::function<void()> on_closed;
};

class EventStream {
 public:
  EventStream() = default;  // not open
  explicit EventStream(std::shared_ptr<StreamSlot> slot) : slot_(std::move(slot)) {}

  // Sends one event; false when the stream is no longer open.
  bool Send(std::string_view event, const nlohmann::json& data);
  // Ends the stream (the connection closes once the events are out).
  void End();
  bool open() const { return slot_ != nullptr && slot_->write != nullptr; }
  // Runs once when the stream closes for any reason but End().
  void OnClosed(std::function<void()> callback);

 private:
  std::shared_ptr<StreamSlot> slot_;
};

// "event: name\ndata: {...}\n\n" (data is one line: JSON has no raw newlines).
std::string FormatEvent(std::string_view event, const nlohmann::json& data);

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_EVENT_STREAM_H_
